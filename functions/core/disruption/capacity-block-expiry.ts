/**
 * Capacity Blocks ending (Karpenter v1.6+ `capacityreservation.expiration`): EC2 begins terminating
 * a block's instances 30 minutes before its end, so Karpenter deletes the NodeClaims launched into
 * it 40 minutes before the end (when EC2 would send its warning) and its termination flow drains
 * them: pods leave gracefully and are planned onto other capacity before EC2 reclaims the instance.
 */
import { CAPACITY_BLOCK_DRAIN_BEFORE_END_MS, reservationState } from '../model/capacity-reservation.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';

/** Why the claim's node must go now because its Capacity Block is ending; undefined otherwise. */
export function capacityBlockExpiry(claim: NodeClaim, now: number): string | undefined {
  const instance = claim.instance;
  if (instance?.reservationType !== 'capacity-block' || instance.reservationEndTime === undefined)
    return undefined;
  const block = { reservationType: instance.reservationType, endTime: instance.reservationEndTime };
  if (reservationState(block, now) !== 'expiring') return undefined;
  const end = new Date(instance.reservationEndTime).toISOString();
  const minutes = CAPACITY_BLOCK_DRAIN_BEFORE_END_MS / 60_000;
  return `capacity block ${instance.reservationId ?? ''} ends at ${end}: NodeClaim deleted ${minutes} minutes before its end`;
}
