/**
 * Packing improvement after first-fit-decreasing: for the claims of a pool whose pods carry no
 * constraints (no node requirements, no topology, not counted by any topology group), re-pack the
 * pods with node sizes capped at each candidate instance type and keep the cheapest plan. Claims
 * then take the cheapest option that holds their pods, which mixes sizes where that is cheaper.
 */
import { Claim, type ClaimEnv } from './claim.js';
import { claimPrice } from './finalize.js';
import type { PodEntry } from './pod-class.js';
import type { PoolContext } from './pool-context.js';
import type { RunState } from './setup.js';

/** At most this many pods are re-packed per pool (larger groups keep the first packing). */
const MAX_PODS = 3000;
/** At most this many capped re-packings are tried per pool. */
const MAX_CANDIDATES = 16;

function isFree(entry: PodEntry): boolean {
  const c = entry.cls;
  if (c.selecting.length > 0 || c.owned.length > 0 || c.variants.length !== 1) return false;
  const v = c.variants[0];
  const t = v.topology;
  return (
    v.alternatives[0].size === 0 &&
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

/** First-fit-decreasing of `pods` into claims whose options are `options` (widened afterwards). */
function pack(
  pool: PoolContext,
  pods: readonly PodEntry[],
  options: readonly number[],
  state: RunState,
): Claim[] | undefined {
  const e = env(state);
  const claims: Claim[] = [];
  for (const entry of pods) {
    const v = entry.cls.variants[0];
    if (claims.some((c) => c.tryAdd(entry, v, e) === undefined)) continue;
    const claim = new Claim(`${pool.name}-r${claims.length + 1}`, pool, pool.reqs, options, state.dims);
    if (claim.tryAdd(entry, v, e) !== undefined) return undefined;
    claims.push(claim);
  }
  for (const c of claims) c.reopen();
  return claims;
}

/** Candidate size caps: the pool's types with the best price per share of the pods' total need. */
function candidates(pool: PoolContext, pods: readonly PodEntry[], state: RunState): number[] {
  const total = new Float64Array(state.dims.names.length);
  for (const p of pods) {
    const v = state.vectors.get(p.cls)!;
    for (let d = 0; d < total.length; d++) total[d] += v[d];
  }
  const score = (i: number) => {
    const t = pool.types[i];
    let share = 0;
    for (let d = 0; d < total.length; d++)
      if (total[d] > 0) share = Math.max(share, Math.min(1, t.alloc[d] / total[d]));
    return share > 0 ? t.minPrice / share : Number.POSITIVE_INFINITY;
  };
  return [...pool.baseOptions]
    .map((i) => ({ i, s: score(i) }))
    .sort((a, b) => a.s - b.s || a.i - b.i)
    .slice(0, MAX_CANDIDATES)
    .map((x) => x.i);
}

function improvePool(pool: PoolContext, claims: Claim[], state: RunState): Claim[] {
  const pods = claims.flatMap((c) => c.pods);
  if (pods.length > MAX_PODS) return claims;
  let best = claims;
  let bestCost = cost(claims);
  for (const cap of candidates(pool, pods, state)) {
    const limit = pool.types[cap].alloc;
    const options = pool.baseOptions.filter((i) => pool.types[i].alloc.every((a, d) => a <= limit[d]));
    const packed = pack(pool, pods, options, state);
    if (!packed) continue;
    const c = cost(packed);
    if (c < bestCost - 1e-9) {
      best = packed;
      bestCost = c;
    }
  }
  return best;
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
