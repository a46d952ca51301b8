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
