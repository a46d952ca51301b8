import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../functions/core/catalog/bundled.js';
import {
  type CatalogSnapshot,
  spotPart,
  typesPart,
} from '../../../functions/core/catalog/live/catalog-snapshot.js';
import {
  FALLBACK_RETRY_MS,
  MIN_RELOAD_MS,
  SnapshotCatalogSource,
} from '../../../functions/handlers/runtime/catalog-source.js';
import { RecordingLog } from '../core/provisioning/fakes.js';

const REGION = 'eu-west-1';
const MIN = 60_000;

function snapshot(at: number, spotPrice: number): CatalogSnapshot {
  return {
    types: typesPart({
      region: REGION,
      fetchedAt: at,
      zones: [{ name: `${REGION}a`, id: 'euw1-az1' }],
      types: [
        {
          name: 'm5.large',
          vcpu: 2,
          memoryMiB: 8192,
          arch: 'amd64',
          maxEnis: 3,
          ipv4PerEni: 10,
          usage: ['spot', 'on-demand'],
        },
      ],
      offered: new Map([['m5.large', [`${REGION}a`]]]),
      onDemandPrices: new Map([['m5.large', 0.107]]),
    }),
    spot: spotPart(REGION, at, { 'm5.large': { [`${REGION}a`]: spotPrice } }),
  };
}

function setup(load: () => Promise<CatalogSnapshot>) {
  let now = 0;
  const log = new RecordingLog();
  const fallbacks: string[] = [];
  let loads = 0;
  const source = new SnapshotCatalogSource({
    region: REGION,
    fallback: bundledCatalog,
    clock: { now: () => now },
    log,
    load: () => {
      loads++;
      return load();
    },
    onFallback: (reason) => fallbacks.push(reason),
  });
  return {
    source,
    log,
    fallbacks,
    loads: () => loads,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
  };
}

const spotOf = async (s: SnapshotCatalogSource) =>
  (await s.current()).instanceTypes[0]?.offerings.find((o) => o.capacityType === 'spot')?.price;

describe('the planning functions’ catalog source', () => {
  it('loads once, reuses the catalog until the next spot refresh is due, then reloads', async () => {
    let stored = snapshot(0, 0.04);
    const t = setup(async () => stored);
    expect(await spotOf(t.source)).toBe(0.04);
    stored = snapshot(2 * MIN, 0.05);
    t.advance(4 * MIN);
    expect(await spotOf(t.source)).toBe(0.04);
    expect(t.loads()).toBe(1);
    t.advance(MIN); // the refresh of minute 0 + 5 was due
    expect(await spotOf(t.source)).toBe(0.05);
    expect(t.loads()).toBe(2);
    // The next one is due at minute 2 + 5, but never re-read sooner than MIN_RELOAD_MS.
    t.advance(MIN_RELOAD_MS - 1);
    await t.source.current();
    expect(t.loads()).toBe(2);
  });

  it('concurrent plans share one read', async () => {
    const t = setup(async () => snapshot(0, 0.04));
    await Promise.all([t.source.current(), t.source.current(), t.source.current()]);
    expect(t.loads()).toBe(1);
  });

  it('without a snapshot uses the bundled catalog in its region, warns, counts, and retries a minute later', async () => {
    let stored: CatalogSnapshot = {};
    const t = setup(async () => stored);
    const catalog = await t.source.current();
    expect(catalog.region).toBe(REGION);
    expect(catalog.instanceTypes.length).toBe(bundledCatalog.instanceTypes.length);
    expect(t.fallbacks).toHaveLength(1);
    expect(t.log.lines.find((l) => l.level === 'warn')?.message).toMatch(
      /using the bundled instance catalog/,
    );
    stored = snapshot(0, 0.04);
    t.advance(FALLBACK_RETRY_MS - 1);
    expect((await t.source.current()).instanceTypes.length).toBe(bundledCatalog.instanceTypes.length);
    t.advance(1);
    expect(await spotOf(t.source)).toBe(0.04);
  });

  it('a read that fails after a good one keeps the loaded snapshot', async () => {
    let fail = false;
    const t = setup(async () => {
      if (fail) throw new Error('ProvisionedThroughputExceededException');
      return snapshot(0, 0.04);
    });
    expect(await spotOf(t.source)).toBe(0.04);
    fail = true;
    t.advance(10 * MIN);
    expect(await spotOf(t.source)).toBe(0.04);
    expect(t.fallbacks).toEqual([]);
    expect(t.log.lines.some((l) => l.message.includes('keeping the one loaded'))).toBe(true);
  });

  it('a snapshot of another region is not used', async () => {
    const t = setup(async () => ({ types: { ...snapshot(0, 1).types!, region: 'us-east-1' } }));
    await t.source.current();
    expect(t.fallbacks).toEqual(['snapshot is of region us-east-1, not eu-west-1']);
  });
});
