/**
 * The single edits of a synthesized template's identity policies that the IAM minimality check
 * makes, one at a time: every statement of the policies attached to the roles joiner's functions
 * run as, removed; and every positive condition (`StringEquals`, `ArnLike`, `ForAllValues:…`…)
 * of those statements, its required value replaced by one no request carries. Removing an Allow
 * statement can only take permissions away; a condition cannot be "removed" that way (without it
 * the statement allows more), so a condition is shown to matter by requiring a value joiner does
 * not send: if some request of a shipped scenario is then denied, the condition is evaluated
 * against what joiner really sends, not vacuous.
 */

/** A CloudFormation template as JSON. */
export type TemplateJson = Readonly<Record<string, unknown>>;

/** One edit of the template. */
export interface PolicyMutation {
  /** Readable and stable across templates of the same stack: `ControllerPermissionsPolicy/LaunchTaggedResources`. */
  readonly id: string;
  readonly kind: 'statement' | 'condition';
  /** The policy's logical id. */
  readonly policyLogicalId: string;
  /** The statement's index in the policy document. */
  readonly statementIndex: number;
  /** The statement's Sid, or `#<index>` for a statement without one. */
  readonly statement: string;
  /** The statement's actions, for reports. */
  readonly actions: readonly string[];
  /** The roles (logical ids) the policy is attached to. */
  readonly roles: readonly string[];
  /** For a condition: its operator and key. */
  readonly condition?: { readonly operator: string; readonly key: string };
  /** A copy of `template` with the edit made. */
  apply(template: TemplateJson): TemplateJson;
}

/** The value a mutated condition requires: no request of a scenario carries it. */
export const MISMATCH_VALUE = 'joiner-minimality-mismatch';

interface Resource {
  readonly Type?: string;
  readonly Properties?: Record<string, unknown>;
}

interface Statement {
  readonly Sid?: string;
  readonly Effect?: string;
  readonly Action?: string | string[];
  readonly Condition?: Record<string, Record<string, unknown>>;
}

/**
 * The mutations of `template`'s identity policies attached to the roles of joiner's functions
 * (functions whose `POWERTOOLS_SERVICE_NAME` is `joiner-<name>`): one per Allow statement, one
 * per key of each positive condition operator. @throws Error when the template has no such policy.
 */
export function policyMutations(template: TemplateJson, source = 'template'): PolicyMutation[] {
  const resources = (template.Resources ?? {}) as Record<string, Resource>;
  const functionRoles = joinerFunctionRoles(resources);
  const mutations: PolicyMutation[] = [];
  for (const [policyId, resource] of Object.entries(resources)) {
    if (resource.Type !== 'AWS::IAM::Policy' && resource.Type !== 'AWS::IAM::ManagedPolicy') continue;
    const roles = list(resource.Properties?.Roles)
      .map(refOf)
      .filter((r): r is string => r !== undefined && functionRoles.has(r));
    if (roles.length === 0) continue;
    const statements = list(
      (resource.Properties?.PolicyDocument as { Statement?: unknown } | undefined)?.Statement,
    ) as Statement[];
    const name = readableId(policyId);
    statements.forEach((s, index) => {
      if (s.Effect !== 'Allow') return;
      const statement = s.Sid ?? `#${index}`;
      const base = {
        policyLogicalId: policyId,
        statementIndex: index,
        statement,
        actions: list(s.Action).map(String),
        roles,
      };
      mutations.push({
        ...base,
        id: `${name}/${statement}`,
        kind: 'statement',
        apply: (t) => editStatements(t, policyId, (all) => all.filter((_, i) => i !== index)),
      });
      for (const [operator, keys] of Object.entries(s.Condition ?? {})) {
        if (!isPositive(operator)) continue;
        for (const key of Object.keys(keys)) {
          mutations.push({
            ...base,
            id: `${name}/${statement} ${operator} ${key}`,
            kind: 'condition',
            condition: { operator, key },
            apply: (t) =>
              editStatements(t, policyId, (all) =>
                all.map((st, i) =>
                  i !== index
                    ? st
                    : {
                        ...st,
                        Condition: {
                          ...st.Condition,
                          [operator]: { ...st.Condition?.[operator], [key]: MISMATCH_VALUE },
                        },
                      },
                ),
              ),
          });
        }
      }
    });
  }
  if (mutations.length === 0) {
    throw new Error(`${source}: no identity policy is attached to a role of joiner's functions`);
  }
  return mutations;
}

/** Logical ids of the roles joiner's functions run as. */
function joinerFunctionRoles(resources: Record<string, Resource>): Set<string> {
  const roles = new Set<string>();
  for (const r of Object.values(resources)) {
    if (r.Type !== 'AWS::Lambda::Function') continue;
    const env = (r.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
    const service = env?.POWERTOOLS_SERVICE_NAME;
    if (typeof service !== 'string' || !service.startsWith('joiner-')) continue;
    const role = refOf(r.Properties?.Role);
    if (role) roles.add(role);
  }
  return roles;
}

/** Operators whose condition a request must satisfy with a given value (not negated, not Null). */
function isPositive(operator: string): boolean {
  const base = operator.replace(/^(ForAllValues|ForAnyValue):/, '').replace(/IfExists$/, '');
  return !/Not|^Null$|^Bool$/.test(base);
}

function editStatements(
  template: TemplateJson,
  policyId: string,
  edit: (statements: Statement[]) => Statement[],
): TemplateJson {
  const resources = template.Resources as Record<string, Resource>;
  const policy = resources[policyId];
  const properties = policy.Properties ?? {};
  const document = properties.PolicyDocument as Record<string, unknown>;
  const statements = edit(list(document.Statement) as Statement[]);
  if (statements.length === 0) {
    // A policy without statements is not a policy: its last statement removed, the policy goes.
    const { [policyId]: _removed, ...rest } = resources;
    return { ...template, Resources: rest };
  }
  return {
    ...template,
    Resources: {
      ...resources,
      [policyId]: {
        ...policy,
        Properties: {
          ...properties,
          PolicyDocument: { ...document, Statement: statements },
        },
      },
    },
  };
}

/** `JoinerControllerPermissionsPolicy8A9C306F` → `ControllerPermissionsPolicy` (CDK's hash and stack prefix dropped). */
export function readableId(logicalId: string): string {
  return logicalId.replace(/[0-9A-F]{8}$/, '').replace(/^Joiner(Functions)?/, '') || logicalId;
}

function refOf(value: unknown): string | undefined {
  const v = value as { Ref?: unknown; 'Fn::GetAtt'?: unknown } | undefined;
  if (typeof v?.Ref === 'string') return v.Ref;
  const att = v?.['Fn::GetAtt'];
  return Array.isArray(att) && typeof att[0] === 'string' ? att[0] : undefined;
}

function list(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
