/**
 * A NodeOverlay's status as Karpenter's nodeoverlay controller writes it: condition
 * `ValidationSucceeded` (False with reason `Conflict` when an overlay of the same weight already
 * changes what it would change, so it is applied nowhere) and `Ready`, which follows it.
 */
import type { Catalog } from '../model/instance-type.js';
import type { NodeClass } from '../model/node-class.js';
import type { NodeOverlay } from '../model/node-overlay.js';
import type { NodePool } from '../model/node-pool.js';
import { applyNodeOverlays, type OverlayOutcome } from '../scheduling/node-overlays.js';
import { schedulingPools } from '../scheduling/prepare.js';
import { type Condition, condition } from './conditions.js';

/** What became of each overlay against the NodePools' instance types (see node-overlays.ts). */
export function overlayOutcomes(
  overlays: readonly NodeOverlay[],
  nodePools: readonly NodePool[],
  nodeClasses: readonly NodeClass[],
  catalog: Catalog,
): OverlayOutcome[] {
  return applyNodeOverlays(schedulingPools(nodePools, nodeClasses, catalog), overlays).outcomes;
}

/** The status of an overlay with `outcome`. */
export function nodeOverlayStatus(outcome: OverlayOutcome, now: number): { conditions: Condition[] } {
  const validation =
    outcome.conflict === undefined
      ? condition('ValidationSucceeded', 'True', 'ValidationSucceeded', '', now)
      : condition('ValidationSucceeded', 'False', 'Conflict', outcome.conflict, now);
  const ready =
    outcome.conflict === undefined
      ? condition('Ready', 'True', 'Ready', '', now)
      : condition('Ready', 'False', 'ValidationSucceededFalse', outcome.conflict, now);
  return { conditions: [validation, ready] };
}
