/**
 * A {@link TemplateResolver} that gives a template's resources the physical names and ARNs
 * CloudFormation would (the name property when the template sets one, else `<stack>-<logicalId>`),
 * for the resource types the joiner stack uses. The simulated cloud may pass its own resolver to
 * map resources to the simulated ones it created; this one serves tests, the benchmark, and any
 * caller whose simulated resources are named the same way.
 */
import type { TemplateParts, TemplateResolver, TemplateResource } from './template-intrinsics.js';
import { IntrinsicResolver } from './template-intrinsics.js';

/** Where the stack is deployed. */
export interface StackLocation {
  readonly account: string;
  readonly region: string;
  readonly partition?: string;
  readonly stackName?: string;
}

/** The name property of each type, and how Ref / GetAtt answer from the name. */
interface TypeNaming {
  readonly nameProperty?: string;
  readonly ref: 'name' | 'arn' | 'url';
  readonly arn: (name: string, resource: TemplateResource, r: Required<StackLocation>) => string;
  readonly attributes?: Readonly<
    Record<string, (name: string, arn: string, r: Required<StackLocation>) => string>
  >;
}

const at = (r: Required<StackLocation>, service: string, rest: string, global = false): string =>
  `arn:${r.partition}:${service}:${global ? '' : r.region}:${r.account}:${rest}`;

const NAMING: Readonly<Record<string, TypeNaming>> = {
  'AWS::IAM::Role': {
    nameProperty: 'RoleName',
    ref: 'name',
    arn: (n, res, r) => at(r, 'iam', `role${String(res.Properties?.Path ?? '/')}${n}`, true),
    attributes: {
      RoleId: (n) =>
        `AROA${n
          .toUpperCase()
          .replace(/[^A-Z0-9]/g, '')
          .slice(0, 17)}`,
    },
  },
  'AWS::IAM::InstanceProfile': {
    nameProperty: 'InstanceProfileName',
    ref: 'name',
    arn: (n, res, r) => at(r, 'iam', `instance-profile${String(res.Properties?.Path ?? '/')}${n}`, true),
  },
  'AWS::IAM::ManagedPolicy': {
    nameProperty: 'ManagedPolicyName',
    ref: 'arn',
    arn: (n, res, r) => at(r, 'iam', `policy${String(res.Properties?.Path ?? '/')}${n}`, true),
  },
  'AWS::SQS::Queue': {
    nameProperty: 'QueueName',
    ref: 'url',
    arn: (n, _, r) => at(r, 'sqs', n),
    attributes: {
      QueueName: (n) => n,
      QueueUrl: (n, _, r) => `https://sqs.${r.region}.amazonaws.com/${r.account}/${n}`,
    },
  },
  'AWS::DynamoDB::Table': {
    nameProperty: 'TableName',
    ref: 'name',
    arn: (n, _, r) => at(r, 'dynamodb', `table/${n}`),
    attributes: { StreamArn: (_, arn) => `${arn}/stream/1970-01-01T00:00:00.000` },
  },
  'AWS::Lambda::Function': {
    nameProperty: 'FunctionName',
    ref: 'name',
    arn: (n, _, r) => at(r, 'lambda', `function:${n}`),
  },
  'AWS::Events::EventBus': {
    nameProperty: 'Name',
    ref: 'name',
    arn: (n, _, r) => at(r, 'events', `event-bus/${n}`),
    attributes: { Name: (n) => n },
  },
  'AWS::Events::Rule': { nameProperty: 'Name', ref: 'name', arn: (n, _, r) => at(r, 'events', `rule/${n}`) },
  'AWS::Logs::LogGroup': {
    nameProperty: 'LogGroupName',
    ref: 'name',
    arn: (n, _, r) => at(r, 'logs', `log-group:${n}:*`),
  },
  'AWS::SecretsManager::Secret': {
    nameProperty: 'Name',
    ref: 'arn',
    arn: (n, _, r) => at(r, 'secretsmanager', `secret:${n}-AbCdEf`),
  },
  'AWS::Lambda::Url': {
    ref: 'arn',
    arn: (n, _, r) => at(r, 'lambda', `function:${n}`),
    attributes: { FunctionUrl: (n, _, r) => `https://${n.toLowerCase()}.lambda-url.${r.region}.on.aws/` },
  },
};

/** Builds the resolver for `template` deployed at `location`. */
export function stackNamingResolver(template: TemplateParts, location: StackLocation): TemplateResolver {
  const r: Required<StackLocation> = { partition: 'aws', stackName: 'Joiner', ...location };
  const resolving = new Set<string>();
  let intrinsics: IntrinsicResolver | undefined;
  const nameOf = (logicalId: string, resource: TemplateResource, naming: TypeNaming): string => {
    const written = naming.nameProperty ? resource.Properties?.[naming.nameProperty] : undefined;
    if (written === undefined || resolving.has(logicalId)) return `${r.stackName}-${logicalId}`;
    resolving.add(logicalId);
    try {
      return intrinsics!.resolveString(written, `Resources.${logicalId}.Properties.${naming.nameProperty}`);
    } finally {
      resolving.delete(logicalId);
    }
  };
  const resolver: TemplateResolver = {
    ...r,
    ref(logicalId, resource) {
      const naming = NAMING[resource.Type];
      if (!naming) return `${r.stackName}-${logicalId}`;
      const name = nameOf(logicalId, resource, naming);
      if (naming.ref === 'name') return name;
      if (naming.ref === 'url') return `https://sqs.${r.region}.amazonaws.com/${r.account}/${name}`;
      return naming.arn(name, resource, r);
    },
    getAtt(logicalId, attribute, resource) {
      const naming = NAMING[resource.Type];
      if (!naming) return undefined;
      const name = nameOf(logicalId, resource, naming);
      const arn = naming.arn(name, resource, r);
      if (attribute === 'Arn') return arn;
      return naming.attributes?.[attribute]?.(name, arn, r);
    },
  };
  intrinsics = new IntrinsicResolver(template, resolver, 'template');
  return resolver;
}
