/** Turns the scheduler's planned nodeclaims into Pending nodeclaims with deterministic ids. */
import {
  NODECLASS_HASH_VERSION,
  NODEPOOL_HASH_VERSION,
  nodeClassDriftHash,
  nodePoolDriftHash,
} from '../disruption/drift-hashes.js';
import type { Pod } from '../model/kube-objects.js';
import { type NewNodeClaim, newNodeClaim, nodeClaimId } from '../nodeclaim/create.js';
import type { NodeClaim, PodRef } from '../nodeclaim/nodeclaim.js';
import type { NodeClaimTimeouts } from '../nodeclaim/state-machine.js';
import { podId } from '../scheduling/pod-class.js';
import { podRequests } from '../scheduling/pod-requests.js';
import type { PlannedNodeClaim, SchedulingPool } from '../scheduling/types.js';

/** The ref of a pod (namespace, name, uid) with its requests (left out when they do not parse). */
export function podRef(pod: Pod): PodRef {
  const ref = {
    namespace: pod.metadata.namespace ?? 'default',
    name: pod.metadata.name,
    uid: pod.metadata.uid ?? podId(pod),
  };
  try {
    return { ...ref, requests: podRequests(pod) };
  } catch {
    return ref;
  }
}

/**
 * The Pending nodeclaim for a planned one. Its id comes from the pool and the pod uids (and a salt
 * for a fresh attempt after a failed claim), so a redelivered batch computes the same ids and the
 * conditional create lets only one launch happen.
 */
export function claimFromPlan(
  planned: PlannedNodeClaim,
  pools: readonly SchedulingPool[],
  podsById: ReadonlyMap<string, Pod>,
  now: number,
  timeouts: NodeClaimTimeouts,
  salt = '',
): NodeClaim {
  const sp = pools.find((p) => p.pool.name === planned.nodePool);
  if (!sp?.nodeClass)
    throw new Error(`planned nodeclaim ${planned.name}: nodepool ${planned.nodePool} has no NodeClass`);
  const pods = planned.pods.map((id) => {
    const pod = podsById.get(id);
    if (!pod) throw new Error(`planned nodeclaim ${planned.name}: pod ${id} is not among the pending pods`);
    return podRef(pod);
  });
  const input: NewNodeClaim = {
    id: nodeClaimId(
      planned.nodePool,
      pods.map((p) => p.uid),
      salt,
    ),
    ...claimFields(sp.pool, sp.nodeClass, planned, now),
    pods,
  };
  return newNodeClaim(input, now, timeouts);
}

/**
 * What a new nodeclaim takes from its pool, NodeClass and plan (all but its id, pods and static
 * mark): names, drift hashes, requirements, labels, annotations, taints, instance-type options,
 * requests and the expiry its NodePool gives it.
 */
export function claimFields(
  pool: SchedulingPool['pool'],
  nodeClass: NonNullable<SchedulingPool['nodeClass']>,
  planned: PlannedNodeClaim,
  now: number,
): Omit<NewNodeClaim, 'id' | 'pods' | 'static'> {
  const expireAfter = pool.expireAfterMs;
  return {
    nodePool: pool.name,
    nodeClass: nodeClass.name,
    nodePoolHash: nodePoolDriftHash(pool),
    nodePoolHashVersion: NODEPOOL_HASH_VERSION,
    nodeClassHash: nodeClassDriftHash(nodeClass),
    nodeClassHashVersion: NODECLASS_HASH_VERSION,
    requirements: planned.requirements,
    labels: planned.labels,
    ...(Object.keys(pool.annotations).length > 0 ? { annotations: { ...pool.annotations } } : {}),
    taints: planned.taints,
    startupTaints: planned.startupTaints,
    options: planned.instanceTypeOptions,
    requests: planned.requests,
    ...(expireAfter === null ? {} : { expiresAt: now + expireAfter }),
    expireAfterMs: expireAfter,
    ...(pool.terminationGracePeriodMs === undefined
      ? {}
      : { terminationGracePeriodMs: pool.terminationGracePeriodMs }),
  };
}
