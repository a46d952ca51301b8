import { type CfnElement, Stack, Token } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * How cdk-nag names a resource in an IAM wildcard finding: pseudo parameters as `<AWS::...>`,
 * concrete region/account as themselves, other resources' attributes as `<LogicalId.Attr>`.
 * Acknowledgements must match findings exactly, so they are built with these helpers.
 */
export function nagArn(scope: IConstruct, service: string, resource: string, withAccount = true): string {
  const stack = Stack.of(scope);
  const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
  const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
  return `arn:<AWS::Partition>:${service}:${region}:${withAccount ? account : ''}:${resource}`;
}

/** `<LogicalId.Arn>` of a CloudFormation resource, as cdk-nag prints it. */
export function nagAttribute(resource: IConstruct, attribute = 'Arn'): string {
  const stack = Stack.of(resource);
  return `<${stack.getLogicalId(resource as CfnElement)}.${attribute}>`;
}
