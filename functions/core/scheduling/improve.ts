/**
 * Packing improvement after first-fit-decreasing: for the claims of a pool whose pods carry no
 * topology constraints (node requirements are fine: claims check them), re-pack the pods into
 * nodes shaped like each of the most cost-efficient instance types, right-size every node to the
 * cheapest option that holds its pods, re-pack the last (partly filled) node the same way, and keep
 * the cheapest plan. This mixes sizes where that is cheaper. Deterministic.
 */
import type { Claim, ClaimEnv } from './claim.js';
import { coverPacking } from './cover-packing.js';
import { claimPrice } from './finalize.js';
import { rankedShapes } from './node-shapes.js';
import type { PodEntry } from './pod-class.js';
import type { PoolContext } from './pool-context.js';
import { firstFitBy, type PackContext, type PackStrategy, packBestMatch, packFirstFit } from './repack.js';
import type { RunState } from './setup.js';

/** Packings tried per node shape; the dimension-first ones are built per run (resource slots vary). */
function strategies(state: RunState): PackStrategy[] {
  const dims = state.dims.names;
  return [packFirstFit, packBestMatch, firstFitBy(dims.indexOf('cpu')), firstFitBy(dims.indexOf('memory'))];
}

/** At most this many pods are re-packed per pool (larger groups keep the first packing). */
const MAX_PODS = 3000;
/** Node shapes tried per packing. */
const MAX_CANDIDATES = 8;
/** Claims (the most wasteful) whose pairs the local search re-packs, and its rounds. */
const PAIR_CLAIMS = 8;
const PAIR_ROUNDS = 4;
/** Rounds of value correction in the pattern cover. */
const COVER_ROUNDS = 20;
/** How many times the last node of a packing is itself re-packed. */
const TAIL_DEPTH = 1;

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

/** Node shapes for these pods, best first. */
function shapesFor(ctx: PackContext, pods: readonly PodEntry[]): number[] {
  const n = ctx.state.dims.names.length;
  const total = new Float64Array(n);
  const smallest = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  for (const p of pods) {
    const v = ctx.state.vectors.get(p.cls)!;
    for (let d = 0; d < n; d++) {
      total[d] += v[d];
      smallest[d] = Math.min(smallest[d], v[d]);
    }
  }
  return rankedShapes(ctx.pool, total, smallest).map((s) => s.index);
}

/** The cheapest packing found for `pods`, re-packing the last node up to `depth` times. */
function bestPacking(ctx: PackContext, pods: readonly PodEntry[], depth: number): Packing | undefined {
  const shapes = shapesFor(ctx, pods);
  const local: PackContext = { ...ctx, ranked: shapes };
  let best: Packing | undefined;
  for (const cap of shapes.slice(0, MAX_CANDIDATES)) {
    for (const strategy of ctx.strategies) {
      const packed = strategy(local, pods, cap);
      if (!packed) continue;
      let result: Packing = { claims: packed, cost: cost(packed) };
      if (depth > 0 && packed.length > 1) {
        const tail = packed[packed.length - 1];
        const sub = bestPacking(ctx, tail.pods, depth - 1);
        const tailCost = claimPrice(tail);
        if (sub && sub.cost < tailCost - 1e-9)
          result = {
            claims: [...packed.slice(0, -1), ...sub.claims],
            cost: result.cost - tailCost + sub.cost,
          };
      }
      if (!best || result.cost < best.cost - 1e-9) best = result;
    }
  }
  return best;
}

/** Money a claim spends on room its pods leave unused (price x unused share of its scarcest resource). */
function waste(claim: Claim): number {
  const price = claimPrice(claim);
  let used = 0;
  for (let d = 0; d < claim.used.length; d++)
    if (claim.maxAlloc[d] > 0) used = Math.max(used, claim.used[d] / claim.maxAlloc[d]);
  return price * (1 - Math.min(1, used));
}

/**
 * Local search: re-packs the pods of each pair of the most wasteful claims together and keeps
 * the result when it is cheaper, for a few rounds.
 */
function repackPairs(ctx: PackContext, claims: Claim[]): Claim[] {
  let current = claims;
  for (let round = 0; round < PAIR_ROUNDS; round++) {
    for (const c of current) c.reopen();
    const worst = [...current].sort((a, b) => waste(b) - waste(a)).slice(0, PAIR_CLAIMS);
    let improved = false;
    for (let i = 0; i < worst.length && !improved; i++) {
      for (let j = i + 1; j < worst.length && !improved; j++) {
        const pair = [worst[i], worst[j]];
        const found = bestPacking(ctx, [...pair[0].pods, ...pair[1].pods], 0);
        if (found && found.cost < cost(pair) - 1e-9) {
          current = [...current.filter((c) => c !== pair[0] && c !== pair[1]), ...found.claims];
          improved = true;
        }
      }
    }
    if (!improved) break;
  }
  return current;
}

function improvePool(pool: PoolContext, claims: Claim[], state: RunState): Claim[] {
  const pods = claims.flatMap((c) => c.pods);
  if (pods.length > MAX_PODS) return claims;
  const ctx: PackContext = {
    pool,
    state,
    env: env(state),
    ranked: [],
    optionsCache: new Map(),
    strategies: strategies(state),
  };
  const found = bestPacking(ctx, pods, TAIL_DEPTH);
  const packed = found && found.cost < cost(claims) - 1e-9 ? found.claims : claims;
  const searched = repackPairs(ctx, packed);
  const covered = coverPacking(ctx, pods, COVER_ROUNDS);
  if (!covered) return searched;
  const alternative = repackPairs(ctx, covered);
  return cost(alternative) < cost(searched) - 1e-9 ? alternative : searched;
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
