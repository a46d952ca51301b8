/**
 * Reserved offerings (Karpenter v1.3+): one per capacity reservation a NodeClass selects, on the
 * reservation's instance type and zone, capacity type `reserved`, priced as Karpenter prices them.
 */
import { type CapacityReservation, reservationState, reservedPrice } from '../model/capacity-reservation.js';
import type { CapacityType, ResolvedInstanceType, ResolvedOffering } from '../model/instance-type.js';

/** Options of {@link withReservedOfferings}. */
export interface ReservedOfferingOptions {
  /** Epoch ms now: an expiring Capacity Block offers nothing. */
  readonly now: number;
  /** True while an offering is marked unavailable (e.g. after ReservationCapacityExceeded). */
  readonly isUnavailable?: (type: string, zone: string, capacityType: CapacityType) => boolean;
}

/**
 * The instance types with a `reserved` offering added for each reservation of their type in a zone
 * they are offered in (the NodeClass's launch zones). It is available while the reservation has
 * instances left, is not an expiring Capacity Block and is not marked unavailable.
 */
export function withReservedOfferings(
  types: readonly ResolvedInstanceType[],
  reservations: readonly CapacityReservation[],
  options: ReservedOfferingOptions,
): ResolvedInstanceType[] {
  if (reservations.length === 0) return [...types];
  const byType = new Map<string, CapacityReservation[]>();
  for (const r of reservations) byType.set(r.instanceType, [...(byType.get(r.instanceType) ?? []), r]);
  return types.map((t) => {
    const mine = byType.get(t.name);
    if (!mine) return t;
    const zones = new Set(t.offerings.map((o) => o.zone));
    const added: ResolvedOffering[] = [];
    for (const r of [...mine].sort((a, b) => (a.id < b.id ? -1 : 1))) {
      if (!zones.has(r.zone)) continue;
      const onDemand = t.offerings.find((o) => o.capacityType === 'on-demand' && o.zone === r.zone);
      const price = reservedPrice(
        onDemand?.price ?? t.offerings.find((o) => o.capacityType === 'on-demand')?.price,
      );
      const zoneId = t.offerings.find((o) => o.zone === r.zone)?.zoneId;
      added.push({
        zone: r.zone,
        ...(zoneId === undefined ? {} : { zoneId }),
        capacityType: 'reserved',
        price,
        reservationId: r.id,
        reservationType: r.reservationType,
        ...(r.endTime === undefined ? {} : { reservationEndTime: r.endTime }),
        reservationInstances: Math.max(0, r.availableInstanceCount),
        available:
          r.availableInstanceCount > 0 &&
          reservationState(r, options.now) === 'active' &&
          !(options.isUnavailable?.(t.name, r.zone, 'reserved') ?? false),
      });
    }
    return added.length === 0 ? t : { ...t, offerings: [...t.offerings, ...added] };
  });
}
