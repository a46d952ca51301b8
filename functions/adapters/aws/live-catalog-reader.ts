/**
 * Reads the region's live catalog: instance types, zone offerings, zones, on-demand prices and
 * spot prices, each through its adapter, converted by the core into snapshot parts
 * (functions/core/catalog/live). The refresh function and `joiner catalog fetch` both use it.
 */
import { EC2Client } from '@aws-sdk/client-ec2';
import type { PricingClient } from '@aws-sdk/client-pricing';
import type { SkippedEntry } from '../../core/catalog/live/api-shapes.js';
import {
  type CatalogSnapshot,
  type SpotPart,
  spotPart,
  type TypesPart,
  typesPart,
} from '../../core/catalog/live/catalog-snapshot.js';
import { instanceTypeFacts } from '../../core/catalog/live/instance-type-info.js';
import { onDemandPrices } from '../../core/catalog/live/on-demand-prices.js';
import { latestSpotPrices } from '../../core/catalog/live/spot-prices.js';
import { readAvailabilityZones } from './availability-zones-reader.js';
import { readZoneOfferings } from './instance-type-offerings-reader.js';
import { readInstanceTypes } from './instance-types-reader.js';
import { CACHED_MIDDLEWARE, leanSdkClient } from './lean-client.js';
import { readOnDemandPriceList } from './on-demand-price-reader.js';
import { createPricingClient } from './pricing-client.js';
import { readSpotPrices } from './spot-price-reader.js';

/** The clients the reader calls, for one region. */
export interface LiveCatalogClients {
  readonly region: string;
  readonly ec2: EC2Client;
  readonly pricing: PricingClient;
}

/** A part and what its sources answered that could not be used. */
export interface PartRead<T> {
  readonly part: T;
  readonly skipped: readonly SkippedEntry[];
}

/** Endpoints and credentials of {@link createLiveCatalogClients}. */
export interface LiveCatalogClientOptions {
  readonly region: string;
  readonly ec2Endpoint?: string;
  readonly pricingEndpoint?: string;
  readonly credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** EC2 in the region and Pricing at the region's Pricing endpoint. */
export function createLiveCatalogClients(options: LiveCatalogClientOptions): LiveCatalogClients {
  const ec2 = leanSdkClient(
    new EC2Client({
      ...CACHED_MIDDLEWARE,
      region: options.region,
      maxAttempts: 8,
      retryMode: 'adaptive',
      ...(options.ec2Endpoint ? { endpoint: options.ec2Endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    }),
  );
  const pricing = createPricingClient({
    region: options.region,
    endpoint: options.pricingEndpoint,
    credentials: options.credentials,
  });
  return { region: options.region, ec2, pricing };
}

/** Instance types, their zones, the zones' ids and the on-demand prices (four calls, all pages). */
export async function readTypesPart(clients: LiveCatalogClients, now: number): Promise<PartRead<TypesPart>> {
  const [infos, offered, zones, priceList] = await Promise.all([
    readInstanceTypes(clients.ec2),
    readZoneOfferings(clients.ec2),
    readAvailabilityZones(clients.ec2),
    readOnDemandPriceList(clients.pricing, clients.region),
  ]);
  const facts = instanceTypeFacts(infos);
  const prices = onDemandPrices(priceList);
  const part = typesPart({
    region: clients.region,
    fetchedAt: now,
    zones,
    types: facts.types,
    offered,
    onDemandPrices: prices.prices,
  });
  return { part, skipped: [...facts.skipped, ...prices.skipped] };
}

/** The spot prices in effect now, per type and zone. */
export async function readSpotPart(clients: LiveCatalogClients, now: number): Promise<PartRead<SpotPart>> {
  const spot = latestSpotPrices(await readSpotPrices(clients.ec2, new Date(now)));
  return { part: spotPart(clients.region, now, spot.prices), skipped: spot.skipped };
}

/** Both parts. */
export async function readSnapshot(
  clients: LiveCatalogClients,
  now: number,
): Promise<{ snapshot: Required<CatalogSnapshot>; skipped: readonly SkippedEntry[] }> {
  const [types, spot] = await Promise.all([readTypesPart(clients, now), readSpotPart(clients, now)]);
  return { snapshot: { types: types.part, spot: spot.part }, skipped: [...types.skipped, ...spot.skipped] };
}
