import { describe, expect, it } from 'vitest';
import {
  type CatalogSnapshot,
  spotPart,
  type TypesPart,
  typesPart,
  UnreadableSnapshotError,
} from '../../../../../functions/core/catalog/live/catalog-snapshot.js';
import {
  type RefreshDeps,
  refreshCatalog,
} from '../../../../../functions/core/catalog/live/refresh-catalog.js';
import { RecordingLog } from '../../provisioning/fakes.js';

const REGION = 'eu-west-1';

function deps(offered: string[], stored: CatalogSnapshot | Error = {}) {
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
      load: async () => {
        if (stored instanceof Error) throw stored;
        return stored;
      },
      saveTypes: async (_part: TypesPart, options) => {
        writes.push(options?.replace ? 'types (replace)' : 'types');
        return true;
      },
      saveSpot: async (_part, options) => {
        writes.push(options?.replace ? 'spot (replace)' : 'spot');
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

  for (const scope of ['spot-prices', 'catalog'] as const) {
    it(`a ${scope} refresh that finds the stored snapshot unreadable replaces both parts whole`, async () => {
      const corrupt = new UnreadableSnapshotError(
        'catalog snapshot eu-west-1 types: cannot decode (incorrect header check)',
      );
      const t = deps([`${REGION}a`], corrupt);
      const outcome = await refreshCatalog(t.deps, scope);
      expect(outcome).toMatchObject({ scope: 'catalog', instanceTypes: 1, written: true, repaired: true });
      expect(t.writes).toEqual(['spot (replace)', 'types (replace)']);
      const warning = t.log.lines.find((l) => l.level === 'warn' && l.message.includes('cannot be read'));
      expect(warning?.fields).toMatchObject({ region: REGION, error: corrupt.message });
      expect(t.log.messages()).toContain('replaced the unreadable catalog snapshot');
    });
  }

  it('a failed read of the table (not a corrupted item) fails the refresh and writes nothing', async () => {
    const t = deps([`${REGION}a`], new Error('ProvisionedThroughputExceededException'));
    await expect(refreshCatalog(t.deps, 'spot-prices')).rejects.toThrow(
      'ProvisionedThroughputExceededException',
    );
    expect(t.writes).toEqual([]);
  });
});
