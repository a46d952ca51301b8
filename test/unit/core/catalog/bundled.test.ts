import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import data from '../../../../functions/core/catalog/data/us-west-2.json' with { type: 'json' };
import { parseCatalog } from '../../../../functions/core/catalog/parse-catalog.js';

const names = new Set(bundledCatalog.instanceTypes.map((t) => t.name));
const byName = new Map(bundledCatalog.instanceTypes.map((t) => [t.name, t]));

describe('bundledCatalog', () => {
  it('is valid: parseCatalog accepts the bundled data and returns it unchanged (so it is loaded without validation)', () => {
    expect(parseCatalog(structuredClone(data), 'bundled catalog')).toEqual(data);
    expect(bundledCatalog).toBe(data);
  });

  it('holds at least 150 us-west-2 instance types and says where its data comes from', () => {
    expect(bundledCatalog.region).toBe('us-west-2');
    expect(bundledCatalog.instanceTypes.length).toBeGreaterThanOrEqual(150);
    expect(bundledCatalog.source).toMatch(/2026-11/);
    expect(bundledCatalog.source).toMatch(/[Ss]pot prices are NOT live/);
  });

  it.each([
    ['t3', ['nano', 'micro', 'small', 'medium', 'large', 'xlarge', '2xlarge']],
    ['t4g', ['nano', 'micro', 'small', 'medium', 'large', 'xlarge', '2xlarge']],
    ['m5', ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', 'metal']],
    ['c5', ['large', 'xlarge', '2xlarge', '4xlarge', '9xlarge', '12xlarge', '18xlarge', '24xlarge', 'metal']],
    ['r5', ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', 'metal']],
    [
      'm6i',
      ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '32xlarge'],
    ],
    [
      'c6i',
      ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '32xlarge'],
    ],
    [
      'r6i',
      ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '32xlarge'],
    ],
    [
      'm7i',
      ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge'],
    ],
    ['m6g', ['medium', 'large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge']],
    ['c6g', ['medium', 'large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge']],
    ['r6g', ['medium', 'large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge']],
    ['r6gd', ['medium', 'large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge']],
    ['m7g', ['medium', 'large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge']],
    ['c7g', ['medium', 'large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge']],
    ['g4dn', ['xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', 'metal']],
    ['g5', ['xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge']],
    ['p3', ['2xlarge', '8xlarge', '16xlarge']],
    ['x1e', ['xlarge', '2xlarge', '4xlarge', '8xlarge', '16xlarge', '32xlarge']],
  ])('has every size of %s', (family, sizes) => {
    for (const size of sizes) expect(names, `${family}.${size}`).toContain(`${family}.${size}`);
  });

  it('has the real facts of the types the seed articles name', () => {
    expect(byName.get('m5.large')).toMatchObject({ vcpu: 2, memoryMiB: 8192, maxEnis: 3, ipv4PerEni: 10 });
    expect(byName.get('c5.2xlarge')).toMatchObject({ vcpu: 8, memoryMiB: 16384, maxEnis: 4, ipv4PerEni: 15 });
    expect(byName.get('t4g.2xlarge')).toMatchObject({ vcpu: 8, memoryMiB: 32768, arch: 'arm64' });
    expect(byName.get('r6gd.xlarge')).toMatchObject({
      vcpu: 4,
      memoryMiB: 32768,
      arch: 'arm64',
      localNvmeGiB: 237,
    });
    expect(byName.get('r5.24xlarge')).toMatchObject({ vcpu: 96, memoryMiB: 786432 });
    expect(byName.get('x1e.8xlarge')).toMatchObject({ vcpu: 32, memoryMiB: 999424, hypervisor: 'xen' });
    expect(byName.get('p3.16xlarge')?.gpus).toEqual({
      count: 8,
      manufacturer: 'NVIDIA',
      name: 'V100',
      memoryMiB: 16384,
    });
    expect(byName.get('c6i.2xlarge')).toMatchObject({ vcpu: 8, memoryMiB: 16384, encryptionInTransit: true });
  });

  it('prices on-demand offerings with the public list prices', () => {
    const onDemand = (name: string) =>
      byName.get(name)?.offerings.find((o) => o.capacityType === 'on-demand' && o.zone === 'us-west-2a')
        ?.price;
    expect(onDemand('m5.large')).toBe(0.096);
    expect(onDemand('c5.2xlarge')).toBe(0.34);
    expect(onDemand('t3.2xlarge')).toBe(0.3328);
    expect(onDemand('p3.8xlarge')).toBe(12.24);
  });

  it('offers every type on-demand and spot in each of its zones, spot 30-70% below on-demand', () => {
    for (const it of bundledCatalog.instanceTypes) {
      const zones = new Set(it.offerings.map((o) => o.zone));
      expect(zones.size, it.name).toBeGreaterThanOrEqual(3);
      for (const zone of zones) {
        const od = it.offerings.find((o) => o.zone === zone && o.capacityType === 'on-demand');
        const spot = it.offerings.find((o) => o.zone === zone && o.capacityType === 'spot');
        expect(od && spot, `${it.name} in ${zone}`).toBeTruthy();
        const ratio = (spot?.price ?? 0) / (od?.price ?? 1);
        expect(ratio, `${it.name} spot in ${zone}`).toBeGreaterThanOrEqual(0.3);
        expect(ratio, `${it.name} spot in ${zone}`).toBeLessThanOrEqual(0.7);
      }
    }
  });

  it('does not offer the older GPU and x1e types in us-west-2d', () => {
    for (const name of ['p3.8xlarge', 'x1e.8xlarge']) {
      expect(byName.get(name)?.offerings.map((o) => o.zone)).not.toContain('us-west-2d');
    }
    expect(byName.get('m5.large')?.offerings.map((o) => o.zone)).toContain('us-west-2d');
  });
});
