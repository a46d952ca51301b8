/**
 * Late registrations. A node that joins while its claim is still Pending (the launch not yet
 * recorded: a crash or a slow write between CreateFleet and the state update) has its registration
 * event dropped by the lifecycle function, which only moves starting claims on. Nothing else would
 * register that claim before its registration timeout, so for up to 15 minutes its node runs pods
 * that emptiness, drift, expiry and interruptions do not see as a node. Each sweep reconciles every
 * Launched claim whose node is in the cluster, as the lifecycle function would have. Idempotent:
 * the reconcile moves a claim only from the state it read.
 */
import { reconcileNode } from '../lifecycle/reconcile-node.js';
import type { Node } from '../model/kube-objects.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { SweepDeps } from './sweep-deps.js';

/** Reconciles the Launched `claims` whose node is in `nodeOf` (by instance id); returns those moved on. */
export async function registerLateNodes(
  deps: SweepDeps,
  claims: readonly NodeClaim[],
  nodeOf: ReadonlyMap<string, Node>,
): Promise<string[]> {
  const moved: string[] = [];
  for (const claim of claims) {
    const instanceId = claim.instance?.instanceId;
    const nodeName = instanceId ? nodeOf.get(instanceId)?.metadata?.name : undefined;
    if (claim.state !== 'Launched' || !nodeName) continue;
    const stored = await reconcileNode(deps, claim, nodeName);
    if (!stored || stored.state === 'Launched') continue;
    moved.push(claim.id);
    deps.log.info('registered a nodeclaim whose node joined before its launch was recorded', {
      nodeclaim: claim.id,
      node: nodeName,
      state: stored.state,
    });
  }
  return moved;
}
