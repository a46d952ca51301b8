/**
 * Counts reserved capacity across a run's claims: a reservation with N instances left is offered
 * to at most N claims — minus the Pending claims of earlier runs that will launch into it (EC2's
 * count already holds the ones launched). A claim whose reservations are used up keeps only its
 * spot / on-demand options, so it launches there instead of failing on ReservationCapacityExceeded.
 */
import type { CapacityReservation } from '../model/capacity-reservation.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { PlannedNodeClaim } from '../scheduling/types.js';

/** The planned claims with their reserved options limited to the instances the reservations have left. */
export function limitReservedOptions(
  planned: readonly PlannedNodeClaim[],
  reservations: readonly CapacityReservation[],
  claims: readonly NodeClaim[],
): PlannedNodeClaim[] {
  const left = new Map(reservations.map((r) => [r.id, r.availableInstanceCount]));
  for (const c of claims) {
    const id = c.state === 'Pending' ? c.options[0]?.reservationId : undefined;
    if (id !== undefined && left.has(id)) left.set(id, (left.get(id) ?? 0) - 1);
  }
  return planned.map((p) => {
    const reserved = p.instanceTypeOptions.filter((o) => o.capacityType === 'reserved');
    if (reserved.length === 0) return p;
    const open = reserved.filter((o) => (left.get(o.reservationId ?? '') ?? 0) > 0);
    const first = open[0]?.reservationId;
    if (first !== undefined) left.set(first, (left.get(first) ?? 0) - 1);
    if (open.length === reserved.length) return p;
    const others = p.instanceTypeOptions.filter((o) => o.capacityType !== 'reserved');
    return { ...p, instanceTypeOptions: [...open, ...others] };
  });
}
