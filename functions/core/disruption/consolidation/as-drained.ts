/**
 * A consolidation move as it will be carried out. The search plans a move with its removal trials
 * (pods placed run after run, new nodes packed with little or no improvement effort), but the move
 * launches what the provisioning run of its drain plans: every pod of its nodes at once, with the
 * run's full packing improvement. The two can land on different packings, and a move whose drain
 * launches more than the search planned may not save at all. So a move is kept only when its drain's
 * plan places every pod, launches nothing for a delete, and costs no more than the move planned:
 * Karpenter gets the same guarantee by validating a command with the simulation that made it and
 * launching the command's own replacement.
 */
import type { PlannedNodeClaim } from '../../scheduling/types.js';
import type { ConsolidationMove } from './plan-consolidation.js';
import type { PreparedCluster } from './removal-simulation.js';

/** What a drain of a move's nodes launches. */
export interface DrainOutcome {
  /** Hourly price of its new nodes, each at its cheapest option (the launch takes the cheapest). */
  readonly newNodesPrice: number;
  readonly newNodes: number;
  /** Pods of the move's nodes it finds no place for. */
  readonly unschedulable: number;
}

/** The hourly price of `claims`, each at its cheapest option. */
export function priceOfNewNodes(claims: readonly PlannedNodeClaim[]): number {
  return claims.reduce((sum, c) => sum + Math.min(...c.instanceTypeOptions.map((o) => o.price)), 0);
}

/** The hourly price of the new nodes `move` planned (0 for a delete). */
export function plannedNewNodesPrice(move: ConsolidationMove): number {
  return priceOfNewNodes(move.replacements ?? (move.replacement ? [move.replacement] : []));
}

/** What the drain of `move`'s nodes would launch on `prepared`. */
export function drainOutcome(prepared: PreparedCluster, move: ConsolidationMove): DrainOutcome {
  const plan = prepared.asDrained(move.candidates.map((c) => c.node.metadata.name));
  return {
    newNodesPrice: priceOfNewNodes(plan.nodeClaims),
    newNodes: plan.nodeClaims.length,
    unschedulable: plan.unschedulable.length,
  };
}

/**
 * Whether the drain of `move` would launch no more than `planned` costs per hour (default: what the
 * move itself planned), place every pod, and launch nothing for a delete; see the file comment.
 */
export function drainAgrees(
  prepared: PreparedCluster,
  move: ConsolidationMove,
  planned: number = plannedNewNodesPrice(move),
): boolean {
  const outcome = drainOutcome(prepared, move);
  if (outcome.unschedulable > 0) return false;
  if (move.method === 'delete') return outcome.newNodes === 0;
  return outcome.newNodesPrice <= planned + 1e-9;
}
