/**
 * Reserved options of a claim (Karpenter v1.3+): the `reserved` offerings of the claim's instance
 * types (every type that fits its pods, not only the cheapest ones kept for CreateFleet) in the
 * zones its requirements allow, when they allow capacity type `reserved`. Priced near zero, they
 * come before the spot / on-demand options, so a claim that fits a reservation launches into it
 * and falls back to the other options when the reservation is full.
 */
import type { Claim } from './claim.js';
import { valueAllowed } from './requirement-set.js';
import type { InstanceTypeOption } from './types.js';
import { CAPACITY_TYPE, ZONE } from './well-known.js';

/** The claim's available reserved options, cheapest first (ties by reservation id). */
export function reservedOptions(claim: Claim): InstanceTypeOption[] {
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
