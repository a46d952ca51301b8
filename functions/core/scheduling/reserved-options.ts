/**
 * Reserved options of a claim (Karpenter v1.3+): the `reserved` offerings of the claim's instance
 * types (every type that fits its pods, not only the cheapest ones kept for CreateFleet) in the
 * zones its requirements allow, when they allow capacity type `reserved`. Priced near zero, they
 * come before the spot / on-demand options, so a claim that fits a reservation launches into it
 * and falls back to the other options when the reservation is full.
 */
import type { Claim } from './claim.js';
import type { PoolContext } from './pool-context.js';
import { valueAllowed } from './requirement-set.js';
import type { InstanceTypeOption, PlannedNodeClaim } from './types.js';
import { CAPACITY_TYPE, ZONE } from './well-known.js';

/** Whether any of a pool's instance types has an offering in a capacity reservation, per pool. */
const offersReservations = new WeakMap<PoolContext, boolean>();

function hasReservations(pool: PoolContext): boolean {
  let known = offersReservations.get(pool);
  if (known === undefined) {
    known = pool.types.some((t) =>
      t.it.offerings.some((o) => o.capacityType === 'reserved' && o.reservationId !== undefined),
    );
    offersReservations.set(pool, known);
  }
  return known;
}

/** The claim's available reserved options, cheapest first (ties by reservation id). */
export function reservedOptions(claim: Claim): InstanceTypeOption[] {
  if (!hasReservations(claim.pool)) return [];
  const ct = claim.reqs.get(CAPACITY_TYPE);
  if (ct && !valueAllowed(ct, 'reserved')) return [];
  const zone = claim.reqs.get(ZONE);
  const out: InstanceTypeOption[] = [];
  for (const i of claim.options) {
    const t = claim.pool.types[i];
    for (const o of t.it.offerings) {
      if (o.capacityType !== 'reserved' || !o.available || o.reservationId === undefined) continue;
      if (zone && !valueAllowed(zone, o.zone)) continue;
      out.push({
        instanceType: t.it.name,
        zone: o.zone,
        ...(o.zoneId === undefined ? {} : { zoneId: o.zoneId }),
        capacityType: 'reserved',
        price: o.price,
        reservationId: o.reservationId,
        reservationType: o.reservationType ?? 'default',
        ...(o.reservationEndTime === undefined ? {} : { reservationEndTime: o.reservationEndTime }),
      });
    }
  }
  return out.sort(
    (a, b) => a.price - b.price || ((a.reservationId ?? '') < (b.reservationId ?? '') ? -1 : 1),
  );
}

/** The ids of the capacity reservations a pool's types offer, sorted. */
export function poolReservationIds(pool: PoolContext): string[] {
  const ids = new Set<string>();
  for (const t of pool.types) for (const o of t.offerings) if (o.reservationId) ids.add(o.reservationId);
  return [...ids].sort();
}

/** Why a reservation-only pool opens no more claims: its reservations have no instances left. */
export function reservationsFullReason(pool: PoolContext): string {
  return `nodepool ${pool.name}: allows only capacity type reserved and its capacity reservations (${poolReservationIds(pool).join(', ')}) have no instances left`;
}

/**
 * A claim's reserved options cut to the reservations with instances left in `left` (reservation id
 * to count, filled from the pool's offerings when first seen), one instance of the first taken, as
 * the launches take them in plan order. A claim whose reservations are used up keeps its spot /
 * on-demand options; in a reservation-only pool it has none, and the answer is undefined.
 */
export function takeReservation(
  planned: PlannedNodeClaim,
  pool: PoolContext,
  left: Map<string, number>,
): PlannedNodeClaim | undefined {
  const reserved = planned.instanceTypeOptions.filter((o) => o.reservationId !== undefined);
  if (reserved.length === 0) return pool.reservedOnly ? undefined : planned;
  for (const t of pool.types)
    for (const o of t.it.offerings)
      if (o.reservationId !== undefined && !left.has(o.reservationId))
        left.set(o.reservationId, o.reservationInstances ?? Number.POSITIVE_INFINITY);
  const open = reserved.filter((o) => (left.get(o.reservationId!) ?? 0) > 0);
  if (open.length === 0 && pool.reservedOnly) return undefined;
  const first = open[0]?.reservationId;
  if (first !== undefined) left.set(first, (left.get(first) ?? 0) - 1);
  if (open.length === reserved.length) return planned;
  const others = planned.instanceTypeOptions.filter((o) => o.reservationId === undefined);
  return { ...planned, instanceTypeOptions: [...open, ...others] };
}
