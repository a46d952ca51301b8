/**
 * A capacity reservation a NodeClass selects (Karpenter v1.3+ `capacityReservationSelectorTerms`,
 * v1.6+ Capacity Blocks), as joiner plans and launches with it.
 */

/** Label of a node launched into a reservation: the reservation's id. */
export const CAPACITY_RESERVATION_ID = 'karpenter.k8s.aws/capacity-reservation-id';
/** Label of a node launched into a reservation: `default` (ODCR) or `capacity-block`. */
export const CAPACITY_RESERVATION_TYPE = 'karpenter.k8s.aws/capacity-reservation-type';

/** `default` for an On-Demand Capacity Reservation, `capacity-block` for a Capacity Block for ML. */
export type CapacityReservationType = 'default' | 'capacity-block';

/**
 * Karpenter starts draining the nodes of a Capacity Block this long before the block's end: 10
 * minutes before EC2 starts reclaiming its instances (30 minutes before the end).
 */
export const CAPACITY_BLOCK_DRAIN_BEFORE_END_MS = 40 * 60_000;

/** One reservation (the fields of Karpenter's EC2NodeClass `status.capacityReservations`). */
export interface CapacityReservation {
  readonly id: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly ownerId: string;
  readonly instanceMatchCriteria: 'open' | 'targeted';
  readonly reservationType: CapacityReservationType;
  /** Epoch milliseconds; absent when the reservation has no end date. */
  readonly endTime?: number;
  /** Instances EC2 says it can still take (when it was described). */
  readonly availableInstanceCount: number;
}

/**
 * `expiring` once a Capacity Block is within {@link CAPACITY_BLOCK_DRAIN_BEFORE_END_MS} of its end
 * (nothing is launched into it any more and its nodes are drained), `active` otherwise.
 */
export function reservationState(r: Pick<CapacityReservation, 'reservationType' | 'endTime'>, now: number) {
  return r.reservationType === 'capacity-block' &&
    r.endTime !== undefined &&
    now >= r.endTime - CAPACITY_BLOCK_DRAIN_BEFORE_END_MS
    ? 'expiring'
    : 'active';
}

/**
 * The hourly price Karpenter gives a reserved offering: the type's on-demand price divided by ten
 * million, so reserved capacity (already paid for) is always the cheapest choice while
 * consolidation still keeps the relative order of instance types.
 */
export function reservedPrice(onDemandPrice: number | undefined): number {
  return onDemandPrice === undefined ? 0 : onDemandPrice / 10_000_000;
}
