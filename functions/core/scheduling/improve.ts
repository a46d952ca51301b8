/**
 * Packing improvement after first-fit-decreasing: the claims of a pool whose pods carry no
 * topology constraints (node requirements are fine: claims check them) are re-planned by pattern
 * cover (exact for few pods, else a dive from the linear relaxation and a neighbourhood search),
 * and the cheaper of the two packings is kept. The search runs on a work budget scaled to the
 * pods and their kinds (deterministic), optionally cut short by a deadline on a clock the caller
 * passes in.
 */
import type { Claim, ClaimEnv } from './claim.js';
import { coverPacking, type PackContext } from './cover-packing.js';
import { ejectUnconstrained, isUnconstrained } from './eject-free.js';
import { claimPrice } from './finalize.js';
import type { PoolContext } from './pool-context.js';
import type { RunState } from './setup.js';
import { type ImprovementLimits, WorkBudget } from './work-budget.js';

/** At most this many pods are re-packed per pool (larger groups keep the first packing). */
const MAX_PODS = 3000;
/**
 * Work units of a run (about a microsecond each): a base, more per pod re-packed and per kind of
 * pod (distinct requests make a harder problem), at most a cap.
 */
const BASE_UNITS = 20_000;
const UNITS_PER_POD = 400;
const UNITS_PER_KIND = 1500;
const MAX_UNITS = 120_000;
/** Work units (trial additions of a pod to a claim) of the ejection pass: per claim, and at most. */
const EJECT_UNITS_PER_CLAIM = 400;
const MAX_EJECT_UNITS = 200_000;

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

function improvePool(pool: PoolContext, claims: Claim[], state: RunState, budget: WorkBudget): Claim[] {
  const pods = claims.flatMap((c) => c.pods);
  // One pod already has the cheapest type that holds it.
  if (pods.length < 2) return claims;
  const ctx: PackContext = { pool, state, env: env(state) };
  const covered = coverPacking(ctx, pods, budget);
  return covered && cost(covered) < cost(claims) - 1e-9 ? covered : claims;
}

/**
 * Improves the packing of new claims where it lowers the plan's cost. Deterministic unless
 * `limits` sets a deadline.
 */
export function improvePacking(planned: Claim[], state: RunState, limits: ImprovementLimits = {}): Claim[] {
  const claims = ejectAll(planned, state, limits);
  const out: Claim[] = [];
  const free = new Map<PoolContext, Claim[]>();
  for (const c of claims) {
    if (Object.keys(c.pool.limits).length === 0 && !c.pool.reservedOnly && c.pods.every(isUnconstrained)) {
      const list = free.get(c.pool) ?? [];
      list.push(c);
      free.set(c.pool, list);
    } else out.push(c);
  }
  const pools = [...free].filter(([, list]) => podCount(list) <= MAX_PODS);
  const pods = pools.reduce((n, [, list]) => n + podCount(list), 0);
  const kinds = new Set(pools.flatMap(([, list]) => list.flatMap((c) => c.pods.map((p) => p.cls)))).size;
  const units = BASE_UNITS + UNITS_PER_POD * pods + UNITS_PER_KIND * kinds;
  const budget = new WorkBudget(Math.min(MAX_UNITS, units), limits);
  if (!budget.open) return claims;
  let podsLeft = pods;
  for (const [pool, list] of free) {
    const n = podCount(list);
    if (n > MAX_PODS) {
      out.push(...list);
      continue;
    }
    // A share of what is left in proportion to the pods (what a pool leaves unused goes to the next).
    const mine = budget.share((budget.remaining * n) / Math.max(1, podsLeft));
    podsLeft -= n;
    out.push(...improvePool(pool, list, state, mine));
  }
  return out;
}

/**
 * {@link ejectUnconstrained} on each pool that has a claim mixing unconstrained pods with
 * constrained ones; the claims keep their order, new ones follow.
 */
function ejectAll(claims: Claim[], state: RunState, limits: ImprovementLimits): Claim[] {
  const byPool = new Map<PoolContext, Claim[]>();
  for (const c of claims) {
    const list = byPool.get(c.pool) ?? [];
    list.push(c);
    byPool.set(c.pool, list);
  }
  const mixed = [...byPool].filter(([, list]) =>
    list.some((c) => c.pods.some(isUnconstrained) && !c.pods.every(isUnconstrained)),
  );
  if (mixed.length === 0) return claims;
  const budget = new WorkBudget(Math.min(MAX_EJECT_UNITS, EJECT_UNITS_PER_CLAIM * claims.length), limits);
  const added: Claim[] = [];
  for (const [pool, list] of mixed) {
    if (!budget.open) break;
    const after = ejectUnconstrained(pool, list, env(state), budget);
    added.push(...after.slice(list.length));
  }
  return added.length > 0 ? [...claims, ...added] : claims;
}

function podCount(claims: readonly Claim[]): number {
  return claims.reduce((n, c) => n + c.pods.length, 0);
}
