/**
 * The live catalog snapshot: what the scheduled refresh writes and the planning functions read.
 * Two parts, refreshed on their own schedules: the instance types (facts, zones offered, on-demand
 * prices, zone ids; a few times a day) and the spot prices (every few minutes). Each part carries
 * the schema version, its region and when it was fetched; {@link catalogFromSnapshot} joins them
 * into the catalog the scheduler uses (docs/catalog.md).
 */
import type { Catalog, InstanceType, Offering } from '../../model/instance-type.js';
import type { InstanceTypeFacts } from './instance-type-info.js';
import type { SpotPriceTable } from './spot-prices.js';

/** Version of the snapshot format; a reader ignores parts of another version (and falls back). */
export const SNAPSHOT_VERSION = 1;

/** One availability zone: its name and its account-independent id. */
export interface SnapshotZone {
  readonly name: string;
  readonly id: string;
}

/** A snapshot instance type: its facts, the zones it is offered in and its on-demand price. */
export interface SnapshotInstanceType extends InstanceTypeFacts {
  /** Availability zones of the region offering the type (DescribeInstanceTypeOfferings). */
  readonly zones: readonly string[];
  /** Hourly USD on-demand price (Pricing API); absent: no on-demand offerings. */
  readonly onDemandPrice?: number;
}

/** The instance-types part of the snapshot. */
export interface TypesPart {
  readonly version: typeof SNAPSHOT_VERSION;
  readonly region: string;
  /** Epoch milliseconds of the fetch. */
  readonly fetchedAt: number;
  readonly zones: readonly SnapshotZone[];
  readonly types: readonly SnapshotInstanceType[];
}

/** The spot-prices part of the snapshot. */
export interface SpotPart {
  readonly version: typeof SNAPSHOT_VERSION;
  readonly region: string;
  readonly fetchedAt: number;
  /** Latest hourly USD price by instance type, then zone. */
  readonly prices: SpotPriceTable;
}

/**
 * A stored part that cannot be read (not binary, not gzip, not JSON): the refresh replaces it, the
 * planning functions keep the catalog they have.
 */
export class UnreadableSnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableSnapshotError';
  }
}

/** Both parts as stored (either may be missing: first deploy, or a refresh that never succeeded). */
export interface CatalogSnapshot {
  readonly types?: TypesPart;
  readonly spot?: SpotPart;
}

/** The sources of the types part. */
export interface TypesPartInput {
  readonly region: string;
  readonly fetchedAt: number;
  readonly zones: readonly SnapshotZone[];
  readonly types: readonly InstanceTypeFacts[];
  /** Zones per instance type (DescribeInstanceTypeOfferings, location type availability-zone). */
  readonly offered: ReadonlyMap<string, readonly string[]>;
  readonly onDemandPrices: ReadonlyMap<string, number>;
}

/**
 * The types part: every type offered in at least one availability zone of the region (zones
 * outside `zones`, e.g. Local Zones, are left out), with its on-demand price when it has one.
 */
export function typesPart(input: TypesPartInput): TypesPart {
  const zoneNames = new Set(input.zones.map((z) => z.name));
  const types: SnapshotInstanceType[] = [];
  for (const facts of input.types) {
    const zones = [...new Set(input.offered.get(facts.name) ?? [])].filter((z) => zoneNames.has(z)).sort();
    if (zones.length === 0) continue;
    const price = input.onDemandPrices.get(facts.name);
    types.push({ ...facts, zones, ...(price !== undefined ? { onDemandPrice: price } : {}) });
  }
  return {
    version: SNAPSHOT_VERSION,
    region: input.region,
    fetchedAt: input.fetchedAt,
    zones: [...input.zones].sort((a, b) => a.name.localeCompare(b.name)),
    types,
  };
}

/** The spot part. */
export function spotPart(region: string, fetchedAt: number, prices: SpotPriceTable): SpotPart {
  return { version: SNAPSHOT_VERSION, region, fetchedAt, prices };
}

/** Why a snapshot cannot be used, or undefined when it can. */
export function snapshotProblem(snapshot: CatalogSnapshot, region: string): string | undefined {
  const { types, spot } = snapshot;
  if (!types) return 'no instance-type snapshot yet (the refresh has not run)';
  if (types.version !== SNAPSHOT_VERSION)
    return `snapshot version ${types.version} is not ${SNAPSHOT_VERSION}`;
  if (types.region !== region) return `snapshot is of region ${types.region}, not ${region}`;
  if (spot && (spot.version !== SNAPSHOT_VERSION || spot.region !== region))
    return `spot price snapshot is of another version or region (${spot.region})`;
  if (!types.types.some((t) => t.zones.length > 0)) return 'snapshot has no offered instance type';
  return undefined;
}

/**
 * The catalog of a snapshot. An instance type gets, in each zone offering it: an on-demand
 * offering when EC2 sells it on-demand and the Pricing API has its price, and a spot offering when
 * EC2 sells it as spot and the zone has a spot price (as Karpenter: no price, no offering). Types
 * with no offering are left out.
 */
export function catalogFromSnapshot(snapshot: CatalogSnapshot): Catalog {
  const { types, spot } = snapshot;
  if (!types) throw new Error('catalogFromSnapshot: the snapshot has no instance types');
  const spotPrices = spot && spot.region === types.region ? spot.prices : {};
  const instanceTypes: InstanceType[] = [];
  for (const t of types.types) {
    const offerings: Offering[] = [];
    for (const zone of t.zones) {
      if (t.usage.includes('on-demand') && t.onDemandPrice !== undefined)
        offerings.push({ zone, capacityType: 'on-demand', price: t.onDemandPrice });
      const spotPrice = spotPrices[t.name]?.[zone];
      if (t.usage.includes('spot') && spotPrice !== undefined)
        offerings.push({ zone, capacityType: 'spot', price: spotPrice });
    }
    if (offerings.length === 0) continue;
    const { usage: _usage, zones: _zones, onDemandPrice: _price, ...facts } = t;
    instanceTypes.push({ ...facts, offerings });
  }
  const spotNote = spot ? `spot prices of ${iso(spot.fetchedAt)}` : 'no spot prices yet';
  return {
    region: types.region,
    source: `live: EC2 DescribeInstanceTypes / DescribeInstanceTypeOfferings and Pricing GetProducts of ${iso(types.fetchedAt)}, DescribeSpotPriceHistory ${spotNote}`,
    instanceTypes,
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * The bundled catalog moved to another region (the fallback when no snapshot is readable): each
 * offering keeps its zone letter (`us-west-2b` becomes `eu-west-1b`), prices and types unchanged.
 * Plans stay possible everywhere; prices and availability are the bundled region's.
 */
export function catalogInRegion(catalog: Catalog, region: string): Catalog {
  if (catalog.region === region) return catalog;
  const from = catalog.region;
  return {
    region,
    source: `${catalog.source ?? ''} [fallback: ${from} data with zones renamed to ${region}]`.trim(),
    instanceTypes: catalog.instanceTypes.map((t) => ({
      ...t,
      offerings: t.offerings.map((o) => ({
        ...o,
        zone: o.zone.startsWith(from) ? `${region}${o.zone.slice(from.length)}` : o.zone,
      })),
    })),
  };
}
