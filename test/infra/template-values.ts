/**
 * Reads a synthesized template the way CloudFormation would hand its values to a function:
 * intrinsic functions resolved to stand-in values (a Ref is the logical id, an attribute is
 * `LogicalId.Attribute`, a function URL is an https URL), so properties and environment variables
 * can be fed to the real handlers.
 */

/** A resource of a synthesized template. */
export interface TemplateResource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
}

/** The resources of a template. */
export type TemplateResources = Readonly<Record<string, TemplateResource>>;

const PSEUDO: Record<string, string> = {
  'AWS::Partition': 'aws',
  'AWS::Region': 'us-west-2',
  'AWS::AccountId': '111111111111',
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::StackName': 'Joiner',
};

/** A value with every intrinsic function resolved to a stand-in string. */
export function resolveValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(resolveValue);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const [key, arg] = entries[0] ?? [];
  if (entries.length === 1 && key?.startsWith('Fn::')) return resolveFunction(key, arg);
  if (entries.length === 1 && key === 'Ref') return PSEUDO[arg as string] ?? String(arg);
  return Object.fromEntries(entries.map(([k, v]) => [k, resolveValue(v)]));
}

function resolveFunction(name: string, arg: unknown): string {
  const args = arg as unknown[];
  switch (name) {
    case 'Fn::Join': {
      const [separator, parts] = args as [string, unknown[]];
      return (parts.map(resolveValue) as string[]).join(separator);
    }
    case 'Fn::GetAtt': {
      const [id, attribute] = args as [string, string];
      if (attribute === 'FunctionUrl') return `https://${id.toLowerCase()}.lambda-url.us-west-2.on.aws/`;
      if (attribute === 'Arn') return `arn:aws:resource:us-west-2:111111111111:${id}`;
      return `${id}.${attribute}`;
    }
    case 'Fn::Select': {
      const [index, list] = args as [number, unknown];
      return (resolveValue(list) as string[])[index] as string;
    }
    case 'Fn::Split': {
      const [separator, text] = args as [string, unknown];
      return (resolveValue(text) as string).split(separator) as never;
    }
    default:
      throw new Error(`template: intrinsic ${name} is not resolved by the test`);
  }
}

/** The logical id a `Ref` or `Fn::GetAtt` points at. */
export function referencedId(value: unknown): string {
  const v = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  const id = v?.Ref ?? v?.['Fn::GetAtt']?.[0];
  if (!id) throw new Error(`template: ${JSON.stringify(value)} is not a reference`);
  return id;
}

/** The resources of one type, as [logicalId, resource] pairs. */
export function ofType(resources: TemplateResources, type: string): [string, TemplateResource][] {
  return Object.entries(resources).filter(([, r]) => r.Type === type);
}
