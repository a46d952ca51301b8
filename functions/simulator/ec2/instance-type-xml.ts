/** A catalog instance type as DescribeInstanceTypes describes it (`InstanceTypeInfo`). */
import type { InstanceType } from '../../core/model/instance-type.js';
import type { XmlObject } from './xml-response.js';

/** Architecture name EC2 uses for a catalog architecture. */
export function ec2Architecture(arch: InstanceType['arch']): 'x86_64' | 'arm64' {
  return arch === 'arm64' ? 'arm64' : 'x86_64';
}

/** The processor manufacturer implied by the type's family (Graviton, AMD `a` suffix, else Intel). */
function manufacturer(type: InstanceType): string {
  if (type.arch === 'arm64') return 'AWS';
  const family = type.name.split('.')[0];
  return /^[a-z]+\d+[a-z]*a[a-z]*$/.test(family) && !family.startsWith('a1') ? 'AMD' : 'Intel';
}

export function instanceTypeXml(type: InstanceType): XmlObject {
  const capacityTypes = [...new Set(type.offerings.map((o) => o.capacityType))].filter(
    (c) => c !== 'reserved',
  );
  const cards = type.networkCards ?? 1;
  const bandwidth = type.networkBandwidthMbps;
  const performance = bandwidth ? `Up to ${Math.round(bandwidth / 1000)} Gigabit` : 'Moderate';
  const metal = type.name.endsWith('.metal') || type.name.includes('.metal-');
  const threads = type.arch === 'arm64' || type.vcpu === 1 ? 1 : 2;
  return {
    instanceType: type.name,
    currentGeneration: true,
    freeTierEligible: false,
    supportedUsageClasses: capacityTypes,
    supportedRootDeviceTypes: ['ebs'],
    supportedVirtualizationTypes: ['hvm'],
    bareMetal: metal,
    hypervisor: metal ? undefined : type.hypervisor === '' ? undefined : (type.hypervisor ?? 'nitro'),
    processorInfo: {
      supportedArchitectures: [ec2Architecture(type.arch)],
      manufacturer: type.cpuManufacturer ?? manufacturer(type),
      ...(type.sustainedClockSpeedMhz
        ? { sustainedClockSpeedInGhz: type.sustainedClockSpeedMhz / 1000 }
        : {}),
    },
    vCpuInfo: {
      defaultVCpus: type.vcpu,
      defaultCores: Math.max(1, Math.floor(type.vcpu / threads)),
      defaultThreadsPerCore: threads,
    },
    memoryInfo: { sizeInMiB: type.memoryMiB },
    instanceStorageSupported: (type.localNvmeGiB ?? 0) > 0,
    instanceStorageInfo:
      (type.localNvmeGiB ?? 0) > 0
        ? {
            totalSizeInGB: type.localNvmeGiB,
            disks: [{ sizeInGB: type.localNvmeGiB, count: 1, type: 'ssd' }],
            nvmeSupport: 'required',
            encryptionSupport: 'required',
          }
        : undefined,
    ebsInfo: {
      ebsOptimizedSupport: 'default',
      encryptionSupport: 'supported',
      nvmeSupport: 'required',
      ebsOptimizedInfo: type.ebsBandwidthMbps
        ? { baselineBandwidthInMbps: type.ebsBandwidthMbps, maximumBandwidthInMbps: type.ebsBandwidthMbps }
        : undefined,
    },
    networkInfo: {
      networkPerformance: performance,
      maximumNetworkInterfaces: type.maxEnis,
      maximumNetworkCards: cards,
      defaultNetworkCardIndex: 0,
      networkCards: Array.from({ length: cards }, (_, index) => ({
        networkCardIndex: index,
        networkPerformance: performance,
        maximumNetworkInterfaces: Math.ceil(type.maxEnis / cards),
        baselineBandwidthInGbps: bandwidth ? bandwidth / 1000 / cards : undefined,
      })),
      ipv4AddressesPerInterface: type.ipv4PerEni,
      ipv6AddressesPerInterface: type.ipv4PerEni,
      ipv6Supported: true,
      enaSupport: 'required',
      efaSupported: (type.maxEfaInterfaces ?? 0) > 0,
      efaInfo: type.maxEfaInterfaces ? { maximumEfaInterfaces: type.maxEfaInterfaces } : undefined,
      encryptionInTransitSupported: type.encryptionInTransit ?? false,
    },
    gpuInfo: type.gpus
      ? {
          gpus: [
            {
              name: type.gpus.name,
              manufacturer: type.gpus.manufacturer,
              count: type.gpus.count,
              memoryInfo: { sizeInMiB: type.gpus.memoryMiB },
            },
          ],
          totalGpuMemoryInMiB: type.gpus.memoryMiB * type.gpus.count,
        }
      : undefined,
    neuronInfo: type.accelerators
      ? {
          neuronDevices: [
            {
              count: type.accelerators.count,
              name: type.accelerators.name,
              coreInfo: type.accelerators.coresPerDevice
                ? { count: type.accelerators.coresPerDevice, version: 2 }
                : undefined,
            },
          ],
        }
      : undefined,
    placementGroupInfo: { supportedStrategies: ['cluster', 'partition', 'spread'] },
    hibernationSupported: false,
    burstablePerformanceSupported: /^t\d/.test(type.name),
    dedicatedHostsSupported: true,
    autoRecoverySupported: true,
    supportedBootModes: type.arch === 'arm64' ? ['uefi'] : ['legacy-bios', 'uefi'],
  };
}
