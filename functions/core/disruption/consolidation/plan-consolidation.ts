/**
 * Chooses one consolidation move: a set of candidate nodes whose pods fit on the rest of the
 * cluster with no new node (delete) or with one new node cheaper than the set (replace).
 *
 * Karpenter binary-searches the longest prefix of at most 100 candidates (multi-node, 1 min cap)
 * and then tries candidates one by one (single-node, 3 min cap). joiner grows the set greedily in
 * disruption-cost order instead, trying the next candidates in runs that double while they fit and
 * halve when they do not, so a candidate that does not fit is skipped rather than ending the
 * search: the set keeps growing past it towards what a global re-pack would remove. Each accepted
 * run is kept in the simulation (its pods stay where they were placed, a new node it opened stays
 * open for the next runs), so a trial places only the pods of the nodes it adds: a whole search
 * costs about the pods of the cluster plus the rejected candidates' pods, not a scheduler run of
 * the cluster per trial. Two searches run: deletes only, growing from one node; and with one new
 * node allowed, starting from every candidate at once as Karpenter's multi-node search does (so
 * several nodes can go into one cheaper one). The move each search finds is then checked with all
 * its pods planned at once, as its drain will plan them; a replace wins only when it saves more,
 * since a delete launches nothing. When both find nothing, pairs of candidates are tried for a
 * two-into-one replace the greedy order passed by: those whose pods could fit one cheaper node
 * first, wherever they are in the order, within a fixed number of trials (pair-order.ts). When
 * that finds nothing either, pairs are tried as an exchange: both nodes re-packed into new nodes
 * that cost less together (exchange-order.ts), the move a scale-in most often leaves (a memory node
 * and a compute node, each full by cpu, whose pods mixed fit two cheaper general-purpose nodes).
 * The re-pack is planned as the drain's provisioning run plans it, with its packing improvement,
 * which takes smaller nodes where they cost less: sizes of a family are priced by size, so a
 * memory pod on an r.xlarge beside its neighbours on a c.xlarge can undercut the r.2xlarge they
 * share, and an exchange may launch up to {@link EXCHANGE_NODES} nodes. Last, single candidates
 * are re-packed the same way into several smaller nodes. Karpenter never launches more than one
 * node for a consolidation; the exchange stays within its other rules (on-demand only, every node
 * from the budget, pods planned with every rule).
 */

import type { RemovalRuns, TrialOutcome } from '../../scheduling/removal-runs.js';
import type { PlannedNodeClaim } from '../../scheduling/types.js';
import { drainAgrees } from './as-drained.js';
import type { Candidate } from './candidates.js';
import { EXCHANGE_NODES, exchangeOrder } from './exchange-order.js';
import { pairOrder } from './pair-order.js';
import type { PreparedCluster } from './removal-simulation.js';
import { withinPrice } from './within-price.js';

/** A consolidation move. */
export interface ConsolidationMove {
  readonly method: 'delete' | 'replace';
  readonly candidates: readonly Candidate[];
  /** The new node of a replace (the first of several), its options cut to those that keep the move cheaper. */
  readonly replacement?: PlannedNodeClaim;
  /**
   * Every new node of a replace: one, or several for an exchange (two nodes re-packed into up to
   * {@link EXCHANGE_NODES}) or a single node re-packed into smaller ones, each with its options cut
   * to those that keep the new nodes' total below the removed nodes' price.
   */
  readonly replacements?: readonly PlannedNodeClaim[];
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
  const runs = prepared.runs();
  const found = [
    search(runs, candidates, limits, 0, 1),
    search(runs, candidates, limits, 1, candidates.length),
  ];
  // Each move is kept only if its drain would carry it out as planned (as-drained.ts).
  const agrees = (move: ConsolidationMove | undefined) =>
    move && drainAgrees(prepared, move) ? move : undefined;
  const [deletes, replaces] = found.map((f) => f && verified(runs, f, limits));
  const greedy =
    !replaces || (deletes && deletes.savings >= replaces.savings - 1e-9)
      ? [deletes, replaces]
      : [replaces, deletes];
  for (const move of greedy) if (agrees(move)) return move;
  return pairs(runs, candidates, prepared, limits) ?? exchanges(runs, candidates, prepared, limits);
}

