import { describe, expect, it } from 'vitest';
import type { InstanceTypeInfoShape } from '../../../../../functions/core/catalog/live/api-shapes.js';
import { instanceTypeFacts } from '../../../../../functions/core/catalog/live/instance-type-info.js';

/** An `InstanceTypeInfo` as DescribeInstanceTypes returns it (g4dn.xlarge, trimmed). */
const g4dn: InstanceTypeInfoShape = {
  InstanceType: 'g4dn.xlarge',
  SupportedUsageClasses: ['on-demand', 'spot'],
  SupportedVirtualizationTypes: ['hvm'],
  BareMetal: false,
  Hypervisor: 'nitro',
  ProcessorInfo: { SupportedArchitectures: ['x86_64'] },
  VCpuInfo: { DefaultVCpus: 4 },
  MemoryInfo: { SizeInMiB: 16384 },
  InstanceStorageSupported: true,
  InstanceStorageInfo: { TotalSizeInGB: 125, NvmeSupport: 'required' },
  EbsInfo: { EbsOptimizedInfo: { BaselineBandwidthInMbps: 950 } },
  NetworkInfo: {
    MaximumNetworkInterfaces: 3,
    Ipv4AddressesPerInterface: 10,
    MaximumNetworkCards: 1,
    DefaultNetworkCardIndex: 0,
    EncryptionInTransitSupported: true,
    NetworkCards: [{ NetworkCardIndex: 0, BaselineBandwidthInGbps: 5 }],
  },
  GpuInfo: { Gpus: [{ Name: 'T4', Manufacturer: 'NVIDIA', Count: 1, MemoryInfo: { SizeInMiB: 16384 } }] },
};

describe('instance types from DescribeInstanceTypes', () => {
  it('keeps every fact the allocatable model and the labels use', () => {
    const { types, skipped } = instanceTypeFacts([g4dn]);
    expect(skipped).toEqual([]);
    expect(types).toEqual([
      {
        name: 'g4dn.xlarge',
        vcpu: 4,
        memoryMiB: 16384,
        arch: 'amd64',
        gpus: { count: 1, manufacturer: 'NVIDIA', name: 'T4', memoryMiB: 16384 },
        maxEnis: 3,
        ipv4PerEni: 10,
        networkCards: 1,
        localNvmeGiB: 125,
        networkBandwidthMbps: 5000,
        ebsBandwidthMbps: 950,
        hypervisor: 'nitro',
        encryptionInTransit: true,
        usage: ['on-demand', 'spot'],
      },
    ]);
  });

  it('reads Neuron accelerators (Inferentia, Trainium)', () => {
    const { types } = instanceTypeFacts([
      {
        ...g4dn,
        InstanceType: 'inf2.xlarge',
        GpuInfo: undefined,
        NeuronInfo: { NeuronDevices: [{ Count: 1, Name: 'Inferentia2', CoreInfo: { Count: 2 } }] },
      },
    ]);
    expect(types[0].accelerators).toEqual({
      count: 1,
      name: 'Inferentia2',
      manufacturer: 'AWS',
      coresPerDevice: 2,
    });
    expect(types[0].gpus).toBeUndefined();
  });

  it('sums the baseline bandwidth of every network card', () => {
    const { types } = instanceTypeFacts([
      {
        ...g4dn,
        NetworkInfo: {
          ...g4dn.NetworkInfo,
          MaximumNetworkCards: 2,
          NetworkCards: [
            { NetworkCardIndex: 0, BaselineBandwidthInGbps: 50 },
            { NetworkCardIndex: 1, BaselineBandwidthInGbps: 50 },
          ],
        },
      },
    ]);
    expect(types[0]).toMatchObject({ networkBandwidthMbps: 100_000, networkCards: 2 });
  });

  it('reads Graviton, bare metal, Xen and on-demand-only types', () => {
    const { types } = instanceTypeFacts([
      {
        ...g4dn,
        InstanceType: 'm6g.metal',
        BareMetal: true,
        Hypervisor: undefined,
        ProcessorInfo: { SupportedArchitectures: ['arm64'] },
        GpuInfo: undefined,
      },
      {
        ...g4dn,
        InstanceType: 'm4.large',
        Hypervisor: 'xen',
        SupportedUsageClasses: ['on-demand'],
        GpuInfo: undefined,
        InstanceStorageInfo: undefined,
        InstanceStorageSupported: false,
      },
    ]);
    expect(types.map((t) => [t.name, t.arch, t.hypervisor, t.usage.join('+'), t.localNvmeGiB])).toEqual([
      ['m4.large', 'amd64', 'xen', 'on-demand', 0],
      ['m6g.metal', 'arm64', '', 'on-demand+spot', 125],
    ]);
  });

  it('leaves out what cannot be a node, and answers missing a fact, each with the reason', () => {
    const { types, skipped } = instanceTypeFacts([
      g4dn,
      { ...g4dn, InstanceType: 'mac2.metal' },
      { ...g4dn, InstanceType: 't1.micro', ProcessorInfo: { SupportedArchitectures: ['i386'] } },
      { ...g4dn, InstanceType: 'c1.medium', SupportedVirtualizationTypes: ['paravirtual'] },
      { ...g4dn, InstanceType: 'u-6tb1.56xlarge', SupportedUsageClasses: ['capacity-block'] },
      { ...g4dn, InstanceType: 'm5.large', VCpuInfo: {} },
      {
        ...g4dn,
        InstanceType: 'm5.xlarge',
        NetworkInfo: { ...g4dn.NetworkInfo, Ipv4AddressesPerInterface: undefined },
      },
      { ...g4dn, InstanceType: undefined },
      g4dn,
    ]);
    expect(types.map((t) => t.name)).toEqual(['g4dn.xlarge']);
    expect(skipped).toEqual([
      { at: 'DescribeInstanceTypes mac2.metal', reason: 'Mac instances cannot be Kubernetes nodes' },
      { at: 'DescribeInstanceTypes t1.micro', reason: 'no x86_64 or arm64 architecture (i386)' },
      { at: 'DescribeInstanceTypes c1.medium', reason: 'no HVM virtualization' },
      { at: 'DescribeInstanceTypes u-6tb1.56xlarge', reason: 'sold neither on-demand nor spot' },
      { at: 'DescribeInstanceTypes m5.large', reason: 'VCpuInfo.DefaultVCpus is missing' },
      { at: 'DescribeInstanceTypes m5.xlarge', reason: 'NetworkInfo.Ipv4AddressesPerInterface is missing' },
      {
        at: 'DescribeInstanceTypes InstanceTypes[7]',
        reason: 'InstanceType is missing or not <family>.<size>',
      },
      { at: 'DescribeInstanceTypes g4dn.xlarge', reason: 'listed twice' },
    ]);
  });
});
