/**
 * What an EC2NodeClass's status says of its capacity reservations, as Karpenter (v1.3+) writes
 * it: `status.capacityReservations` (each reservation its `capacityReservationSelectorTerms`
 * select now, sorted by id, with `state: expiring` once a Capacity Block is within 40 minutes of
 * its end) and the condition `CapacityReservationsReady` — True once they were read (also when
 * nothing is selected), Unknown when DescribeCapacityReservations failed (Karpenter's reconcile
 * fails then and leaves the condition as it was).
 */
import { type CapacityReservation, reservationState } from '../model/capacity-reservation.js';
import { type Condition, condition, rfc3339 } from './conditions.js';

/** The condition's type. */
export const CAPACITY_RESERVATIONS_READY = 'CapacityReservationsReady';

/** One entry of `status.capacityReservations` (Karpenter's field names). */
export interface CapacityReservationStatus {
  readonly availabilityZone: string;
  readonly endTime?: string;
  readonly id: string;
  readonly instanceMatchCriteria: 'open' | 'targeted';
  readonly instanceType: string;
  readonly ownerID: string;
  readonly reservationType: 'default' | 'capacity-block';
  readonly interruptible: boolean;
  readonly state: 'active' | 'expiring';
}

/** The status fields for the reservations read (or the error reading them) at `now` (epoch ms). */
export function capacityReservationStatus(
  read: readonly CapacityReservation[] | Error,
  now: number,
): { readonly capacityReservations?: CapacityReservationStatus[]; readonly condition: Condition } {
  if (read instanceof Error)
    return {
      condition: condition(CAPACITY_RESERVATIONS_READY, 'Unknown', 'DescribeFailed', read.message, now),
    };
  const ready = condition(CAPACITY_RESERVATIONS_READY, 'True', CAPACITY_RESERVATIONS_READY, '', now);
  if (read.length === 0) return { condition: ready };
  const entries = [...read]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map(
      (r): CapacityReservationStatus => ({
        availabilityZone: r.zone,
        ...(r.endTime === undefined ? {} : { endTime: rfc3339(r.endTime) }),
        id: r.id,
        instanceMatchCriteria: r.instanceMatchCriteria,
        instanceType: r.instanceType,
        ownerID: r.ownerId,
        reservationType: r.reservationType,
        interruptible: false,
        state: reservationState(r, now),
      }),
    );
  return { capacityReservations: entries, condition: ready };
}