/**
 * When the greedy searches find nothing: pairs of candidates replaced by one cheaper node, the pair
 * that saves most. The greedy searches only grow sets along the candidate order (prefixes, then
 * runs past a candidate that did not fit), so two nodes that fit one cheaper node together but
 * neither alone (a lightly used node and a differently shaped one further down the order, or a node
 * kept for a zone spread whose pods a new node in that zone can take with another node's) are
 * missed. Which pairs, in which order, and how many: pair-order.ts (a fixed number of trials, each
 * costing the two nodes' pods).
 */
function pairs(
  runs: RemovalRuns,
  candidates: readonly Candidate[],
  prepared: PreparedCluster,
  limits: SearchLimits,
): ConsolidationMove | undefined {
  let best: ConsolidationMove | undefined;
  for (const [i, j] of pairOrder(candidates, prepared.pools)) {
    if (limits.expired?.()) return best;
    const set = [candidates[i], candidates[j]];
    if (!set.every((c) => runs.canRemove(c.node.metadata.name))) continue;
    if (withinBudget(set, new Map(), limits).length < 2) continue;
    const move = moveOf(runs.trial(names(set)), set, 1, limits);
    runs.rollback();
    if (move && move.savings > (best?.savings ?? 0) + 1e-9 && drainAgrees(prepared, move)) best = move;
  }
  return best;
}

/**
 * When no other move saves: pairs of candidates re-packed into new nodes that together cost less
 * (two, or more and smaller ones, at most {@link EXCHANGE_NODES}), in the order of
 * exchange-order.ts; then single candidates re-packed into several smaller nodes. The first that
 * holds is the move (each trial costs its nodes' pods).
 */
function exchanges(
  runs: RemovalRuns,
  candidates: readonly Candidate[],
  prepared: PreparedCluster,
  limits: SearchLimits,
): ConsolidationMove | undefined {
  const sets = [
    ...exchangeOrder(candidates, prepared.pools).map(([i, j]) => [candidates[i], candidates[j]]),
    ...candidates.filter((c) => !isSpot(c)).map((c) => [c]),
  ];
  for (const set of sets) {
    if (limits.expired?.()) return undefined;
    if (!set.every((c) => runs.canRemove(c.node.metadata.name))) continue;
    if (withinBudget(set, new Map(), limits).length < set.length) continue;
    const move = repacked(runs, set, limits);
    if (move && drainAgrees(prepared, move)) return move;
  }
  return undefined;
}

/** The move re-packing `set` into up to {@link EXCHANGE_NODES} new nodes, if one saves (leaves `runs` rolled back). */
function repacked(
  runs: RemovalRuns,
  set: readonly Candidate[],
  limits: Pick<SearchLimits, 'minSpotOptions'>,
): ConsolidationMove | undefined {
  const outcome = runs.trial(names(set), EXCHANGE_EFFORT);
  runs.rollback();
  const move = moveOf(outcome, set, EXCHANGE_NODES, limits);
  // A single node re-packed into one node is a replace the searches already tried.
  return move && (move.replacements?.length ?? 0) > 1 ? move : undefined;
}

const isSpot = (c: Candidate): boolean => c.claim.instance?.capacityType === 'spot';

/**
 * The packing improvement's effort in an exchange trial: first-fit-decreasing places the largest
 * pods first, so it tends to rebuild the two nodes as they were (the memory pods together); the
 * improvement mixes them, and picks smaller nodes where they cost less, as the provisioning run of
 * the drain will.
 */
const EXCHANGE_EFFORT = 0.25;

/** A search's result: its move and the sizes of the runs it took, in order. */
interface Found {
  readonly move: ConsolidationMove;
  readonly steps: readonly number[];
}

/**
 * One greedy search (see the file comment) with at most `maxClaims` new nodes for the whole set,
 * trying `firstRun` candidates first. Each run that raises the savings is committed (its pods stay
 * where they went, a new node it opened stays open for the next runs); the others are undone.
 * Leaves `runs` reset.
 */
