/**
 * A consolidation candidate's price under NodeOverlays: when an overlay prices the node's offering
 * (its pool, instance type, zone and capacity type), the node costs what the overlay says, as
 * Karpenter prices a node from its (overlaid) offering. So a Savings Plan discount on the type a
 * node already runs keeps it, and a discount on another type makes it a cheaper replacement.
 * Offerings no overlay prices keep the price the node was launched at.
 */
import type { SchedulingPool } from '../../scheduling/types.js';
import type { Candidate } from './candidates.js';

/** `candidates` with the overlaid price of their offering where an overlay sets one. */
export function withOverlaidPrices(
  candidates: readonly Candidate[],
  pools: readonly SchedulingPool[],
): Candidate[] {
  const byPool = new Map(pools.map((p) => [p.pool.name, p]));
  return candidates.map((c) => {
    const instance = c.claim.instance;
    if (!instance) return c;
    const type = byPool.get(c.claim.nodePool)?.instanceTypes.find((t) => t.name === instance.instanceType);
    const offering = type?.offerings.find(
      (o) => o.zone === instance.zone && o.capacityType === instance.capacityType,
    );
    return offering?.priceOverlaid ? { ...c, price: offering.price, priceOverlaid: true } : c;
  });
}
