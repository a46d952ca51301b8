/**
 * The order in which an instant fleet tries its launch template overrides, per allocation
 * strategy: `lowest-price` by price; `prioritized` / `capacity-optimized-prioritized` by Priority;
 * `capacity-optimized` by the deepest pool; `price-capacity-optimized` by price among the pools
 * with the most capacity (shallow pools last). Ties keep the request's order.
 */
import type { CapacityTypeName, Ec2State } from './ec2-state.js';

export interface FleetCandidate {
  readonly index: number;
  readonly instanceType?: string;
  readonly zone?: string;
  readonly priority?: number;
}

const SPOT_STRATEGIES = [
  'lowest-price',
  'diversified',
  'capacity-optimized',
  'capacity-optimized-prioritized',
  'price-capacity-optimized',
];
const ON_DEMAND_STRATEGIES = ['lowest-price', 'prioritized'];

/** Whether `strategy` is valid for the capacity type. */
export function isKnownStrategy(capacityType: CapacityTypeName, strategy: string): boolean {
  return (capacityType === 'spot' ? SPOT_STRATEGIES : ON_DEMAND_STRATEGIES).includes(strategy);
}

/** Candidates in the order the strategy tries them. */
export function orderCandidates<T extends FleetCandidate>(
  state: Ec2State,
  candidates: readonly T[],
  capacityType: CapacityTypeName,
  strategy: string,
): T[] {
  const price = (c: T) => priceOf(state, c, capacityType);
  const capacity = (c: T) =>
    c.instanceType && c.zone
      ? state.poolCapacity(c.instanceType, c.zone, capacityType)
      : Number.POSITIVE_INFINITY;
  const priority = (c: T) => c.priority ?? Number.POSITIVE_INFINITY;
  const keys: ((c: T) => number)[] =
    strategy === 'prioritized' || strategy === 'capacity-optimized-prioritized'
      ? [priority, price]
      : strategy === 'capacity-optimized'
        ? [(c) => -capacity(c), price]
        : strategy === 'price-capacity-optimized'
          ? [(c) => depthBucket(capacity(c)), price]
          : [price];
  return [...candidates].sort((a, b) => {
    for (const key of keys) {
      const diff = key(a) - key(b);
      if (diff !== 0 && !Number.isNaN(diff)) return diff;
    }
    return a.index - b.index;
  });
}

function priceOf(state: Ec2State, c: FleetCandidate, capacityType: CapacityTypeName): number {
  const type = c.instanceType ? state.instanceTypes.get(c.instanceType) : undefined;
  const offering = type?.offerings.find((o) => o.zone === c.zone && o.capacityType === capacityType);
  return offering?.price ?? Number.POSITIVE_INFINITY;
}

/** Deep pools (unlimited or 20+) first, then 5-19, then shallow ones. */
function depthBucket(remaining: number): number {
  if (remaining >= 20) return 0;
  return remaining >= 5 ? 1 : 2;
}
