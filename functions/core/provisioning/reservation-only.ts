/**
 * Reservation-only NodePools (Karpenter v1.3+): a NodePool whose `karpenter.sh/capacity-type`
 * requirement allows only `reserved` may launch into its NodeClass's capacity reservations and
 * nowhere else. joiner's scheduler plans reserved capacity as the preferred offering of a pool
 * that also allows on-demand or spot; it does not plan a reservation-only pool yet. Such a pool's
 * pods stay pending with a reason that says which of the two holds them: the reservations it
 * selects have no instances left (as in Karpenter), or joiner does not plan reservation-only pools.
 * The scheduler's own reason ("no instance type with an available offering") names neither.
 */
import type { NodePool } from '../model/node-pool.js';
import type { SchedulePlan, SchedulingPool } from '../scheduling/types.js';
import { CAPACITY_TYPE } from '../scheduling/well-known.js';

const CAPACITY_TYPES = ['spot', 'on-demand', 'reserved'] as const;

/** Whether the NodePool's requirements allow capacity type `reserved` and no other. */
export function isReservationOnly(pool: NodePool): boolean {
  const rules = pool.requirements.filter((r) => r.key === CAPACITY_TYPE);
  if (rules.length === 0) return false;
  let allowed = new Set<string>(CAPACITY_TYPES);
  for (const r of rules) {
    if (r.operator === 'In') allowed = new Set([...allowed].filter((t) => r.values.includes(t)));
    else if (r.operator === 'NotIn') allowed = new Set([...allowed].filter((t) => !r.values.includes(t)));
    else if (r.operator === 'DoesNotExist') allowed = new Set();
  }
  return allowed.size === 1 && allowed.has('reserved');
}

/** Why a reservation-only pool places no pod: its reservations are full (or none), or it is not planned. */
export function reservationOnlyReason(pool: SchedulingPool): string {
  const ids = new Set<string>();
  let available = false;
  for (const t of pool.instanceTypes)
    for (const o of t.offerings) {
      if (o.capacityType !== 'reserved' || !o.reservationId) continue;
      ids.add(o.reservationId);
      available ||= o.available;
    }
  const name = pool.pool.name;
  const list = [...ids].sort().join(', ');
  if (ids.size === 0)
    return `nodepool ${name}: allows only capacity type reserved and its NodeClass selects no active capacity reservation`;
  if (!available)
    return `nodepool ${name}: allows only capacity type reserved and its capacity reservations (${list}) have no instances left`;
  return `nodepool ${name}: allows only capacity type reserved, which joiner does not plan yet (its capacity reservations ${list} have instances left); allow on-demand or spot too and reserved capacity is still used first`;
}

/** The plan with the scheduler's "no available offering" reason of reservation-only pools explained. */
export function withReservationOnlyPools(plan: SchedulePlan, pools: readonly SchedulingPool[]): SchedulePlan {
  const reasons = new Map<string, string>();
  for (const p of pools)
    if (!p.problem && isReservationOnly(p.pool)) reasons.set(p.pool.name, reservationOnlyReason(p));
  if (reasons.size === 0 || plan.unschedulable.length === 0) return plan;
  const explain = (reason: string): string => {
    let out = reason;
    for (const [name, why] of reasons)
      out = out.replaceAll(
        `nodepool ${name}: no instance type with an available offering meets its requirements`,
        why,
      );
    return out;
  };
  return { ...plan, unschedulable: plan.unschedulable.map((u) => ({ ...u, reason: explain(u.reason) })) };
}
