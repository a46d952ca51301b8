/**
 * An instance of this table whose claim was retired (a launch that completed after its claim gave
 * up on it, a second instance of one claim) but whose node runs pods is not terminated under them:
 * it gets a claim of its own (rebuilt as adopt-instance.ts does, under an id derived from the
 * instance, since the retired one stays Gone) and that claim starts the drain every disruption
 * uses — the disrupted taint, evictions through the Eviction API within the PodDisruptionBudgets,
 * the NodePool's terminationGracePeriod as the deadline — and the instance is terminated when the
 * drain ends. Forceful: the node has no claim to go back to, so the drain is never cancelled.
 */

import { beginDrain } from '../disruption/begin-drain.js';
import { reconcileNode } from '../lifecycle/reconcile-node.js';
import type { Node } from '../model/kube-objects.js';
import { nodeClaimId } from '../nodeclaim/create.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { CloudInstance } from '../ports/cloud-provider.js';
import { rebuildClaimFor } from './adopt-instance.js';
import type { SweepDeps } from './sweep-deps.js';

/** The id of the claim that drains `instance` (deterministic: concurrent sweeps write it once). */
export function orphanClaimId(instance: CloudInstance): string {
  return nodeClaimId(instance.nodePool ?? 'orphan', [instance.instanceId], 'orphan');
}

/** Starts (or, redelivered, continues) the drain of `instance` on `node`; returns its claim. */
export async function drainOrphan(
  deps: SweepDeps,
  instance: CloudInstance,
  node: Node,
): Promise<NodeClaim | undefined> {
  const id = orphanClaimId(instance);
  const now = deps.clock.now();
  const { claim, pool } = await rebuildClaimFor(deps, id, instance, node);
  const created = await deps.store.createNodeClaim(claim);
  if (created) await reconcileNode(deps, claim, node.metadata.name);
  const grace = pool?.terminationGracePeriodMs;
  const message = `instance ${instance.instanceId} outlived its nodeclaim ${instance.nodeClaimId ?? '(none)'} and its node runs pods`;
  return beginDrain(deps, id, {
    cause: 'orphaned',
    message,
    forceful: true,
    ...(grace === undefined ? {} : { forceAt: now + grace }),
  });
}
