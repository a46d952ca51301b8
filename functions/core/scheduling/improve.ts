/**
 * Packing improvement after first-fit-decreasing: for the claims of a pool whose pods carry no
 * topology constraints (node requirements are fine: claims check them), re-pack the pods into
 * nodes shaped like each of the most cost-efficient instance types, right-size every node to the
 * cheapest option that holds its pods, re-pack the last (partly filled) node the same way, and keep
 * the cheapest plan. This mixes sizes where that is cheaper. Deterministic.
 */
import { Claim, type ClaimEnv } from './claim.js';
import { claimPrice } from './finalize.js';
import type { PodEntry } from './pod-class.js';
import type { PoolContext } from './pool-context.js';
import { valueAllowed } from './requirement-set.js';
import type { RunState } from './setup.js';
import { CAPACITY_TYPE } from './well-known.js';

/** At most this many pods are re-packed per pool (larger groups keep the first packing). */
const MAX_PODS = 3000;
/** Node shapes tried per packing. */
const MAX_CANDIDATES = 8;
/** How many times the last node of a packing is itself re-packed. */
const TAIL_DEPTH = 2;

function isFree(entry: PodEntry): boolean {
  const c = entry.cls;
  if (c.selecting.length > 0 || c.owned.length > 0 || c.variants.length !== 1) return false;
  const v = c.variants[0];
  const t = v.topology;
  return (
    v.alternatives.length === 1 &&
    t.spreads.length + t.affinities.length + t.antis.length + t.repelledBy.length === 0
  );
}

function cost(claims: readonly Claim[]): number {
  return claims.reduce((sum, c) => sum + claimPrice(c), 0);
}

function env(state: RunState): ClaimEnv {
  return {
    dims: state.dims,
    topology: state.topology,
    reservedOf: () => ({}),
    vectorOf: (cls) => state.vectors.get(cls)!,
  };
}

interface Packing {
  readonly claims: Claim[];
  readonly cost: number;
}

/** First-fit-decreasing of `pods` into nodes no larger than type `cap`, each right-sized afterwards. */
function pack(
  pool: PoolContext,
  pods: readonly PodEntry[],
  cap: number,
  state: RunState,
): Claim[] | undefined {
  const limit = pool.types[cap].alloc;
  const options = pool.baseOptions.filter((i) => pool.types[i].alloc.every((a, d) => a <= limit[d]));
  const vec = (p: PodEntry) => state.vectors.get(p.cls)!;
  const size = (p: PodEntry) => vec(p).reduce((m, r, d) => Math.max(m, limit[d] > 0 ? r / limit[d] : r), 0);
  const order = pods
    .map((p) => ({ p, s: size(p) }))
    .sort((a, b) => b.s - a.s || (a.p.id < b.p.id ? -1 : 1))
    .map((x) => x.p);
  const e = env(state);
  const claims: Claim[] = [];
  for (const entry of order) {
    const v = entry.cls.variants[0];
    if (claims.some((c) => c.tryAdd(entry, v, e) === undefined)) continue;
    const claim = new Claim(`${pool.name}-r${claims.length + 1}`, pool, pool.reqs, options, state.dims);
    if (claim.tryAdd(entry, v, e) !== undefined) return undefined;
    claims.push(claim);
  }
  for (const c of claims) c.reopen();
  return claims;
}

/** Whether type `a` is at least as large as `b` in every resource. */
function covers(a: Float64Array, b: Float64Array): boolean {
  for (let d = 0; d < a.length; d++) if (a[d] < b[d]) return false;
  return true;
}

const priceCache = new WeakMap<PoolContext, Float64Array>();

