/**
 * IAM policy documents as the simulated IAM evaluates them: parsed once from their JSON form into
 * statements whose list-or-single elements are always lists, with every grammar mistake reported
 * as a {@link PolicyDocumentError} naming the policy, the statement and the field.
 */
import { type ParsedCondition, parseConditionBlock } from './condition-block.js';

/** Where a policy is attached: decides which of Principal / Resource a statement must carry. */
export type PolicyKind = 'identity' | 'resource' | 'trust';

/** The principals a resource or trust policy statement names, by kind (`AWS`, `Service`…). */
export type PrincipalMap = Readonly<Record<string, readonly string[]>>;

/** One statement, normalized. */
export interface PolicyStatement {
  /** `<policy name>/<Sid>`, or `<policy name>/#<index>` for a statement without Sid. */
  readonly id: string;
  readonly sid?: string;
  readonly effect: 'Allow' | 'Deny';
  /** Exactly one of actions / notActions is set. */
  readonly actions?: readonly string[];
  readonly notActions?: readonly string[];
  /** At most one of resources / notResources is set (neither only in trust policies). */
  readonly resources?: readonly string[];
  readonly notResources?: readonly string[];
  /** `'*'` for `"Principal": "*"`; only in resource and trust policies. */
  readonly principal?: PrincipalMap | '*';
  readonly notPrincipal?: PrincipalMap | '*';
  readonly conditions: readonly ParsedCondition[];
}

/** A parsed policy document. */
export interface PolicyDocument {
  /** The name the policy is reported under (`<role>/<policy>` or a resource policy's id). */
  readonly name: string;
  readonly kind: PolicyKind;
  /** `2012-10-17` enables policy variables; `2008-10-17` (or none) takes `${…}` literally. */
  readonly version: '2012-10-17' | '2008-10-17';
  readonly statements: readonly PolicyStatement[];
}

/** A policy document that IAM would refuse (`MalformedPolicyDocument`), with where and why. */
export class PolicyDocumentError extends Error {
  constructor(
    readonly policy: string,
    readonly where: string,
    detail: string,
  ) {
    super(`policy ${policy}: ${where}: ${detail}`);
    this.name = 'PolicyDocumentError';
  }
}

const STATEMENT_FIELDS = new Set([
  'Sid',
  'Effect',
  'Action',
  'NotAction',
  'Resource',
  'NotResource',
  'Principal',
  'NotPrincipal',
  'Condition',
]);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Parses a policy document (a JSON string or the already parsed object) of the given kind.
 * @throws PolicyDocumentError naming the statement and the field at fault.
 */
export function parsePolicyDocument(document: unknown, name: string, kind: PolicyKind): PolicyDocument {
  let doc = document;
  if (typeof doc === 'string') {
    try {
      doc = JSON.parse(doc);
    } catch (error) {
      throw new PolicyDocumentError(name, 'document', `not JSON (${(error as Error).message})`);
    }
  }
  if (!isObject(doc)) throw new PolicyDocumentError(name, 'document', 'must be a JSON object');
  for (const key of Object.keys(doc)) {
    if (key !== 'Version' && key !== 'Statement' && key !== 'Id') {
      throw new PolicyDocumentError(name, 'document', `unknown field ${key}`);
    }
  }
  const version = doc.Version ?? '2008-10-17';
  if (version !== '2012-10-17' && version !== '2008-10-17') {
    throw new PolicyDocumentError(
      name,
      'Version',
      `must be 2012-10-17 or 2008-10-17, got ${String(version)}`,
    );
  }
  const raw = doc.Statement;
  if (raw === undefined) throw new PolicyDocumentError(name, 'document', 'has no Statement');
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0) throw new PolicyDocumentError(name, 'Statement', 'is empty');
  const seenSids = new Set<string>();
  const statements = list.map((s, index) => {
    const statement = parseStatement(s, name, kind, index);
    if (statement.sid !== undefined) {
      if (seenSids.has(statement.sid)) {
        throw new PolicyDocumentError(name, `Statement[${index}]`, `duplicate Sid ${statement.sid}`);
      }
      seenSids.add(statement.sid);
    }
    return statement;
  });
  return { name, kind, version, statements };
}

