/**
 * Claims written by a run that had lost the provisioning lease. Only the lease holder writes
 * claims, and the next holder plans around the claims it lists, so two live claims share a pod
 * only when one of them landed after the next holder had listed: its writer's lease had run out,
 * and a run past its lease starts no launch (see LaunchFence). That claim — still Pending, written
 * under the older lease or sharing a pod with a claim that launched — is superseded: it is
 * cancelled, never resumed, and its other pods are planned again.
 */
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { IN_FLIGHT_STATES } from './in-flight.js';

/** The claims, split into the ones to plan around and the superseded ones. */
export interface SupersededSplit {
  readonly live: NodeClaim[];
  readonly superseded: NodeClaim[];
}

const inFlight = (c: NodeClaim): boolean => (IN_FLIGHT_STATES as readonly string[]).includes(c.state);

/** Whether `claim` gives way to `other`, a claim that holds one of its pods. */
function givesWay(claim: NodeClaim, other: NodeClaim): boolean {
  if (claim.state !== 'Pending') return false;
  return other.state !== 'Pending' || (other.leaseToken ?? 0) > (claim.leaseToken ?? 0);
}

/** Splits `claims` (see the module comment); claims out of flight are left in `live`. */
export function splitSuperseded(claims: readonly NodeClaim[]): SupersededSplit {
  const holders = new Map<string, NodeClaim[]>();
  for (const claim of claims.filter(inFlight)) {
    for (const pod of claim.pods) {
      const list = holders.get(pod.uid);
      if (list) list.push(claim);
      else holders.set(pod.uid, [claim]);
    }
  }
  const superseded = new Set<NodeClaim>();
  for (const list of holders.values()) {
    if (list.length < 2) continue;
    for (const claim of list) if (list.some((other) => givesWay(claim, other))) superseded.add(claim);
  }
  return {
    live: claims.filter((c) => !superseded.has(c)),
    superseded: claims.filter((c) => superseded.has(c)),
  };
}
