import { describe, expect, it } from 'vitest';
import { eniLimitedPods, nodeCapacity } from '../../../../functions/core/catalog/allocatable.js';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import { efaConflicts } from '../../../../functions/core/catalog/efa-conflicts.js';
import { instanceTypeFacts } from '../../../../functions/core/catalog/live/instance-type-info.js';
import { CatalogError, parseCatalog } from '../../../../functions/core/catalog/parse-catalog.js';
import type { InstanceType } from '../../../../functions/core/model/instance-type.js';
import { EFA } from '../../../../functions/core/model/resources.js';
import { nodeClass } from '../../../builders/config.js';

const typeOf = (name: string): InstanceType => {
  const t = bundledCatalog.instanceTypes.find((it) => it.name === name);
  if (!t) throw new Error(`${name} is not in the bundled catalog`);
  return t;
};

describe('EFA in the catalog', () => {
  it('the bundled catalog carries the EFA interfaces of real EFA types, and none elsewhere', () => {
    expect(typeOf('p4d.24xlarge')).toMatchObject({ networkCards: 4, maxEfaInterfaces: 4 });
    expect(typeOf('p5.48xlarge')).toMatchObject({ networkCards: 32, maxEfaInterfaces: 32 });
    for (const name of [
      'c5n.9xlarge',
      'c5n.18xlarge',
      'c5n.metal',
      'g5.48xlarge',
      'c6i.32xlarge',
      'm7i.48xlarge',
    ])
      expect(typeOf(name).maxEfaInterfaces, name).toBe(1);
    for (const name of ['m5.large', 'c5n.4xlarge', 'p3.16xlarge', 'g4dn.xlarge', 'c5.18xlarge'])
      expect(typeOf(name).maxEfaInterfaces, name).toBeUndefined();
    for (const t of bundledCatalog.instanceTypes)
      expect(t.maxEfaInterfaces ?? 0, t.name).toBeLessThanOrEqual(t.networkCards ?? 1);
  });

  it('vpc.amazonaws.com/efa capacity is the type’s EFA interfaces, allocatable in full', () => {
    const { capacity, allocatable } = nodeCapacity(typeOf('p4d.24xlarge'));
    expect(capacity[EFA]).toBe(4);
    expect(allocatable[EFA]).toBe(4);
    expect(nodeCapacity(typeOf('m5.large')).capacity[EFA]).toBeUndefined();
  });

  it('max pods count the default network card’s ENIs only (VPC CNI), as the EKS max-pods table does', () => {
    expect(eniLimitedPods(typeOf('p4d.24xlarge'))).toBe(737);
    expect(eniLimitedPods(typeOf('p5.48xlarge'))).toBe(100);
    expect(eniLimitedPods(typeOf('c5n.18xlarge'))).toBe(737);
    expect(eniLimitedPods(typeOf('p5.48xlarge'), 1)).toBe(51);
  });

  it('reads EfaSupported and EfaInfo from DescribeInstanceTypes', () => {
    const base = {
      SupportedUsageClasses: ['on-demand'],
      ProcessorInfo: { SupportedArchitectures: ['x86_64'] },
      VCpuInfo: { DefaultVCpus: 96 },
      MemoryInfo: { SizeInMiB: 1179648 },
    };
    const { types } = instanceTypeFacts([
      {
        ...base,
        InstanceType: 'p4d.24xlarge',
        NetworkInfo: {
          MaximumNetworkInterfaces: 60,
          Ipv4AddressesPerInterface: 50,
          MaximumNetworkCards: 4,
          EfaSupported: true,
          EfaInfo: { MaximumEfaInterfaces: 4 },
        },
      },
      {
        ...base,
        InstanceType: 'm5.24xlarge',
        NetworkInfo: {
          MaximumNetworkInterfaces: 15,
          Ipv4AddressesPerInterface: 50,
          EfaSupported: false,
          EfaInfo: { MaximumEfaInterfaces: 1 },
        },
      },
    ]);
    expect(types.map((t) => [t.name, t.maxEfaInterfaces])).toEqual([
      ['m5.24xlarge', undefined],
      ['p4d.24xlarge', 4],
    ]);
  });

  it('a catalog file with more EFA interfaces than network cards is refused, naming the field', () => {
    const json = {
      region: 'us-west-2',
      instanceTypes: [
        {
          name: 'x9.large',
          vcpu: 2,
          memoryMiB: 8192,
          arch: 'amd64',
          maxEnis: 3,
          ipv4PerEni: 10,
          maxEfaInterfaces: 2,
          offerings: [{ zone: 'us-west-2a', capacityType: 'on-demand', price: 0.1 }],
        },
      ],
    };
    expect(() => parseCatalog(json, 'cat.json')).toThrow(CatalogError);
    expect(() => parseCatalog(json, 'cat.json')).toThrow(
      /instanceTypes\[0\]\.maxEfaInterfaces: must not exceed networkCards \(1\)/,
    );
    expect(() =>
      parseCatalog(
        { ...json, instanceTypes: [{ ...json.instanceTypes[0], maxEfaInterfaces: 0 }] },
        'cat.json',
      ),
    ).toThrow(/maxEfaInterfaces/);
  });

  it('validate warns about a NodeClass whose Multus interfaces take EFA places, naming the types', () => {
    const multus = (networkCardIndex: number, deviceIndex: number) => ({
      subnetSelectorTerms: [{ tags: { Name: 'Multus1*' } }],
      securityGroupSelectorTerms: [{ tags: { Name: 'Vpc1SecurityGroup' } }],
      deviceIndex,
      networkCardIndex,
      disableSourceDestCheck: false,
      ipv6AddressCount: 0,
    });
    expect(efaConflicts(nodeClass({ multusInterfaces: [multus(0, 1)] }), bundledCatalog)).toEqual([]);
    const [warning, ...rest] = efaConflicts(
      nodeClass({ multusInterfaces: [multus(0, 1), multus(1, 1)] }),
      bundledCatalog,
    );
    expect(rest).toEqual([]);
    expect(warning.severity).toBe('warning');
    expect(warning.path).toBe('spec.multusInterfaces');
    expect(warning.message).toMatch(
      /^pods requesting vpc\.amazonaws\.com\/efa cannot run on \d+ of the \d+ EFA-capable/,
    );
    expect(warning.message).toContain('multusInterfaces[1] (network card 1, device index 1)');
  });
});
