/**
 * A set of node requirements keyed by label, immutable: `and` returns a narrowed copy.
 */
import type { Requirement } from '../model/requirement.js';
import {
  describeSet,
  intersectSets,
  isEmptySet,
  labelSatisfies,
  type ValueSet,
  valueAllowed,
  valueSetOf,
} from './requirement-set.js';

/** Requirements on node labels, one value set per key. */
/** Deprecated well-known labels and the GA labels Karpenter reads them as. */
export const NORMALIZED_LABELS: Readonly<Record<string, string>> = {
  'failure-domain.beta.kubernetes.io/zone': 'topology.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region': 'topology.kubernetes.io/region',
  'beta.kubernetes.io/arch': 'kubernetes.io/arch',
  'beta.kubernetes.io/instance-type': 'node.kubernetes.io/instance-type',
  'beta.kubernetes.io/os': 'kubernetes.io/os',
};

export class Requirements {
  static readonly EMPTY = new Requirements(new Map());

  /** Results of `and`, per argument (both sides are immutable). */
  private readonly memo = new WeakMap<Requirements, Requirements>();

  private constructor(readonly sets: ReadonlyMap<string, ValueSet>) {}

  /**
   * Builds requirements from a list (repeated keys are intersected); a deprecated well-known key
   * is read as its GA key ({@link NORMALIZED_LABELS}).
   */
  static of(reqs: readonly Requirement[]): Requirements {
    const map = new Map<string, ValueSet>();
    for (const r of reqs) {
      const set = valueSetOf(r);
      const key = NORMALIZED_LABELS[r.key] ?? r.key;
      const prev = map.get(key);
      map.set(key, prev ? intersectSets(prev, set) : set);
    }
    return new Requirements(map);
  }

  /** Requirements that a node carry exactly these labels (`key In [value]`). */
  static fromLabels(labels: Readonly<Record<string, string>>): Requirements {
    return Requirements.of(Object.entries(labels).map(([key, v]) => ({ key, operator: 'In', values: [v] })));
  }

  get(key: string): ValueSet | undefined {
    return this.sets.get(key);
  }

  get size(): number {
    return this.sets.size;
  }

  /** The intersection of both requirement sets. */
  and(other: Requirements): Requirements {
    if (other.sets.size === 0) return this;
    if (this.sets.size === 0) return other;
    const known = this.memo.get(other);
    if (known) return known;
    const result = this.intersect(other);
    this.memo.set(other, result);
    return result;
  }

  private intersect(other: Requirements): Requirements {
    const map = new Map(this.sets);
    let changed = false;
    for (const [key, set] of other.sets) {
      const prev = map.get(key);
      const next = prev ? intersectSets(prev, set) : set;
      if (!prev || !sameSet(prev, next)) changed = true;
      map.set(key, next);
    }
    return changed ? new Requirements(map) : this;
  }

  /** Replaces (or adds) the set for one key. */
  with(key: string, set: ValueSet): Requirements {
    const map = new Map(this.sets);
    map.set(key, set);
    return new Requirements(map);
  }

  /** The first key whose set became empty, if any. */
  emptyKey(): string | undefined {
    for (const [key, set] of this.sets) if (isEmptySet(set)) return key;
    return undefined;
  }

  /** Whether a node with these labels satisfies every requirement. */
  matchesLabels(labels: Readonly<Record<string, string>>): boolean {
    for (const [key, set] of this.sets) if (!labelSatisfies(set, labels[key])) return false;
    return true;
  }

  /** The first requirement a node with these labels violates, described for messages. */
  firstViolation(labels: Readonly<Record<string, string>>): string | undefined {
    for (const [key, set] of this.sets) {
      if (!labelSatisfies(set, labels[key])) return `${key} ${describeSet(set)}`;
    }
    return undefined;
  }

  /** Whether `value` is allowed for `key` (true when the key is unconstrained). */
  allows(key: string, value: string): boolean {
    const set = this.sets.get(key);
    return set === undefined || valueAllowed(set, value);
  }

  /** The single allowed value of a key, if the key is pinned to exactly one value. */
  single(key: string): string | undefined {
    const set = this.sets.get(key);
    if (!set || set.complement || set.values.size !== 1) return undefined;
    for (const v of set.values) return v;
    return undefined;
  }

  /** Back to the model's requirement list (sorted by key), for output. */
  toList(): Requirement[] {
    const out: Requirement[] = [];
    for (const key of [...this.sets.keys()].sort()) out.push(...toRequirements(key, this.sets.get(key)!));
    return out;
  }

  /** Stable text form, usable as a cache key. */
  key(): string {
    return [...this.sets.keys()]
      .sort()
      .map((k) => `${k}:${describeSet(this.sets.get(k)!)}:${this.sets.get(k)!.allowsAbsent ? 1 : 0}`)
      .join('|');
  }
}

function sameSet(a: ValueSet, b: ValueSet): boolean {
  if (a.complement !== b.complement || a.allowsAbsent !== b.allowsAbsent) return false;
  if (a.gt !== b.gt || a.lt !== b.lt || a.minValues !== b.minValues || a.values.size !== b.values.size)
    return false;
  for (const v of a.values) if (!b.values.has(v)) return false;
  return true;
}

function toRequirements(key: string, set: ValueSet): Requirement[] {
  const mv = set.minValues === undefined ? {} : { minValues: set.minValues };
  const values = [...set.values].sort();
  if (!set.complement) {
    return [
      values.length === 0
        ? { key, operator: 'DoesNotExist', values: [] }
        : { key, operator: 'In', values, ...mv },
    ];
  }
  const out: Requirement[] = [];
  if (values.length > 0) out.push({ key, operator: 'NotIn', values, ...mv });
  if (set.gt !== undefined) out.push({ key, operator: 'Gt', values: [String(set.gt)], ...mv });
  if (set.lt !== undefined) out.push({ key, operator: 'Lt', values: [String(set.lt)], ...mv });
  if (out.length === 0) out.push({ key, operator: set.allowsAbsent ? 'NotIn' : 'Exists', values: [], ...mv });
  return out;
}
