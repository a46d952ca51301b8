/**
 * The simulated market of a region: the bundled us-west-2 catalog moved to the region's zones
 * `<region>a/b/c`, with the region's price level and without the families the simulated region
 * does not offer. This is simulated data meant to differ the way regions differ (types missing,
 * higher prices), not AWS's price list; a scenario that needs exact data gives its own `catalog`.
 */
import type { Catalog, InstanceType, Offering } from '../../core/model/instance-type.js';

/** How a simulated region differs from the bundled us-west-2 catalog. */
export interface RegionMarket {
  /** Multiplies on-demand prices. */
  readonly onDemandFactor: number;
  /** Multiplies spot prices. */
  readonly spotFactor: number;
  /** Instance families the region does not offer. */
  readonly missingFamilies: readonly string[];
  /** Families offered in the first two zones only. */
  readonly twoZoneFamilies: readonly string[];
}

/** The simulated regions with a market of their own; other regions get {@link defaultMarket}. */
export const REGION_MARKETS: Readonly<Record<string, RegionMarket>> = {
  'us-west-2': { onDemandFactor: 1, spotFactor: 1, missingFamilies: [], twoZoneFamilies: [] },
  'eu-west-1': {
    onDemandFactor: 1.115,
    spotFactor: 1.08,
    missingFamilies: ['c6a', 'x1e', 'g5'],
    twoZoneFamilies: ['p3', 'c7i'],
  },
  'ap-southeast-2': {
    onDemandFactor: 1.25,
    spotFactor: 1.3,
    missingFamilies: ['c6a', 'm6a', 'c7g', 'm7g', 'r7g', 'p3', 'x1e'],
    twoZoneFamilies: ['g5', 'c7i', 'm7i'],
  },
};

/** A region not in {@link REGION_MARKETS}: prices 0-30 % above us-west-2 (stable per region name), every family. */
export function defaultMarket(region: string): RegionMarket {
  let hash = 0;
  for (const ch of region) hash = (Math.imul(hash, 31) + ch.charCodeAt(0)) >>> 0;
  const factor = 1 + (hash % 31) / 100;
  return { onDemandFactor: factor, spotFactor: factor, missingFamilies: [], twoZoneFamilies: [] };
}

const ZONE_LETTERS = ['a', 'b', 'c'];

/** The simulated catalog of `region` (the bundled catalog itself for its own region). */
export function regionalCatalog(base: Catalog, region: string): Catalog {
  if (region === base.region) return base;
  const market = REGION_MARKETS[region] ?? defaultMarket(region);
  const instanceTypes: InstanceType[] = [];
  for (const type of base.instanceTypes) {
    const family = type.name.split('.')[0];
    if (market.missingFamilies.includes(family)) continue;
    const letters = market.twoZoneFamilies.includes(family) ? ZONE_LETTERS.slice(0, 2) : ZONE_LETTERS;
    const offerings: Offering[] = [];
    for (const offering of type.offerings) {
      const letter = offering.zone.slice(base.region.length);
      if (!letters.includes(letter)) continue;
      const factor = offering.capacityType === 'spot' ? market.spotFactor : market.onDemandFactor;
      offerings.push({ ...offering, zone: `${region}${letter}`, price: round(offering.price * factor) });
    }
    if (offerings.length > 0) instanceTypes.push({ ...type, offerings });
  }
  return {
    region,
    source: `simulated market of ${region}: the bundled ${base.region} catalog with ${region}'s simulated price level and families (not AWS data)`,
    instanceTypes,
  };
}

function round(price: number): number {
  return Math.round(price * 10_000) / 10_000;
}