function search(
  runs: RemovalRuns,
  candidates: readonly Candidate[],
  limits: SearchLimits,
  maxClaims: number,
  firstRun: number,
): Found | undefined {
  const taken = new Map<string, number>();
  const chosen: Candidate[] = [];
  const steps: number[] = [];
  let best: ConsolidationMove | undefined;
  let i = 0;
  let run = Math.max(1, firstRun);
  while (i < candidates.length && !limits.expired?.()) {
    const slice = candidates.slice(i, i + run).filter((c) => runs.canRemove(c.node.metadata.name));
    const next = withinBudget(slice, taken, limits);
    if (next.length === 0) {
      i += run;
      continue;
    }
    const move = moveOf(runs.trial(names(next)), [...chosen, ...next], maxClaims, limits);
    if (move && move.savings > (best?.savings ?? 0) + 1e-9) {
      runs.commit();
      chosen.push(...next);
      steps.push(next.length);
      best = move;
      for (const c of next) taken.set(c.pool.name, (taken.get(c.pool.name) ?? 0) + 1);
      i += run;
      run *= 2;
      continue;
    }
    runs.rollback();
    if (run > 1) run = Math.max(1, Math.floor(run / 2));
    else i++;
  }
  runs.reset();
  return best && { move: best, steps };
}

/**
 * The search's move checked the way it will be carried out: all its pods planned at once on the
 * cluster without its nodes, as the provisioning run of its drain plans them. Placing the runs one
 * after the other can succeed where planning them together does not; then the last runs are dropped
 * until the rest holds.
 */
function verified(runs: RemovalRuns, found: Found, limits: SearchLimits): ConsolidationMove | undefined {
  let size = found.move.candidates.length;
  for (let k = found.steps.length - 1; k >= 0 && size > 0; k--) {
    const set = found.move.candidates.slice(0, size);
    const move = moveOf(runs.trial(names(set)), set, 1, limits);
    runs.rollback();
    if (move) return move;
    size -= found.steps[k];
  }
  return undefined;
}

/** The candidates of `run` their NodePool's budget still allows, in order. */
function withinBudget(
  run: readonly Candidate[],
  taken: ReadonlyMap<string, number>,
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

function names(set: readonly Candidate[]): string[] {
  return set.map((c) => c.node.metadata.name);
}

function priceOf(set: readonly Candidate[]): number {
  return set.reduce((sum, c) => sum + c.price, 0);
}

/**
 * The move of removing `set` given the trial's outcome: a delete when its pods need no new node, a
 * replace when they need at most `maxClaims` new nodes costing less than the set together, each
 * with its options cut to those that keep the total below the set's price (within-price.ts), and
 * the spot rule holds; otherwise undefined.
 */
function moveOf(
  outcome: TrialOutcome,
  set: readonly Candidate[],
  maxClaims: number,
  limits: Pick<SearchLimits, 'minSpotOptions'>,
): ConsolidationMove | undefined {
  const claims = outcome.newClaims;
  if (outcome.unschedulable > 0 || claims.length > maxClaims) return undefined;
  const price = priceOf(set);
  if (claims.length === 0) return { method: 'delete', candidates: set, savings: price };
  const replacements = withinPrice(claims, price);
  if (!replacements) return undefined;
  const minSpot = limits.minSpotOptions ?? MIN_SPOT_TO_SPOT_OPTIONS;
  if (!replacements.every((r) => spotRuleHolds(set, r, minSpot))) return undefined;
  return {
    method: 'replace',
    candidates: set,
    replacement: replacements[0],
    replacements,
    savings:
      price -
      replacements.reduce((sum, r) => sum + Math.min(...r.instanceTypeOptions.map((o) => o.price)), 0),
  };
}

/**
 * The move removing `set` at once, or undefined when it is not a valid consolidation: its pods
 * onto the rest of the cluster and at most one new node; or, for one or two on-demand nodes, the
 * re-pack an exchange makes (planned with the packing improvement, up to {@link EXCHANGE_NODES}).
 */
export function evaluate(
  prepared: PreparedCluster,
  set: readonly Candidate[],
  limits: Pick<SearchLimits, 'minSpotOptions'> = {},
): ConsolidationMove | undefined {
  if (set.length === 0) return undefined;
  const runs = prepared.runs();
  const move = moveOf(runs.trial(names(set)), set, 1, limits);
  runs.rollback();
  if (move || set.length > 2 || set.some(isSpot)) return move;
  return repacked(runs, set, limits);
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
