import { describe, expect, it } from 'vitest';
import { joinerManifests } from '../../../../functions/core/install/index.js';

type Node = Record<string, unknown>;

/** What a CEL name stands for: a schema node, or a key of a map (OpenAPI cannot bound those). */
type Bound = { node: Node } | { mapKey: true };

/** Macros and functions that visit every element of a list or every key of a map. */
const ITERATE = /(self|[A-Za-z_]\w*)((?:\.\w+|\[\d+\])*)\.(all|exists_one|exists|map|filter)\(\s*(\w+)\s*,/g;

/** String functions whose cost grows with the string's length. */
const SCAN =
  /(?:string\()?(self|[A-Za-z_]\w*)((?:\.\w+|\[\d+\])*)\)?\.(matches|startsWith|endsWith|contains|find|findAll|split|replace|indexOf|lastIndexOf|lowerAscii|upperAscii)\(/g;

/** The schema node of `root` followed by `.field` / `[n]` steps, or a reason it has none. */
function resolve(root: Bound | undefined, steps: string): Bound | string {
  if (!root) return 'an unknown variable';
  let at = root;
  for (const [, field, index] of steps.matchAll(/\.(\w+)|\[(\d+)\]/g)) {
    if ('mapKey' in at) return 'a step into a map key';
    const node: Node = at.node;
    const next =
      index !== undefined
        ? (node.items as Node | undefined)
        : ((node.properties as Record<string, Node> | undefined)?.[field] ??
          (node.additionalProperties as Node | undefined));
    if (!next) return `no field ${field ?? `[${index}]`}`;
    at = { node: next };
  }
  return at;
}

/**
 * The CEL rules of a schema (`path` names its root) that iterate over a list or map without
 * `maxItems` / `maxProperties`, or scan a string without `maxLength`: what makes a real API server
 * estimate a rule's cost as unbounded and refuse the CRD.
 */
function unboundedRules(schema: Node, path: string): string[] {
  const problems: string[] = [];
  const visit = (node: Node, at: string) => {
    for (const { rule } of (node['x-kubernetes-validations'] as { rule: string }[] | undefined) ?? []) {
      const names = new Map<string, Bound>([['self', { node }]]);
      for (const [, root, steps, macro, variable] of rule.matchAll(ITERATE)) {
        const target = resolve(names.get(root), steps);
        const where = `${at}: ${macro} over ${root}${steps} in "${rule}"`;
        if (typeof target === 'string') problems.push(`${where}: ${target}`);
        else if ('mapKey' in target) problems.push(`${where}: iterates a map key`);
        else if (target.node.type === 'array') {
          if (target.node.maxItems === undefined) problems.push(`${where}: no maxItems`);
          names.set(variable, { node: target.node.items as Node });
        } else if (typeof target.node.additionalProperties === 'object') {
          if (target.node.maxProperties === undefined) problems.push(`${where}: no maxProperties`);
          names.set(variable, { mapKey: true });
        } else problems.push(`${where}: neither a list nor a map`);
      }
      for (const [, root, steps, fn] of rule.matchAll(SCAN)) {
        const target = resolve(names.get(root), steps);
        const where = `${at}: ${fn} on ${root}${steps} in "${rule}"`;
        if (typeof target === 'string') problems.push(`${where}: ${target}`);
        // A map key has no schema of its own; the map's maxProperties (checked above) bounds
        // how many there are, as in Karpenter's CRDs.
        else if ('node' in target && target.node.maxLength === undefined)
          problems.push(`${where}: no maxLength`);
      }
    }
    for (const [key, child] of Object.entries((node.properties as Record<string, Node>) ?? {}))
      visit(child, `${at}.${key}`);
    if (typeof node.items === 'object') visit(node.items as Node, `${at}[]`);
    if (typeof node.additionalProperties === 'object') visit(node.additionalProperties as Node, `${at}.*`);
  };
  visit(schema, path);
  return problems;
}

const crdSchemas = (): [string, Node][] =>
  joinerManifests({ webhookUrl: 'https://hook.example/x', karpenterKinds: 'ignore' })
    .filter((m) => m.kind === 'CustomResourceDefinition')
    .map((crd) => {
      const versions = (crd.spec as { versions: { schema: { openAPIV3Schema: Node } }[] }).versions;
      return [crd.metadata.name, versions[0].schema.openAPIV3Schema];
    });

const rule = (r: string) => ({ 'x-kubernetes-validations': [{ rule: r, message: 'm' }] });

describe('the CEL rules of the generated CRDs', () => {
  it('iterate only over bounded lists and maps, and scan only bounded strings', () => {
    const schemas = crdSchemas();
    expect(schemas.length).toBeGreaterThanOrEqual(5);
    const problems = schemas.flatMap(([name, schema]) => unboundedRules(schema, name));
    expect(problems).toEqual([]);
  });

  it('include the rules this check is about (labels, Multus interfaces, overlay capacity, requirement values)', () => {
    const rules = JSON.stringify(crdSchemas());
    for (const fragment of [
      'self.all(k, ',
      'self.multusInterfaces.all(a, self.multusInterfaces.exists_one(b, ',
      'self.capacity.all(k, ',
      'string(self.values[0]).matches(',
    ])
      expect(rules).toContain(fragment);
  });
});

describe('the bound check itself', () => {
  it('finds a map iterated without maxProperties', () => {
    const labels = {
      type: 'object',
      additionalProperties: { type: 'string' },
      ...rule("self.all(k, k != 'a')"),
    };
    expect(unboundedRules(labels, 'labels')).toEqual([
      expect.stringMatching(/^labels: all over self .*no maxProperties/),
    ]);
    expect(unboundedRules({ ...labels, maxProperties: 100 }, 'labels')).toEqual([]);
  });

  it('finds a list of a field iterated without maxItems, nested iterations included', () => {
    const spec = {
      type: 'object',
      properties: {
        xs: { type: 'array', items: { type: 'object', properties: { i: { type: 'integer' } } } },
      },
      ...rule('self.xs.all(a, self.xs.exists_one(b, b.i == a.i))'),
    };
    expect(unboundedRules(spec, 'spec')).toEqual([
      expect.stringMatching(/^spec: all over self\.xs .*no maxItems/),
      expect.stringMatching(/^spec: exists_one over self\.xs .*no maxItems/),
    ]);
    const bounded = { ...spec, properties: { xs: { ...spec.properties.xs, maxItems: 150 } } };
    expect(unboundedRules(bounded, 'spec')).toEqual([]);
  });

  it('finds a string matched without maxLength, in an element of a list too', () => {
    const requirement = {
      type: 'object',
      properties: { values: { type: 'array', maxItems: 10, items: { type: 'string' } } },
      ...rule("string(self.values[0]).matches('^[0-9]+$')"),
    };
    expect(unboundedRules(requirement, 'r')).toEqual([
      expect.stringMatching(/^r: matches on self\.values\[0\] .*no maxLength/),
    ]);
    expect(unboundedRules({ type: 'string', ...rule("self.matches('^a')") }, 'key')).toEqual([
      expect.stringMatching(/no maxLength/),
    ]);
    expect(unboundedRules({ type: 'string', maxLength: 316, ...rule("self.matches('^a')") }, 'key')).toEqual(
      [],
    );
  });

  it('reports a rule naming a field the schema does not have', () => {
    expect(unboundedRules({ type: 'object', ...rule('self.nope.all(x, x)') }, 's')).toEqual([
      expect.stringMatching(/no field nope/),
    ]);
  });
});
