/**
 * DescribeInstanceTypes answers as catalog instance types (docs/catalog.md): the facts the
 * allocatable model and the well-known labels use, without offerings (those come from the
 * offerings and prices).
 */
import type { InstanceType } from '../../model/instance-type.js';
import type { InstanceTypeInfoShape, SkippedEntry } from './api-shapes.js';

/** An instance type's facts: a catalog type without offerings, plus the capacity types EC2 sells it as. */
export interface InstanceTypeFacts extends Omit<InstanceType, 'offerings'> {
  /** `SupportedUsageClasses` joiner launches (`on-demand`, `spot`). */
  readonly usage: readonly ('on-demand' | 'spot')[];
}

/** What {@link instanceTypeFacts} made of a DescribeInstanceTypes answer. */
export interface InstanceTypeConversion {
  readonly types: InstanceTypeFacts[];
  /** Types left out, each with the reason (not a Linux node type joiner can run, or a field missing). */
  readonly skipped: SkippedEntry[];
}

const NAME = /^[a-z0-9-]+\.[a-z0-9-]+$/;

/**
 * Converts every `InstanceTypeInfo` of DescribeInstanceTypes (all pages). Types a Kubernetes node
 * cannot be (no x86_64/arm64 architecture, no HVM, Mac hosts, no usage class joiner buys) and
 * answers missing a required fact are skipped with a reason, so one odd type never fails a refresh.
 */
export function instanceTypeFacts(infos: readonly InstanceTypeInfoShape[]): InstanceTypeConversion {
  const types: InstanceTypeFacts[] = [];
  const skipped: SkippedEntry[] = [];
  const seen = new Set<string>();
  infos.forEach((info, index) => {
    const name = info.InstanceType;
    const at = `DescribeInstanceTypes ${name ?? `InstanceTypes[${index}]`}`;
    const result = convert(info);
    if (typeof result === 'string') skipped.push({ at, reason: result });
    else if (seen.has(result.name)) skipped.push({ at, reason: 'listed twice' });
    else {
      seen.add(result.name);
      types.push(result);
    }
  });
  types.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { types, skipped };
}

/** The facts of one type, or why it is left out. */
function convert(info: InstanceTypeInfoShape): InstanceTypeFacts | string {
  const name = info.InstanceType;
  if (!name || !NAME.test(name)) return 'InstanceType is missing or not <family>.<size>';
  if (name.startsWith('mac')) return 'Mac instances cannot be Kubernetes nodes';
  const archs = info.ProcessorInfo?.SupportedArchitectures ?? [];
  const arch = archs.includes('arm64') ? 'arm64' : archs.includes('x86_64') ? 'amd64' : undefined;
  if (!arch) return `no x86_64 or arm64 architecture (${archs.join(', ') || 'none'})`;
  const virtualization = info.SupportedVirtualizationTypes;
  if (virtualization && !virtualization.includes('hvm')) return 'no HVM virtualization';
  const usage = (info.SupportedUsageClasses ?? []).filter(
    (u): u is 'on-demand' | 'spot' => u === 'on-demand' || u === 'spot',
  );
  if (usage.length === 0) return 'sold neither on-demand nor spot';
  const vcpu = positive(info.VCpuInfo?.DefaultVCpus);
  if (vcpu === undefined) return 'VCpuInfo.DefaultVCpus is missing';
  const memoryMiB = positive(info.MemoryInfo?.SizeInMiB);
  if (memoryMiB === undefined) return 'MemoryInfo.SizeInMiB is missing';
  const network = info.NetworkInfo ?? {};
  const maxEnis = positive(network.MaximumNetworkInterfaces);
  if (maxEnis === undefined) return 'NetworkInfo.MaximumNetworkInterfaces is missing';
  const ipv4PerEni = positive(network.Ipv4AddressesPerInterface);
  if (ipv4PerEni === undefined) return 'NetworkInfo.Ipv4AddressesPerInterface is missing';
  const networkCards = Math.min(positive(network.MaximumNetworkCards) ?? 1, maxEnis);
  const efa = network.EfaSupported ? positive(network.EfaInfo?.MaximumEfaInterfaces) : undefined;
  const storage = info.InstanceStorageInfo;
  const localNvmeGiB =
    info.InstanceStorageSupported !== false && storage && storage.NvmeSupport !== 'unsupported'
      ? Math.round(storage.TotalSizeInGB ?? 0)
      : 0;
  const bandwidth = baselineBandwidthMbps(network);
  const ebs = positive(info.EbsInfo?.EbsOptimizedInfo?.BaselineBandwidthInMbps);
  const clock = positive(info.ProcessorInfo?.SustainedClockSpeedInGhz);
  const facts: InstanceTypeFacts = {
    name,
    vcpu,
    memoryMiB,
    arch,
    ...gpusOf(info),
    ...acceleratorsOf(info),
    maxEnis,
    ipv4PerEni,
    networkCards,
    ...(efa ? { maxEfaInterfaces: Math.min(efa, networkCards) } : {}),
    localNvmeGiB,
    ...(bandwidth ? { networkBandwidthMbps: bandwidth } : {}),
    ...(ebs ? { ebsBandwidthMbps: Math.round(ebs) } : {}),
    hypervisor: info.BareMetal ? '' : info.Hypervisor === 'xen' ? 'xen' : 'nitro',
    encryptionInTransit: network.EncryptionInTransitSupported ?? false,
    ...(info.ProcessorInfo?.Manufacturer ? { cpuManufacturer: info.ProcessorInfo.Manufacturer } : {}),
    ...(clock ? { sustainedClockSpeedMhz: Math.round(clock * 1000) } : {}),
    usage,
  };
  return facts;
}

function positive(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * Baseline bandwidth of the instance in Mbps, the sum over its network cards (Karpenter's
 * instance-network-bandwidth label is the instance's baseline, not one card's).
 */
function baselineBandwidthMbps(network: NonNullable<InstanceTypeInfoShape['NetworkInfo']>): number {
  const gbps = (network.NetworkCards ?? []).reduce((sum, c) => sum + (c.BaselineBandwidthInGbps ?? 0), 0);
  return gbps > 0 ? Math.round(gbps * 1000) : 0;
}

/** The Neuron accelerators (devices of NeuronInfo counted; name and cores of the first). */
function acceleratorsOf(info: InstanceTypeInfoShape): Pick<InstanceType, 'accelerators'> {
  const devices = (info.NeuronInfo?.NeuronDevices ?? []).filter((d) => (d.Count ?? 0) > 0);
  const first = devices[0];
  if (!first) return {};
  const cores = first.CoreInfo?.Count;
  return {
    accelerators: {
      count: devices.reduce((sum, d) => sum + (d.Count ?? 0), 0),
      name: first.Name || 'unknown',
      manufacturer: 'AWS',
      ...(cores && cores > 0 ? { coresPerDevice: cores } : {}),
    },
  };
}

/** The GPUs (all entries of GpuInfo counted; name, manufacturer and memory of the first). */
function gpusOf(info: InstanceTypeInfoShape): Pick<InstanceType, 'gpus'> {
  const gpus = (info.GpuInfo?.Gpus ?? []).filter((g) => (g.Count ?? 0) > 0);
  const first = gpus[0];
  if (!first) return {};
  return {
    gpus: {
      count: gpus.reduce((sum, g) => sum + (g.Count ?? 0), 0),
      manufacturer: first.Manufacturer || 'unknown',
      name: first.Name || 'unknown',
      memoryMiB: Math.max(0, Math.round(first.MemoryInfo?.SizeInMiB ?? 0)),
    },
  };
}
