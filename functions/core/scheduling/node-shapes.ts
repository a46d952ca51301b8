/**
 * Node shapes for re-packing: the instance types of a pool worth packing towards (none dominated
 * by one at most as expensive and at least as large) and the price a node of each would pay (spot
 * when the pool allows it and the type offers it).
 */
import type { PoolContext } from './pool-context.js';
import { valueAllowed } from './requirement-set.js';
import { CAPACITY_TYPE } from './well-known.js';

/** Whether `a` is at least as large as `b` in every resource. */
export function covers(a: Float64Array, b: Float64Array): boolean {
  for (let d = 0; d < a.length; d++) if (a[d] < b[d]) return false;
  return true;
}

const priceCache = new WeakMap<PoolContext, Float64Array>();

/** Per type of the pool, the hourly price its nodes pay (Infinity when it cannot be bought). */
export function shapePrices(pool: PoolContext): Float64Array {
  let out = priceCache.get(pool);
  if (out) return out;
  const ct = pool.reqs.get(CAPACITY_TYPE);
  const spot = !ct || valueAllowed(ct, 'spot');
  const onDemand = !ct || valueAllowed(ct, 'on-demand');
  out = Float64Array.from(pool.types, (t) => {
    if (spot && Number.isFinite(t.spotPrice)) return t.spotPrice;
    return onDemand ? t.onDemandPrice : Number.POSITIVE_INFINITY;
  });
  priceCache.set(pool, out);
  return out;
}

/**
 * The pool's types worth packing towards when pod groups may use only some of them (`allowed`, one
 * set per group): a type allowed for some group, not dominated by one at most as expensive, as
 * large and allowed for every group the type is allowed for (a cheaper arm64 type does not make
 * an amd64 type useless to amd64-only pods). The same as {@link undominated} when every group may
 * use every type.
 */
export function undominatedFor(pool: PoolContext, allowed: readonly ReadonlySet<number>[]): number[] {
  const all = pool.baseOptions;
  if (allowed.every((a) => all.every((i) => a.has(i)))) return undominated(pool);
  const price = shapePrices(pool);
  const superset = (j: number, i: number) => allowed.every((a) => !a.has(i) || a.has(j));
  return all.filter((i, k) => {
    if (!Number.isFinite(price[i]) || !allowed.some((a) => a.has(i))) return false;
    const t = pool.types[i];
    return !all.some((j, m) => {
      const o = pool.types[j];
      if (j === i || price[j] > price[i] || !covers(o.alloc, t.alloc) || !superset(j, i)) return false;
      return price[j] < price[i] || !covers(t.alloc, o.alloc) || m < k;
    });
  });
}

const undominatedCache = new WeakMap<PoolContext, number[]>();

/** The pool's types not dominated by one at most as expensive with as much of every resource. */
export function undominated(pool: PoolContext): number[] {
  const cached = undominatedCache.get(pool);
  if (cached) return cached;
  const all = pool.baseOptions;
  const price = shapePrices(pool);
  const out = all.filter((i, k) => {
    if (!Number.isFinite(price[i])) return false;
    const t = pool.types[i];
    return !all.some((j, m) => {
      const o = pool.types[j];
      if (j === i || price[j] > price[i] || !covers(o.alloc, t.alloc)) return false;
      return price[j] < price[i] || !covers(t.alloc, o.alloc) || m < k;
    });
  });
  undominatedCache.set(pool, out);
  return out;
}
