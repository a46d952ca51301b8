/**
 * Chooses one consolidation move: a set of candidate nodes whose pods fit on the rest of the
 * cluster with no new node (delete) or with one new node cheaper than the set (replace).
 *
 * Karpenter binary-searches the longest prefix of at most 100 candidates (multi-node, 1 min cap)
 * and then tries candidates one by one (single-node, 3 min cap). joiner grows the set greedily in
 * disruption-cost order instead, trying the next candidates in runs that double while they fit and
 * halve when they do not, so a candidate that does not fit is skipped rather than ending the
 * search: the set keeps growing past it towards what a global re-pack would remove, with a number
 * of scheduler calls that grows with the rejected candidates, not with the cluster. The search
 * runs twice, once for deletes only and once allowing one replacement; a replace wins only when it
 * saves more, since a delete launches nothing.
 */
import type { PlannedNodeClaim } from '../../scheduling/types.js';
import type { Candidate } from './candidates.js';
import { type PreparedCluster, type RemovalOutcome, simulateRemoval } from './removal-simulation.js';

/** A consolidation move. */
export interface ConsolidationMove {
  readonly method: 'delete' | 'replace';
  readonly candidates: readonly Candidate[];
  /** The new node of a replace, its options cut to those cheaper than the nodes it replaces. */
  readonly replacement?: PlannedNodeClaim;
  /** Hourly price of the removed nodes less the replacement's. */
  readonly savings: number;
}

/** Bounds of one search. */
export interface SearchLimits {
  /** Nodes each NodePool may still lose now (its `Underutilized` budget). */
  readonly allowed: (pool: string) => number;
  /** True once the search must stop (time budget); the best set found so far is used. */
  readonly expired?: () => boolean;
  /** Spot nodes are replaced by spot only with at least this many cheaper instance types (Karpenter: 15). */
  readonly minSpotOptions?: number;
}

/** Karpenter's rule against chasing the cheapest, most interruptible spot pool. */
export const MIN_SPOT_TO_SPOT_OPTIONS = 15;

/** The move for `candidates` (in the order given), or undefined when no node can go. */
export function planConsolidation(
  prepared: PreparedCluster,
  candidates: readonly Candidate[],
  limits: SearchLimits,
): ConsolidationMove | undefined {
  const deletes = grow(prepared, candidates, limits, false);
  const replaces = grow(prepared, candidates, limits, true);
  if (!replaces || (deletes && deletes.savings >= replaces.savings - 1e-9)) return deletes;
  return replaces;
}

/** The greedy search (see the file comment); `replace` allows one new node. */
function grow(
  prepared: PreparedCluster,
  candidates: readonly Candidate[],
  limits: SearchLimits,
  replace: boolean,
): ConsolidationMove | undefined {
  let chosen: Candidate[] = [];
  let best: ConsolidationMove | undefined;
  const taken = new Map<string, number>();
  let i = 0;
  let run = 1;
  while (i < candidates.length && !limits.expired?.()) {
    const next = withinBudget(candidates.slice(i, i + run), taken, limits);
    if (next.length === 0) {
      i += run;
      continue;
    }
    const trial = [...chosen, ...next];
    const move = evaluate(prepared, trial, limits);
    if (move && (replace || move.method === 'delete') && move.savings > (best?.savings ?? 0)) {
      chosen = trial;
      best = move;
      for (const c of next) taken.set(c.pool.name, (taken.get(c.pool.name) ?? 0) + 1);
      i += run;
      run *= 2;
    } else if (run > 1) {
      run = Math.max(1, Math.floor(run / 2));
    } else {
      i++;
    }
  }
  return best;
}

/** The candidates of `run` their NodePool's budget still allows, in order. */
function withinBudget(
  run: readonly Candidate[],
  taken: Map<string, number>,
  limits: SearchLimits,
): Candidate[] {
  const counts = new Map(taken);
  return run.filter((c) => {
    const n = counts.get(c.pool.name) ?? 0;
    if (n >= limits.allowed(c.pool.name)) return false;
    counts.set(c.pool.name, n + 1);
    return true;
  });
}

/** The move removing `set`, or undefined when it is not a valid consolidation. */
export function evaluate(
  prepared: PreparedCluster,
  set: readonly Candidate[],
  limits: Pick<SearchLimits, 'minSpotOptions'> = {},
): ConsolidationMove | undefined {
  const outcome: RemovalOutcome = simulateRemoval(prepared, new Set(set.map((c) => c.node.metadata.name)));
  if (outcome.unschedulable > 0 || outcome.newClaims.length > 1) return undefined;
  const price = set.reduce((sum, c) => sum + c.price, 0);
  const [claim] = outcome.newClaims;
  if (!claim) return { method: 'delete', candidates: set, savings: price };
  const cheaper = claim.instanceTypeOptions.filter((o) => o.price < price);
  if (cheaper.length === 0) return undefined;
  const replacement = { ...claim, instanceTypeOptions: cheaper };
  if (!spotRuleHolds(set, replacement, limits.minSpotOptions ?? MIN_SPOT_TO_SPOT_OPTIONS)) return undefined;
  const cheapest = Math.min(...cheaper.map((o) => o.price));
  return { method: 'replace', candidates: set, replacement, savings: price - cheapest };
}

/**
 * Spot to spot: only one node at a time, and only with enough cheaper spot instance types that the
 * replacement is not just the cheapest (most interrupted) pool.
 */
function spotRuleHolds(
  set: readonly Candidate[],
  replacement: PlannedNodeClaim,
  minOptions: number,
): boolean {
  const anySpot = set.some((c) => c.claim.instance?.capacityType === 'spot');
  const spot = replacement.instanceTypeOptions.filter((o) => o.capacityType === 'spot');
  if (!anySpot || spot.length === 0) return true;
  if (set.length > 1) return false;
  return new Set(spot.map((o) => o.instanceType)).size >= minOptions;
}
