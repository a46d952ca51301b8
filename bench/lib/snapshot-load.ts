/**
 * The cold-start cost of the live catalog: a whole region's snapshot (about 900 instance types in
 * six zones, a spot price per type and zone) stored by the real snapshot store in a DynamoDB table
 * (dynalite on loopback) and loaded the way the provisioner's first plan loads it: BatchGetItem,
 * gunzip, JSON parse, and the conversion into the catalog the scheduler uses.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CatalogSnapshotStore } from '../../functions/adapters/store/catalog-snapshot-store.js';
import { createDocumentClient } from '../../functions/adapters/store/create-state-store.js';
import { ensureTable } from '../../functions/adapters/store/ensure-table.js';
import { bundledCatalog } from '../../functions/core/catalog/bundled.js';
import {
  catalogFromSnapshot,
  spotPart,
  typesPart,
} from '../../functions/core/catalog/live/catalog-snapshot.js';
import type { InstanceTypeFacts } from '../../functions/core/catalog/live/instance-type-info.js';
import type { SpotPriceTable } from '../../functions/core/catalog/live/spot-prices.js';
import { startDynamoDbSimulator } from '../../functions/simulator/dynamodb/dynamodb-simulator.js';
import { runQueueSeconds } from './run-queue.js';

const REGION = 'us-east-1';
const ZONES = ['a', 'b', 'c', 'd', 'e', 'f'].map((l, i) => ({
  name: `${REGION}${l}`,
  id: `use1-az${i + 1}`,
}));
/** Copies of the bundled types (renamed families) to reach a large region's type count. */
const COPIES = 4;

/** What one measurement found. */
export interface SnapshotLoadResult {
  readonly instanceTypes: number;
  readonly offerings: number;
  readonly typesPartBytes: number;
  readonly spotPartBytes: number;
  /**
   * Median milliseconds of a cold load (a new store and client each time, as a cold start), less
   * the time this process's main thread waited for a CPU meanwhile (what an idle machine takes;
   * dynalite answers in the same thread).
   */
  readonly loadMs: number;
  /** Median wall milliseconds of a cold load. */
  readonly loadWallMs: number;
}

function wholeRegion(now: number) {
  const types: InstanceTypeFacts[] = [];
  const offered = new Map<string, string[]>();
  const onDemand = new Map<string, number>();
  const spot: SpotPriceTable = {};
  for (let copy = 0; copy < COPIES; copy++) {
    for (const t of bundledCatalog.instanceTypes) {
      const [family, size] = t.name.split('.');
      const name = copy === 0 ? t.name : `${family}q${copy}.${size}`;
      const { offerings, ...facts } = t;
      types.push({ ...facts, name, usage: ['on-demand', 'spot'] });
      offered.set(
        name,
        ZONES.map((z) => z.name),
      );
      const price = offerings.find((o) => o.capacityType === 'on-demand')?.price ?? 1;
      onDemand.set(name, price);
      spot[name] = Object.fromEntries(
        ZONES.map((z, i) => [z.name, Math.round(price * (0.3 + i * 0.05) * 1e4) / 1e4]),
      );
    }
  }
  return {
    types: typesPart({
      region: REGION,
      fetchedAt: now,
      zones: ZONES,
      types,
      offered,
      onDemandPrices: onDemand,
    }),
    spot: spotPart(REGION, now, spot),
  };
}

/** Stores a whole region's snapshot in dynalite and measures `runs` cold loads. */
export async function measureSnapshotLoad(runs = 7): Promise<SnapshotLoadResult> {
  const dynamo = await startDynamoDbSimulator();
  const credentials = { accessKeyId: 'bench', secretAccessKey: 'bench' };
  try {
    const raw = new DynamoDBClient({ region: REGION, endpoint: dynamo.url, credentials });
    await ensureTable(raw, 'joiner');
    raw.destroy();
    const { types, spot } = wholeRegion(Date.now());
    const writer = new CatalogSnapshotStore(
      createDocumentClient({ region: REGION, endpoint: dynamo.url, credentials }),
      'joiner',
    );
    await writer.saveSpot(spot);
    await writer.saveTypes(types);
    const times: number[] = [];
    const walls: number[] = [];
    let instanceTypes = 0;
    let offerings = 0;
    for (let i = 0; i < runs; i++) {
      const documents = createDocumentClient({ region: REGION, endpoint: dynamo.url, credentials });
      const store = new CatalogSnapshotStore(documents, 'joiner');
      const queued = runQueueSeconds();
      const started = performance.now();
      const catalog = catalogFromSnapshot(await store.load(REGION));
      const wall = performance.now() - started;
      const waited = queued === undefined ? 0 : ((runQueueSeconds() ?? queued) - queued) * 1000;
      walls.push(wall);
      times.push(wall - waited);
      documents.destroy();
      instanceTypes = catalog.instanceTypes.length;
      offerings = catalog.instanceTypes.reduce((n, t) => n + t.offerings.length, 0);
    }
    const sizes = await partSizes(dynamo.url, credentials);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    return { instanceTypes, offerings, ...sizes, loadMs: median(times), loadWallMs: median(walls) };
  } finally {
    await dynamo.close();
  }
}

async function partSizes(endpoint: string, credentials: { accessKeyId: string; secretAccessKey: string }) {
  const documents = createDocumentClient({ region: REGION, endpoint, credentials });
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const size = async (sk: string) =>
    Number(
      (await documents.send(new GetCommand({ TableName: 'joiner', Key: { pk: 'catalog', sk } }))).Item
        ?.bytes ?? 0,
    );
  const result = {
    typesPartBytes: await size(`${REGION}#types`),
    spotPartBytes: await size(`${REGION}#spot`),
  };
  documents.destroy();
  return result;
}
