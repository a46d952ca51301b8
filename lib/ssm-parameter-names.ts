import type { Stack } from 'aws-cdk-lib';

/**
 * An SSM parameter name the controller functions may read (`ssm:GetParameter`): an EC2NodeClass
 * `amiSelectorTerms[].ssmParameter`, or the parameter of an alias outside the public EKS and
 * Bottlerocket paths. A hierarchical name (`/team/amis/node`) or a flat one (`node-ami`), of the
 * characters SSM allows (letters, digits, `.`, `-`, `_`, `/`), at most 15 levels; a trailing `*`
 * grants every parameter whose name starts with what comes before it (`/team/amis/*`).
 */
const SEGMENT = /^[A-Za-z0-9_.-]+$/;
const MAX_LEVELS = 15;
const MAX_LENGTH = 1011;

/** Why `name` is not a parameter name joiner can grant, or undefined when it is one. */
export function ssmParameterNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name === '') return 'must be a non-empty string';
  if (name.startsWith('arn:'))
    return 'must be a parameter name such as /my-team/amis/node, not an ARN (the stack adds region and account)';
  if (name.length > MAX_LENGTH) return `must be at most ${MAX_LENGTH} characters`;
  const prefix = name.endsWith('*') ? name.slice(0, -1) : name;
  if (prefix.includes('*'))
    return "may hold '*' only as its last character (a path prefix such as /my-team/amis/*)";
  if (prefix === '' || prefix === '/')
    return 'grants every parameter of the account: name a path such as /my-team/amis/*';
  const hierarchical = prefix.startsWith('/');
  const segments = (hierarchical ? prefix.slice(1) : prefix).split('/');
  const last = segments.length - 1;
  if (!hierarchical && segments.length > 1)
    return "must start with '/' when it has levels (SSM's rule for hierarchical names), like /my-team/amis/node";
  if (segments.length > MAX_LEVELS) return `must have at most ${MAX_LEVELS} levels`;
  for (const [i, segment] of segments.entries()) {
    // "/team/amis/*": the prefix ends in '/', so its last segment is empty.
    if (segment === '' && i === last && name.endsWith('*')) continue;
    if (!SEGMENT.test(segment))
      return `level '${segment}' must be letters, digits, '.', '-' or '_' (SSM parameter name characters)`;
  }
  return undefined;
}

/**
 * Throws an error naming `where` when `name` is not a parameter name joiner can grant (see
 * {@link ssmParameterNameProblem}).
 */
export function checkSsmParameterName(name: unknown, where: string): string {
  const problem = ssmParameterNameProblem(name);
  if (problem) throw new Error(`${where}: ${JSON.stringify(name)} ${problem}`);
  return name as string;
}

/**
 * The ARN of parameter `name` in the stack's region, as SSM evaluates `ssm:GetParameter`: the
 * name's leading `/` is the separator after `parameter`; AWS's public parameters (`/aws/...`)
 * have no account in their ARN.
 */
export function ssmParameterArn(stack: Stack, name: string): string {
  const path = name.startsWith('/') ? name.slice(1) : name;
  return stack.formatArn({
    service: 'ssm',
    account: path.startsWith('aws/') ? '' : undefined,
    resource: 'parameter',
    resourceName: path,
  });
}
