/**
 * Node requirements as sets of allowed label values per key, with the set algebra Karpenter uses:
 * In/NotIn/Exists/DoesNotExist/Gt/Lt/Gte/Lte become one `ValueSet` per key, and intersecting two
 * requirement sets narrows every key. An empty set on a key means nothing can satisfy both.
 */
import type { Requirement } from '../model/requirement.js';

/** Allowed values of one label key. */
export interface ValueSet {
  /** When true, `values` are the excluded values (NotIn / Exists / Gt / Lt); otherwise the allowed ones. */
  readonly complement: boolean;
  readonly values: ReadonlySet<string>;
  /** Exclusive numeric bounds (Gt / Lt; Gte n is Gt n-1 for integers). */
  readonly gt?: number;
  readonly lt?: number;
  /** True when a node without the label satisfies it (NotIn, DoesNotExist). */
  readonly allowsAbsent: boolean;
  readonly minValues?: number;
}

const EMPTY: ReadonlySet<string> = new Set();

function withinBounds(set: ValueSet, value: string): boolean {
  if (set.gt === undefined && set.lt === undefined) return true;
  const n = Number(value);
  if (!Number.isFinite(n)) return false;
  return (set.gt === undefined || n > set.gt) && (set.lt === undefined || n < set.lt);
}

/** Whether a label value is in the set. */
export function valueAllowed(set: ValueSet, value: string): boolean {
  if (set.complement ? set.values.has(value) : !set.values.has(value)) return false;
  return withinBounds(set, value);
}

/** Whether a node with this label value (or without the label, when `undefined`) satisfies the set. */
export function labelSatisfies(set: ValueSet, value: string | undefined): boolean {
  return value === undefined ? set.allowsAbsent : valueAllowed(set, value);
}

/** True when no label value and no absence satisfies the set. */
export function isEmptySet(set: ValueSet): boolean {
  if (set.allowsAbsent) return false;
  if (!set.complement) return set.values.size === 0;
  if (set.gt !== undefined && set.lt !== undefined) return Math.floor(set.lt - 1e-9) <= set.gt;
  return false;
}

/** Converts one requirement into its value set; throws on malformed Gt/Lt values. */
export function valueSetOf(req: Requirement): ValueSet {
  const values = req.values ?? [];
  const bound = (): number => {
    const n = Number(values[0]);
    if (values.length !== 1 || !Number.isFinite(n)) {
      throw new Error(
        `requirement ${req.key} ${req.operator} needs exactly one numeric value, got ${JSON.stringify(values)}`,
      );
    }
    return n;
  };
  const min = req.minValues;
  switch (req.operator) {
    case 'In':
      return { complement: false, values: new Set(values), allowsAbsent: false, minValues: min };
    case 'NotIn':
      return { complement: true, values: new Set(values), allowsAbsent: true, minValues: min };
    case 'Exists':
      return { complement: true, values: EMPTY, allowsAbsent: false, minValues: min };
    case 'DoesNotExist':
      return { complement: false, values: EMPTY, allowsAbsent: true };
    case 'Gt':
      return { complement: true, values: EMPTY, gt: bound(), allowsAbsent: false, minValues: min };
    case 'Gte':
      return { complement: true, values: EMPTY, gt: bound() - 1, allowsAbsent: false, minValues: min };
    case 'Lt':
      return { complement: true, values: EMPTY, lt: bound(), allowsAbsent: false, minValues: min };
    case 'Lte':
      return { complement: true, values: EMPTY, lt: bound() + 1, allowsAbsent: false, minValues: min };
    default:
      throw new Error(`requirement ${req.key}: unknown operator ${JSON.stringify(req.operator)}`);
  }
}

function maxDefined(a?: number, b?: number): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}
function minDefined(a?: number, b?: number): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

/** Intersection of two value sets. */
export function intersectSets(a: ValueSet, b: ValueSet): ValueSet {
  const gt = maxDefined(a.gt, b.gt);
  const lt = minDefined(a.lt, b.lt);
  const allowsAbsent = a.allowsAbsent && b.allowsAbsent;
  const minValues = maxDefined(a.minValues, b.minValues);
  const bounds = { gt, lt };
  if (a.complement && b.complement) {
    const values =
      b.values.size === 0 ? a.values : a.values.size === 0 ? b.values : new Set([...a.values, ...b.values]);
    return { complement: true, values, gt, lt, allowsAbsent, minValues };
  }
  const [pos, other] = a.complement ? [b, a] : [a, b];
  const values = new Set<string>();
  for (const v of pos.values) {
    if (
      valueAllowed(other, v) &&
      withinBounds({ ...bounds, complement: false, values: EMPTY, allowsAbsent }, v)
    )
      values.add(v);
  }
  return { complement: false, values, allowsAbsent, minValues };
}

/** Renders a value set for messages, e.g. `In [a b]`, `NotIn [x]`, `Exists`, `Gt 4`. */
export function describeSet(set: ValueSet): string {
  const list = [...set.values].sort().join(' ');
  if (!set.complement) return set.values.size === 0 ? 'DoesNotExist' : `In [${list}]`;
  const parts: string[] = [];
  if (set.values.size > 0) parts.push(`NotIn [${list}]`);
  if (set.gt !== undefined) parts.push(`Gt ${set.gt}`);
  if (set.lt !== undefined) parts.push(`Lt ${set.lt}`);
  if (parts.length === 0) parts.push(set.allowsAbsent ? 'any' : 'Exists');
  return parts.join(', ');
}
