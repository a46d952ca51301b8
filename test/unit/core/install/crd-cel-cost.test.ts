/**
 * A real API server estimates the cost of every CEL rule when a CRD is created and refuses the CRD
 * ("estimated rule cost exceeds budget") when one rule's estimate times the number of times it can
 * run (its cardinality: the product of the `maxItems` / `maxProperties` of the lists and maps above
 * it; an unbounded one counts as many items as fit in a 3 MiB request) passes 10,000,000
 * (apiextensions' StaticEstimatedCostLimit), or the sum over the CRD passes 100,000,000
 * (StaticEstimatedCRDCostLimit). This test estimates each rule of the generated CRDs from above,
 * more than cel-go would, and holds them to those limits.
 */
import { describe, expect, it } from 'vitest';
import { joinerManifests } from '../../../../functions/core/install/index.js';

type Node = Record<string, unknown>;

const PER_RULE_LIMIT = 10_000_000;
const PER_CRD_LIMIT = 100_000_000;
/** Kubernetes' largest request; an unbounded list counts one item per 2 bytes of it (`{}` + `,`). */
const MAX_REQUEST_BYTES = 3 * 1024 * 1024;
const UNBOUNDED_ITEMS = Math.floor(MAX_REQUEST_BYTES / 2);

/** One rule, where it sits, and how many times it can run per object. */
interface PlacedRule {
  readonly crd: string;
  readonly path: string;
  readonly rule: string;
  readonly node: Node;
  readonly cardinality: number;
}

function bound(node: Node): number {
  if (node.type === 'array') return (node.maxItems as number | undefined) ?? UNBOUNDED_ITEMS;
  return (node.maxProperties as number | undefined) ?? UNBOUNDED_ITEMS;
}

function placedRules(crd: string, schema: Node): PlacedRule[] {
  const out: PlacedRule[] = [];
  const visit = (node: Node, path: string, cardinality: number) => {
    for (const { rule } of (node['x-kubernetes-validations'] as { rule: string }[] | undefined) ?? [])
      out.push({ crd, path, rule, node, cardinality });
    for (const [key, child] of Object.entries((node.properties as Record<string, Node>) ?? {}))
      visit(child, `${path}.${key}`, cardinality);
    if (typeof node.items === 'object') visit(node.items as Node, `${path}[]`, cardinality * bound(node));
    if (typeof node.additionalProperties === 'object')
      visit(node.additionalProperties as Node, `${path}.*`, cardinality * bound(node));
  };
  visit(schema, '', 1);
  return out;
}

/** The length a string can have: its maxLength, or (a map key) the request shared by the map's keys. */
function stringLength(node: Node | undefined, mapOf?: Node): number {
  if (mapOf) return Math.ceil(MAX_REQUEST_BYTES / bound(mapOf));
  return (node?.maxLength as number | undefined) ?? MAX_REQUEST_BYTES;
}

/** The schema node at `self.a.b[0]` from `node`. */
function at(node: Node, steps: string): Node | undefined {
  let cur: Node | undefined = node;
  for (const [, field, index] of steps.matchAll(/\.(\w+)|\[(\d+)\]/g)) {
    if (!cur) return undefined;
    cur =
      index !== undefined
        ? (cur.items as Node | undefined)
        : ((cur.properties as Record<string, Node> | undefined)?.[field] ??
          (cur.additionalProperties as Node | undefined));
  }
  return cur;
}

/** cel-go's cost per character of a string a function traverses. */
const STRING_TRAVERSAL = 0.1;
/** cel-go's cost factor per character of a regular expression (`matches`). */
const REGEX_LENGTH = 0.25;

/**
 * An upper bound of a rule's cost per evaluation: one per token (cel-go charges about one per
 * call, select and literal), each `in [...]` as many as its list's elements, a string scan 0.1 per
 * character, `matches` that times 0.25 per character of the pattern (cel-go's factors; a map key,
 * which has no maxLength, is taken as long as the request shared by the map's keys), and the body
 * of an iteration macro times the size of what it iterates, nested ones multiplied.
 */
