import { describe, expect, it } from 'vitest';
import { maxPods } from '../../../../functions/core/catalog/allocatable.js';
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
    ['t3a', ['nano', 'micro', 'small', 'medium', 'large', 'xlarge', '2xlarge']],
    ['m4', ['large', 'xlarge', '2xlarge', '4xlarge', '10xlarge', '16xlarge']],
    ['m5a', ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge']],
    ['c4', ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge']],
    ['c5a', ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge']],
    [
      'c5d',
      ['large', 'xlarge', '2xlarge', '4xlarge', '9xlarge', '12xlarge', '18xlarge', '24xlarge', 'metal'],
    ],
    ['r4', ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '16xlarge']],
    ['r5a', ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge']],
    [
      'r5d',
      ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', 'metal'],
    ],
    [
      'r6a',
      [
        'large',
        'xlarge',
        '2xlarge',
        '4xlarge',
        '8xlarge',
        '12xlarge',
        '16xlarge',
        '24xlarge',
        '32xlarge',
        '48xlarge',
      ],
    ],
    ['inf2', ['xlarge', '8xlarge', '24xlarge', '48xlarge']],
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

  it('has the real facts of the families Karpenter users often list (c5d, c4, r4, m5a, t3a, inf2)', () => {
    expect(byName.get('c5d.large')).toMatchObject({ vcpu: 2, memoryMiB: 4096, localNvmeGiB: 50, maxEnis: 3 });
    expect(byName.get('c5d.12xlarge')).toMatchObject({ localNvmeGiB: 1800, sustainedClockSpeedMhz: 3600 });
    expect(byName.get('c4.large')).toMatchObject({ vcpu: 2, memoryMiB: 3840, hypervisor: 'xen' });
    // EC2 publishes no baseline bandwidth for the smaller previous-generation sizes: no label.
    expect(byName.get('c4.large')?.networkBandwidthMbps).toBeUndefined();
    expect(byName.get('c4.8xlarge')?.networkBandwidthMbps).toBe(10000);
    expect(byName.get('r4.large')).toMatchObject({ vcpu: 2, memoryMiB: 15616, hypervisor: 'xen' });
    expect(byName.get('m4.large')).toMatchObject({ maxEnis: 2, ipv4PerEni: 10 });
    expect(byName.get('m5a.large')).toMatchObject({ vcpu: 2, memoryMiB: 8192, cpuManufacturer: 'AMD' });
    expect(byName.get('t3a.small')).toMatchObject({ maxEnis: 2, ipv4PerEni: 4 });
    expect(byName.get('r6a.48xlarge')).toMatchObject({ vcpu: 192, memoryMiB: 1572864, maxEfaInterfaces: 1 });
    expect(byName.get('inf2.24xlarge')?.accelerators).toEqual({
      count: 6,
      manufacturer: 'AWS',
      name: 'Inferentia2',
      coresPerDevice: 2,
    });
  });

  it('has max pods equal to the values Karpenter publishes for these types', () => {
    const published: Record<string, number> = {
      'c5d.large': 29,
      'c4.xlarge': 58,
      'r4.16xlarge': 737,
      'm4.large': 20,
      'm4.16xlarge': 234,
      'm5a.4xlarge': 234,
      't3a.nano': 4,
      't3a.small': 8,
      't3a.medium': 17,
      'inf2.48xlarge': 737,
    };
    for (const [name, pods] of Object.entries(published)) {
      const type = byName.get(name);
      expect(type, name).toBeDefined();
      if (type) expect(maxPods(type), name).toBe(pods);
    }
  });

  it('prices on-demand offerings with the public list prices', () => {
    const onDemand = (name: string) =>
      byName.get(name)?.offerings.find((o) => o.capacityType === 'on-demand' && o.zone === 'us-west-2a')
        ?.price;
    expect(onDemand('m5.large')).toBe(0.096);
    expect(onDemand('c5.2xlarge')).toBe(0.34);
    expect(onDemand('t3.2xlarge')).toBe(0.3328);
    expect(onDemand('p3.8xlarge')).toBe(12.24);
    expect(onDemand('c5d.large')).toBe(0.096);
    expect(onDemand('m5a.large')).toBe(0.086);
    expect(onDemand('c4.8xlarge')).toBe(1.591);
    expect(onDemand('r4.large')).toBe(0.133);
    expect(onDemand('inf2.xlarge')).toBe(0.7582);
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

  it('does not offer the older GPU, x1e and previous-generation types in us-west-2d', () => {
    for (const name of ['p3.8xlarge', 'x1e.8xlarge', 'c4.large', 'r4.large', 'm4.large']) {
      expect(byName.get(name)?.offerings.map((o) => o.zone)).not.toContain('us-west-2d');
    }
    expect(byName.get('m5.large')?.offerings.map((o) => o.zone)).toContain('us-west-2d');
  });
});
