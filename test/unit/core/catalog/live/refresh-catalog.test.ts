import { describe, expect, it } from 'vitest';
import {
  type CatalogSnapshot,
  spotPart,
  type TypesPart,
  typesPart,
} from '../../../../../functions/core/catalog/live/catalog-snapshot.js';
import {
  type RefreshDeps,
  refreshCatalog,
} from '../../../../../functions/core/catalog/live/refresh-catalog.js';
import { RecordingLog } from '../../provisioning/fakes.js';

const REGION = 'eu-west-1';

function deps(offered: string[], stored: CatalogSnapshot = {}) {
  const writes: string[] = [];
  const log = new RecordingLog();
  const types = typesPart({
    region: REGION,
    fetchedAt: 5,
    zones: [{ name: `${REGION}a`, id: 'euw1-az1' }],
    types: [
      {
        name: 'm5.large',
        vcpu: 2,
        memoryMiB: 8192,
        arch: 'amd64',
        maxEnis: 3,
        ipv4PerEni: 10,
        usage: ['spot'],
      },
    ],
    offered: new Map([['m5.large', offered]]),
    onDemandPrices: new Map(),
  });
  const d: RefreshDeps = {
    region: REGION,
    now: () => 5,
    log,
    reader: {
      readTypes: async () => ({
        part: types,
        skipped: [{ at: 'DescribeInstanceTypes mac2.metal', reason: 'Mac' }],
      }),
      readSpot: async (now) => ({
        part: spotPart(REGION, now, { 'm5.large': { [`${REGION}a`]: 0.04 } }),
        skipped: [],
      }),
    },
    store: {
      load: async () => stored,
      saveTypes: async (_part: TypesPart) => {
        writes.push('types');
        return true;
      },
      saveSpot: async () => {
        writes.push('spot');
        return true;
      },
    },
  };
  return { deps: d, writes, log };
}

describe('one catalog refresh', () => {
  it('a spot refresh with no instance types stored refreshes everything, spot prices written first', async () => {
    const t = deps([`${REGION}a`]);
    const outcome = await refreshCatalog(t.deps, 'spot-prices');
    expect(outcome).toMatchObject({ scope: 'catalog', instanceTypes: 1, spotPrices: 1, written: true });
    expect(t.writes).toEqual(['spot', 'types']);
    expect(t.log.lines.find((l) => l.level === 'warn')?.fields?.first).toEqual([
      'DescribeInstanceTypes mac2.metal: Mac',
    ]);
  });

  it('a spot refresh with instance types stored writes only spot prices', async () => {
    const stored = deps([`${REGION}a`]);
    const part = (await stored.deps.reader.readTypes(0)).part;
    const t = deps([`${REGION}a`], { types: part });
    expect(await refreshCatalog(t.deps, 'spot-prices')).toMatchObject({
      scope: 'spot-prices',
      instanceTypes: 0,
    });
    expect(t.writes).toEqual(['spot']);
  });

  it('refuses to replace the snapshot with one that offers nothing', async () => {
    const t = deps([]);
    await expect(refreshCatalog(t.deps, 'catalog')).rejects.toThrow(
      'the live APIs of eu-west-1 listed no offered instance type; the snapshot is kept',
    );
    expect(t.writes).toEqual([]);
  });
});