function ruleCost(rule: string, self: Node): number {
  const variables = new Map<string, { node?: Node; mapOf?: Node }>([['self', { node: self }]]);
  const iterate =
    /(self|[A-Za-z_]\w*)((?:\.\w+|\[\d+\])*)\.(all|exists_one|exists|map|filter)\(\s*(\w+)\s*,/g;
  let multiplier = 1;
  for (const [, root, steps, , variable] of rule.matchAll(iterate)) {
    const target = at(variables.get(root)?.node ?? {}, steps);
    if (!target) return Number.POSITIVE_INFINITY;
    multiplier *= bound(target);
    variables.set(variable, target.type === 'array' ? { node: target.items as Node } : { mapOf: target });
  }
  const tokens = rule.match(/'[^']*'|\w+|[^\s\w]/g)?.length ?? 0;
  let cost = tokens;
  for (const list of rule.matchAll(/\bin\s*\[([^\]]*)\]/g)) cost += list[1].split(',').length;
  const scan =
    /(?:string\()?(self|[A-Za-z_]\w*)((?:\.\w+|\[\d+\])*)\)?\.(matches|startsWith|endsWith|contains|find|findAll|split|replace|indexOf|lastIndexOf|lowerAscii|upperAscii)\(('[^']*')?/g;
  for (const [, root, steps, fn, literal] of rule.matchAll(scan)) {
    const variable = variables.get(root);
    const length = variable?.mapOf
      ? stringLength(undefined, variable.mapOf)
      : stringLength(at(variable?.node ?? {}, steps));
    const scanCost = Math.ceil(length * STRING_TRAVERSAL);
    cost +=
      fn === 'matches' ? scanCost * Math.ceil(Math.max(1, literal?.length ?? 1) * REGEX_LENGTH) : scanCost;
  }
  return cost * multiplier;
}

const crds = (): [string, Node][] =>
  joinerManifests({ webhookUrl: 'https://hook.example/x', karpenterKinds: 'ignore' })
    .filter((m) => m.kind === 'CustomResourceDefinition')
    .map((crd) => {
      const versions = (crd.spec as { versions: { schema: { openAPIV3Schema: Node } }[] }).versions;
      return [crd.metadata.name, versions[0].schema.openAPIV3Schema];
    });

describe("the generated CRDs' CEL rules, estimated as a real API server does at CRD create", () => {
  const estimates = crds().flatMap(([name, schema]) =>
    placedRules(name, schema).map((r) => ({ ...r, estimate: ruleCost(r.rule, r.node) * r.cardinality })),
  );

  it('each rule stays under the per-rule limit (10,000,000), each CRD under 100,000,000', () => {
    expect(estimates.length).toBeGreaterThan(40);
    const table = estimates
      .map(
        (e) => `${e.crd}${e.path}: x${e.cardinality} ~${e.estimate.toExponential(2)}  ${e.rule.slice(0, 60)}`,
      )
      .join('\n');
    console.log(`CEL rule cost estimates (limit per rule 1e7, per CRD 1e8):\n${table}`);
    const over = estimates.filter((e) => !(e.estimate <= PER_RULE_LIMIT));
    expect(over.map((e) => `${e.crd}${e.path}: ${e.rule}`)).toEqual([]);
    const perCrd = new Map<string, number>();
    for (const e of estimates) perCrd.set(e.crd, (perCrd.get(e.crd) ?? 0) + e.estimate);
    for (const [crd, total] of perCrd) expect(total, crd).toBeLessThanOrEqual(PER_CRD_LIMIT);
  });

  it('no rule sits under a list or map without maxItems / maxProperties', () => {
    expect(estimates.filter((e) => e.cardinality >= UNBOUNDED_ITEMS).map((e) => e.crd + e.path)).toEqual([]);
  });
});

describe('the estimate itself', () => {
  const term = {
    type: 'object',
    properties: { id: { type: 'string' } },
    'x-kubernetes-validations': [{ rule: 'has(self.id)', message: 'm' }],
  };
  it('counts a rule under an unbounded list as many times as items fit in a request: over budget', () => {
    const schema = { type: 'object', properties: { terms: { type: 'array', items: term } } };
    const [placed] = placedRules('x', schema);
    expect(placed.cardinality).toBe(UNBOUNDED_ITEMS);
    const bounded = { type: 'object', properties: { terms: { type: 'array', maxItems: 30, items: term } } };
    const [ok] = placedRules('x', bounded);
    expect(ok.cardinality).toBe(30);
    expect(ruleCost(ok.rule, ok.node) * ok.cardinality).toBeLessThan(PER_RULE_LIMIT);
  });

  it('multiplies nested iterations and charges string scans by length', () => {
    const xs = {
      type: 'array',
      maxItems: 150,
      items: { type: 'object', properties: { i: { type: 'integer' } } },
    };
    const pair = ruleCost('self.xs.all(a, self.xs.exists_one(b, b.i == a.i))', {
      type: 'object',
      properties: { xs },
    });
    expect(pair).toBeGreaterThanOrEqual(150 * 150);
    const key = { type: 'string', maxLength: 316 };
    expect(ruleCost("self.matches('^a')", key)).toBeGreaterThanOrEqual(Math.ceil(316 * 0.1));
    // A string without maxLength counts as the whole request: in a list of 100, over budget.
    expect(ruleCost("self.matches('^a')", { type: 'string' }) * 100).toBeGreaterThan(PER_RULE_LIMIT);
  });
});
