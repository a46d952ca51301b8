/** Dense resource vectors: one slot per resource name of a scheduling run, for fast fit checks. */
import type { Resources } from '../model/resources.js';

/** The resource names of one run and their slots. */
export class Dims {
  readonly names: string[];
  private readonly index: Map<string, number>;

  /** The names, joined: two Dims with the same key make the same vectors. */
  readonly key: string;

  constructor(names: Iterable<string>) {
    this.names = [...new Set(names)].sort();
    this.index = new Map(this.names.map((n, i) => [n, i]));
    this.key = this.names.join('\u0000');
  }

  /** The vector of a resource map (names not in the run are ignored). */
  vector(resources: Readonly<Record<string, number>>): Float64Array {
    const v = new Float64Array(this.names.length);
    for (const [name, amount] of Object.entries(resources)) {
      const i = this.index.get(name);
      if (i !== undefined) v[i] = amount;
    }
    return v;
  }

  /** Back to a resource map (zero slots omitted). */
  resources(v: Float64Array): Resources {
    const out: Resources = {};
    for (let i = 0; i < v.length; i++) if (v[i] !== 0) out[this.names[i]] = v[i];
    return out;
  }

  /** The first resource where `used + add` exceeds `limit`, or -1 when it fits. */
  overflow(used: Float64Array, add: Float64Array, limit: Float64Array): number {
    for (let i = 0; i < used.length; i++) if (used[i] + add[i] > limit[i]) return i;
    return -1;
  }
}

/** `a + b` as a new vector. */
export function plus(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] + b[i];
  return out;
}

/** Whether `used + add <= limit` in every slot. */
export function fits(used: Float64Array, add: Float64Array, limit: Float64Array): boolean {
  for (let i = 0; i < used.length; i++) if (used[i] + add[i] > limit[i]) return false;
  return true;
}
