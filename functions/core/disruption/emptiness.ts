/**
 * Emptiness (v1 `consolidationPolicy: WhenEmpty | WhenEmptyOrUnderutilized` with
 * `consolidateAfter`, v1beta1 `WhenEmpty` + `consolidateAfter`, v1alpha5 `ttlSecondsAfterEmpty`):
 * a node on which only DaemonSet, mirror or terminal pods run is removed once it has been empty
 * for `consolidateAfter`. The timer is armed on the claim when the node turns empty and disarmed
 * when pods are back; the round acts on it when due.
 */
import { isStatic, type NodePool } from '../model/node-pool.js';

/**
 * Whether the pool removes empty nodes at all (`consolidateAfter: Never` turns it off; a static
 * pool never does: Karpenter v1.8 keeps its replicas and ignores its consolidation settings).
 */
export function emptinessEnabled(pool: NodePool): boolean {
  return !isStatic(pool) && pool.disruption.consolidateAfterMs !== null;
}

/** How long a node of `pool` stays empty before it is removed, or undefined when never. */
export function emptyFor(pool: NodePool | undefined): number | undefined {
  if (!pool || !emptinessEnabled(pool)) return undefined;
  return pool.disruption.consolidateAfterMs ?? undefined;
}
