import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../../functions/core/catalog/bundled.js';
import {
  catalogFromSnapshot,
  catalogInRegion,
  snapshotProblem,
  spotPart,
  typesPart,
} from '../../../../../functions/core/catalog/live/catalog-snapshot.js';
import type { InstanceTypeFacts } from '../../../../../functions/core/catalog/live/instance-type-info.js';
import { parseCatalog } from '../../../../../functions/core/catalog/parse-catalog.js';

const facts = (
  name: string,
  usage: InstanceTypeFacts['usage'] = ['on-demand', 'spot'],
): InstanceTypeFacts => ({
  name,
  vcpu: 2,
  memoryMiB: 8192,
  arch: 'amd64',
  maxEnis: 3,
  ipv4PerEni: 10,
  usage,
});

const zones = ['a', 'b', 'c'].map((l, i) => ({ name: `eu-west-1${l}`, id: `euw1-az${i + 1}` }));

const types = typesPart({
  region: 'eu-west-1',
  fetchedAt: Date.UTC(2026, 10, 25),
  zones,
  types: [facts('m5.large'), facts('m4.large', ['on-demand']), facts('x9.large'), facts('c5.large')],
  offered: new Map([
    ['m5.large', ['eu-west-1b', 'eu-west-1a', 'eu-west-1-lax-1a']],
    ['m4.large', ['eu-west-1a']],
    ['c5.large', ['eu-west-1c']],
  ]),
  onDemandPrices: new Map([
    ['m5.large', 0.107],
    ['m4.large', 0.111],
  ]),
});

describe('the catalog snapshot', () => {
  it('keeps the types offered in an availability zone of the region, with their zones and price', () => {
    expect(types.types.map((t) => [t.name, t.zones.join(','), t.onDemandPrice])).toEqual([
      ['m5.large', 'eu-west-1a,eu-west-1b', 0.107],
      ['m4.large', 'eu-west-1a', 0.111],
      ['c5.large', 'eu-west-1c', undefined],
    ]);
  });

  it('offers a type on-demand where it is offered and priced, spot where a zone has a spot price', () => {
    const spot = spotPart('eu-west-1', Date.UTC(2026, 10, 25, 0, 5), {
      'm5.large': { 'eu-west-1a': 0.04, 'eu-west-1c': 0.039 },
      'm4.large': { 'eu-west-1a': 0.03 },
      'c5.large': { 'eu-west-1c': 0.035 },
    });
    const catalog = catalogFromSnapshot({ types, spot });
    const lines = catalog.instanceTypes.flatMap((t) =>
      t.offerings.map((o) => `${t.name} ${o.zone} ${o.capacityType} ${o.price}`),
    );
    expect(lines).toEqual([
      'm5.large eu-west-1a on-demand 0.107',
      'm5.large eu-west-1a spot 0.04',
      'm5.large eu-west-1b on-demand 0.107',
      'm4.large eu-west-1a on-demand 0.111',
      'c5.large eu-west-1c spot 0.035',
    ]);
    expect(catalog.source).toContain('2026-11-25T00:05:00.000Z');
    expect(() => parseCatalog(JSON.parse(JSON.stringify(catalog)), 'snapshot')).not.toThrow();
  });

  it('without spot prices yet, offers on-demand only', () => {
    const catalog = catalogFromSnapshot({ types });
    expect(catalog.instanceTypes.every((t) => t.offerings.every((o) => o.capacityType === 'on-demand'))).toBe(
      true,
    );
  });

  it('names what makes a snapshot unusable', () => {
    expect(snapshotProblem({}, 'eu-west-1')).toMatch(/no instance-type snapshot/);
    expect(snapshotProblem({ types }, 'us-west-2')).toBe('snapshot is of region eu-west-1, not us-west-2');
    expect(snapshotProblem({ types: { ...types, version: 2 as 1 } }, 'eu-west-1')).toMatch(/version 2/);
    expect(snapshotProblem({ types }, 'eu-west-1')).toBeUndefined();
  });

  it('moves the bundled catalog to another region by zone letter (the fallback)', () => {
    const moved = catalogInRegion(bundledCatalog, 'ap-southeast-2');
    expect(moved.region).toBe('ap-southeast-2');
    expect(new Set(moved.instanceTypes.flatMap((t) => t.offerings.map((o) => o.zone)))).toEqual(
      new Set(
        bundledCatalog.instanceTypes.flatMap((t) =>
          t.offerings.map((o) => o.zone.replace('us-west-2', 'ap-southeast-2')),
        ),
      ),
    );
    expect(moved.source).toContain('fallback');
    expect(catalogInRegion(bundledCatalog, 'us-west-2')).toBe(bundledCatalog);
  });
});
