/**
 * The lifecycle function's core: one node/pod hint from the webhook in, the nodeclaim and its
 * node reconciled against the API server. Hints about nodes joiner does not own are ignored.
 */
import type { DETAIL_TYPES } from '../../shared/event-rules.js';
import type { BoundPodDetail, NodeDeletedDetail, NodeDetail } from '../events/joiner-events.js';
import type { Node } from '../model/kube-objects.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { scheduleDeletion } from './deletion-hint.js';
import { recordEmptiness } from './emptiness.js';
import type { LifecycleDeps } from './lifecycle-deps.js';
import { DISRUPTED_TAINT, instanceIdOf, taintsOf } from './node-labels.js';
import { reconcileNode } from './reconcile-node.js';

/** One lifecycle hint, as the lifecycle queue delivers it. */
export type LifecycleEvent =
  | {
      readonly detailType: typeof DETAIL_TYPES.nodeRegistered | typeof DETAIL_TYPES.nodeReady;
      readonly detail: NodeDetail;
    }
  | {
      readonly detailType: typeof DETAIL_TYPES.podReady | typeof DETAIL_TYPES.podGone;
      readonly detail: BoundPodDetail;
    }
  | { readonly detailType: typeof DETAIL_TYPES.nodeDeleted; readonly detail: NodeDeletedDetail };

/** What handling one event did (for logs and tests). */
export type LifecycleOutcome = 'ignored' | 'reconciled' | 'emptiness-checked' | 'deletion-scheduled';

/** Whether `node` carries joiner's (and Karpenter's) disrupted taint or is being deleted. */
function beingDisrupted(node: Node): boolean {
  if (node.metadata.deletionTimestamp) return true;
  return taintsOf(node).some((t) => t.key === DISRUPTED_TAINT.key && t.effect === DISRUPTED_TAINT.effect);
}

/** Finds the claim of a node from its providerID (the instance id GSI). */
export async function claimOfNode(deps: LifecycleDeps, node: Node): Promise<NodeClaim | undefined> {
  const instanceId = instanceIdOf(node.spec?.providerID);
  if (!instanceId) return undefined;
  return deps.store.findNodeClaimByInstanceId(instanceId);
}

/**
 * Handles NodeRegistered / NodeReady / PodReady (reconcile the node: register, sync labels and
 * taints, clear the Multus taint, initialize), PodGone (emptiness hint) and NodeDeleted (the
 * termination starts, see deletion-hint.ts). Idempotent: duplicate and late events find nothing
 * left to do.
 */
export async function handleLifecycleEvent(
  deps: LifecycleDeps,
  event: LifecycleEvent,
): Promise<LifecycleOutcome> {
  if (event.detailType === 'NodeDeleted') return scheduleDeletion(deps, event.detail);
  const nodeName = event.detail.nodeName;
  const node = await deps.cluster.getNode(nodeName);
  if (!node) {
    deps.log.debug('node not found, event ignored', { node: nodeName, event: event.detailType });
    return 'ignored';
  }
  if (event.detailType === 'PodGone' && beingDisrupted(node)) {
    // A node joiner drains (or that is being deleted) is not made empty by a pod leaving it: its
    // claim is not Initialized, so there is no emptiness to record. With a whole pool draining,
    // every evicted pod's hint would otherwise look its claim up.
    deps.log.debug('pod left a node being disrupted, event ignored', { node: nodeName });
    return 'ignored';
  }
  const claim = await claimOfNode(deps, node);
  if (!claim) {
    deps.log.debug('node is not owned by joiner, event ignored', { node: nodeName, event: event.detailType });
    return 'ignored';
  }
  if (event.detailType === 'PodGone') {
    await recordEmptiness(deps, claim, nodeName);
    return 'emptiness-checked';
  }
  await reconcileNode(deps, claim, nodeName);
  return 'reconciled';
}