function parseStatement(raw: unknown, policy: string, kind: PolicyKind, index: number): PolicyStatement {
  const sidOf = isObject(raw) && typeof raw.Sid === 'string' ? raw.Sid : undefined;
  const where = `Statement[${index}]${sidOf ? ` (${sidOf})` : ''}`;
  const fail = (field: string, detail: string): never => {
    throw new PolicyDocumentError(policy, `${where}.${field}`, detail);
  };
  if (!isObject(raw)) throw new PolicyDocumentError(policy, where, 'must be an object');
  for (const key of Object.keys(raw)) if (!STATEMENT_FIELDS.has(key)) fail(key, 'unknown field');
  if (raw.Sid !== undefined && typeof raw.Sid !== 'string') fail('Sid', 'must be a string');
  if (raw.Effect !== 'Allow' && raw.Effect !== 'Deny')
    fail('Effect', `must be Allow or Deny, got ${JSON.stringify(raw.Effect)}`);
  const actions = stringList(raw.Action, 'Action', fail);
  const notActions = stringList(raw.NotAction, 'NotAction', fail);
  if ((actions === undefined) === (notActions === undefined))
    fail('Action', 'exactly one of Action or NotAction is required');
  for (const a of actions ?? notActions ?? []) {
    if (a !== '*' && !/^[A-Za-z0-9-]+:[A-Za-z0-9*?]+$/.test(a))
      fail(actions ? 'Action' : 'NotAction', `malformed action ${a}`);
  }
  const resources = stringList(raw.Resource, 'Resource', fail);
  const notResources = stringList(raw.NotResource, 'NotResource', fail);
  if (resources && notResources) fail('Resource', 'Resource and NotResource are exclusive');
  if (kind !== 'trust' && !resources && !notResources)
    fail('Resource', 'one of Resource or NotResource is required');
  for (const r of resources ?? notResources ?? []) {
    if (r !== '*' && !r.startsWith('arn:'))
      fail(resources ? 'Resource' : 'NotResource', `not an ARN or *: ${r}`);
  }
  const principal = principalOf(raw.Principal, 'Principal', fail);
  const notPrincipal = principalOf(raw.NotPrincipal, 'NotPrincipal', fail);
  if (kind === 'identity' && (principal || notPrincipal))
    fail('Principal', 'not allowed in an identity policy');
  if (kind !== 'identity' && !principal === !notPrincipal) {
    fail('Principal', 'exactly one of Principal or NotPrincipal is required in a resource or trust policy');
  }
  let conditions: ParsedCondition[] = [];
  if (raw.Condition !== undefined) {
    try {
      conditions = parseConditionBlock(raw.Condition);
    } catch (error) {
      fail('Condition', (error as Error).message);
    }
  }
  const id = `${policy}/${sidOf ?? `#${index}`}`;
  return {
    id,
    ...(sidOf !== undefined ? { sid: sidOf } : {}),
    effect: raw.Effect as 'Allow' | 'Deny',
    ...(actions ? { actions } : { notActions }),
    ...(resources ? { resources } : {}),
    ...(notResources ? { notResources } : {}),
    ...(principal ? { principal } : {}),
    ...(notPrincipal ? { notPrincipal } : {}),
    conditions,
  };
}

function stringList(
  value: unknown,
  field: string,
  fail: (field: string, detail: string) => never,
): string[] | undefined {
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) fail(field, 'must not be empty');
  for (const v of list)
    if (typeof v !== 'string' || v === '')
      fail(field, `must be a string or a list of strings, got ${JSON.stringify(v)}`);
  return list as string[];
}

function principalOf(
  value: unknown,
  field: string,
  fail: (field: string, detail: string) => never,
): PrincipalMap | '*' | undefined {
  if (value === undefined) return undefined;
  if (value === '*') return '*';
  if (!isObject(value)) fail(field, 'must be "*" or an object such as {"AWS": …} or {"Service": …}');
  const map: Record<string, string[]> = {};
  for (const [kind, names] of Object.entries(value as Record<string, unknown>)) {
    if (!['AWS', 'Service', 'Federated', 'CanonicalUser'].includes(kind))
      fail(field, `unknown principal type ${kind}`);
    map[kind] = stringList(names, `${field}.${kind}`, fail) ?? [];
  }
  return map;
}