/** Per type, the price a node of the pool pays: spot when the pool allows it and it is offered. */
function prices(pool: PoolContext): Float64Array {
  let out = priceCache.get(pool);
  if (out) return out;
  const ct = pool.reqs.get(CAPACITY_TYPE);
  const spot = !ct || valueAllowed(ct, 'spot');
  const onDemand = !ct || valueAllowed(ct, 'on-demand');
  out = Float64Array.from(pool.types, (t) =>
    spot && Number.isFinite(t.spotPrice)
      ? t.spotPrice
      : onDemand
        ? t.onDemandPrice
        : Number.POSITIVE_INFINITY,
  );
  priceCache.set(pool, out);
  return out;
}

const undominatedCache = new WeakMap<PoolContext, number[]>();

/** The pool's types not dominated by a type at most as expensive with as much of everything. */
function undominated(pool: PoolContext): number[] {
  const cached = undominatedCache.get(pool);
  if (cached) return cached;
  const all = pool.baseOptions;
  const price = prices(pool);
  const out = all.filter((i, k) => {
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

/**
 * Node shapes worth trying: types that hold every pod alone and are not dominated by a type at
 * most as expensive with as much of everything, ranked by price per share of the pods' total need
 * (the share a node holds is set by its scarcest resource).
 */
function candidates(pool: PoolContext, pods: readonly PodEntry[], state: RunState): number[] {
  const total = new Float64Array(state.dims.names.length);
  const largest = new Float64Array(total.length);
  for (const p of pods) {
    const v = state.vectors.get(p.cls)!;
    for (let d = 0; d < total.length; d++) {
      total[d] += v[d];
      largest[d] = Math.max(largest[d], v[d]);
    }
  }
  const price = prices(pool);
  const useful = undominated(pool).filter((i) => covers(pool.types[i].alloc, largest));
  const score = (i: number) => {
    const a = pool.types[i].alloc;
    let share = 1;
    for (let d = 0; d < total.length; d++) if (total[d] > 0) share = Math.min(share, a[d] / total[d]);
    return share > 0 ? price[i] / share : Number.POSITIVE_INFINITY;
  };
  return useful
    .map((i) => ({ i, s: score(i) }))
    .sort((a, b) => a.s - b.s || a.i - b.i)
    .slice(0, MAX_CANDIDATES)
    .map((x) => x.i);
}

/** The cheapest packing found for `pods`, re-packing the last node up to `depth` times. */
function bestPacking(
  pool: PoolContext,
  pods: readonly PodEntry[],
  state: RunState,
  depth: number,
): Packing | undefined {
  let best: Packing | undefined;
  for (const cap of candidates(pool, pods, state)) {
    const packed = pack(pool, pods, cap, state);
    if (!packed) continue;
    let result: Packing = { claims: packed, cost: cost(packed) };
    if (depth > 0 && packed.length > 1) {
      const tail = packed[packed.length - 1];
      const sub = bestPacking(pool, tail.pods, state, depth - 1);
      const tailCost = claimPrice(tail);
      if (sub && sub.cost < tailCost - 1e-9)
        result = { claims: [...packed.slice(0, -1), ...sub.claims], cost: result.cost - tailCost + sub.cost };
    }
    if (!best || result.cost < best.cost - 1e-9) best = result;
  }
  return best;
}

function improvePool(pool: PoolContext, claims: Claim[], state: RunState): Claim[] {
  const pods = claims.flatMap((c) => c.pods);
  if (pods.length > MAX_PODS) return claims;
  const found = bestPacking(pool, pods, state, TAIL_DEPTH);
  return found && found.cost < cost(claims) - 1e-9 ? found.claims : claims;
}

/** Improves the packing of new claims where it lowers the plan's cost. Deterministic. */
export function improvePacking(claims: Claim[], state: RunState): Claim[] {
  const out: Claim[] = [];
  const free = new Map<PoolContext, Claim[]>();
  for (const c of claims) {
    if (Object.keys(c.pool.limits).length === 0 && c.pods.every(isFree)) {
      const list = free.get(c.pool) ?? [];
      list.push(c);
      free.set(c.pool, list);
    } else out.push(c);
  }
  for (const [pool, list] of free) out.push(...improvePool(pool, list, state));
  return out;
}
