/**
 * Reservation-only NodePools (Karpenter v1.3+): a NodePool whose `karpenter.sh/capacity-type`
 * requirement allows only `reserved` launches into its NodeClass's capacity reservations and
 * nowhere else. The scheduler plans such a pool onto the reservations' instances left (see
 * scheduling/pool-context.ts and reserved-options.ts); when there are none, its pods stay pending
 * with a reason that says why: the NodeClass selects no active reservation, the reservations have
 * no instances left (as in Karpenter), or none is of an instance type the pool allows. The
 * scheduler's own reason ("no instance type with an available offering") names none of these.
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

/**
 * Why a reservation-only pool has no instance type to offer: no reservation, reservations full, or
 * none of a type (or zone) its requirements allow.
 */
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
  return `nodepool ${name}: allows only capacity type reserved and none of its capacity reservations (${list}) is of an instance type and zone its requirements allow`;
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
