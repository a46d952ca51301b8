/**
 * Claims stamped under another hash version (older joiner releases, or claims written before
 * hashes had versions) are re-stamped with the hashes of their NodePool and NodeClass as they are
 * now, as Karpenter's hash controller does: a change of how hashes are computed never drifts every
 * node at once, and drift is detected from the next round on.
 */
import type { NodeClass } from '../model/node-class.js';
import type { NodePool } from '../model/node-pool.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import {
  NODECLASS_HASH_VERSION,
  NODEPOOL_HASH_VERSION,
  nodeClassDriftHash,
  nodePoolDriftHash,
} from './drift-hashes.js';

/** Whether the claim's hashes were stamped under the current hash versions. */
export function isCurrent(claim: NodeClaim): boolean {
  return (
    claim.nodePoolHashVersion === NODEPOOL_HASH_VERSION &&
    claim.nodeClassHashVersion === NODECLASS_HASH_VERSION
  );
}

/** The claim re-stamped, or undefined when its hash versions are current. */
export function restamped(
  claim: NodeClaim,
  pool: NodePool | undefined,
  nodeClass: NodeClass | undefined,
): NodeClaim | undefined {
  let next = claim;
  if (pool && claim.nodePoolHashVersion !== NODEPOOL_HASH_VERSION)
    next = { ...next, nodePoolHash: nodePoolDriftHash(pool), nodePoolHashVersion: NODEPOOL_HASH_VERSION };
  if (nodeClass && claim.nodeClassHashVersion !== NODECLASS_HASH_VERSION)
    next = {
      ...next,
      nodeClassHash: nodeClassDriftHash(nodeClass),
      nodeClassHashVersion: NODECLASS_HASH_VERSION,
    };
  return next === claim ? undefined : next;
}
