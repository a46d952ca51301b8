import type { InstanceType } from '../model/instance-type.js';
import type { AmiFamily, KubeletConfiguration } from '../model/node-class.js';
import { EFA, type Resources } from '../model/resources.js';
import { evictionThreshold, kubeReserved, parseResourceMap } from './reserved.js';

const MIB = 2 ** 20;
const GIB = 2 ** 30;
/** EC2 reports instance store sizes in decimal gigabytes. */
const GB = 1e9;
/** Memory Graviton (arm64) instances keep for the contiguous memory allocator, not usable by pods. */
const ARM64_CMA_MIB = 64;

/** What changes the allocatable of an instance type beyond the type itself (from the NodeClass). */
export interface AllocatableOptions {
  /** The NodeClass kubelet settings (maxPods, podsPerCore, kubeReserved, systemReserved, evictionHard/Soft). */
  readonly kubelet?: KubeletConfiguration;
  /**
   * ENIs Multus interfaces take on the default network card; they are subtracted before the
   * ENI-limited max pods. Default 0.
   */
  readonly multusEnis?: number;
  /** Share of memory the hypervisor keeps. Default 0.075. */
  readonly vmMemoryOverheadPercent?: number;
  /**
   * Size in bytes of the volume backing ephemeral storage (from the NodeClass blockDeviceMappings:
   * the root volume, or Bottlerocket's data volume). Default 20 GiB.
   */
  readonly rootVolumeBytes?: number;
  /** With `RAID0`, ephemeral storage is the instance store (all its disks) when the type has one. */
  readonly instanceStorePolicy?: 'RAID0';
  /** The AMI family the nodes boot (Bottlerocket ignores `podsPerCore`). */
  readonly amiFamily?: AmiFamily;
}

/** Capacity, allocatable and the overhead between them. */
export interface NodeCapacity {
  readonly capacity: Resources;
  readonly allocatable: Resources;
  readonly overhead: {
    readonly kubeReserved: Resources;
    readonly systemReserved: Resources;
    readonly evictionThreshold: Resources;
  };
}

/**
 * ENIs of the type's default network card, the ones the VPC CNI uses, and of every other card:
 * `maxEnis` split evenly over the network cards (as EC2 reports them: p4d.24xlarge 60 over 4
 * cards, 15 each).
 */
export function defaultCardEnis(it: Pick<InstanceType, 'maxEnis' | 'networkCards'>): number {
  return Math.ceil(it.maxEnis / Math.max(1, it.networkCards ?? 1));
}

/**
 * ENI-limited max pods: `(default card ENIs - multusEnis) x (ipv4PerEni - 1) + 2`, 0 when no ENI is
 * left; the VPC CNI uses the default network card only, as Karpenter counts it.
 */
export function eniLimitedPods(it: InstanceType, multusEnis = 0): number {
  const usable = defaultCardEnis(it) - multusEnis;
  if (usable <= 0) return 0;
  return usable * (it.ipv4PerEni - 1) + 2;
}

/**
 * Max pods of a node of this type: an explicit `maxPods` on the catalog entry wins; otherwise the
 * kubelet maxPods or the ENI-limited count (Multus ENIs subtracted), capped by podsPerCore x vCPUs
 * except on Bottlerocket, whose settings have no pods-per-core (Karpenter ignores it there too).
 */
export function maxPods(it: InstanceType, options: AllocatableOptions = {}): number {
  if (it.maxPods !== undefined) return it.maxPods;
  const kubelet = options.kubelet;
  let pods = kubelet?.maxPods ?? eniLimitedPods(it, options.multusEnis ?? 0);
  const podsPerCore = options.amiFamily === 'Bottlerocket' ? undefined : kubelet?.podsPerCore;
  if (podsPerCore !== undefined && podsPerCore > 0) {
    pods = Math.min(pods, podsPerCore * it.vcpu);
  }
  return pods;
}

function memoryCapacityBytes(it: InstanceType, overheadPercent: number): number {
  if (!(overheadPercent >= 0 && overheadPercent < 1)) {
    throw new Error(
      `vmMemoryOverheadPercent ${overheadPercent} must be a fraction between 0 and 1 (e.g. 0.075)`,
    );
  }
  const mib = it.arch === 'arm64' ? it.memoryMiB - ARM64_CMA_MIB : it.memoryMiB;
  return (mib - Math.ceil(mib * overheadPercent)) * MIB;
}

/**
 * Ephemeral storage capacity: with RAID0 the whole instance store (its size as EC2 reports it, in
 * decimal GB, as Karpenter counts it), else the volume that backs the kubelet's storage.
 */
function storageBytes(it: InstanceType, options: AllocatableOptions): number {
  if (options.instanceStorePolicy === 'RAID0' && it.localNvmeGiB) return it.localNvmeGiB * GB;
  return options.rootVolumeBytes ?? 20 * GIB;
}

/** Extended resources of Neuron devices and NeuronCores (the Neuron device plugin's names). */
const NEURON = 'aws.amazon.com/neuron';
const NEURON_CORE = 'aws.amazon.com/neuroncore';

/**
 * Extended resource name of the type's GPUs by manufacturer, as Karpenter maps them: NVIDIA
 * `nvidia.com/gpu`, AMD `amd.com/gpu`, Habana `habana.ai/gaudi`; another manufacturer's devices
 * get no resource (no device plugin name is known for them).
 */
export function gpuResource(manufacturer: string): string | undefined {
  switch (manufacturer.trim().toLowerCase()) {
    case 'nvidia':
      return 'nvidia.com/gpu';
    case 'amd':
      return 'amd.com/gpu';
    case 'habana':
      return 'habana.ai/gaudi';
    default:
      return undefined;
  }
}

/**
 * Capacity and allocatable of a node of this type, with Karpenter's AWS formulas (extended
 * resources: GPUs, Neuron devices and cores, and `vpc.amazonaws.com/efa` = the type's EFA
 * interfaces, as Karpenter counts them when no NodeClass interfaces are set): memory after the
 * VM overhead (and, on arm64, the 64 MiB CMA reserve), kube-reserved (cpu steps, 11 MiB x pods + 255 MiB, 1 GiB storage), system-reserved
 * (kubelet only), eviction threshold (100 MiB memory, 10% nodefs) and ENI-limited max pods.
 */
export function nodeCapacity(it: InstanceType, options: AllocatableOptions = {}): NodeCapacity {
  const pods = maxPods(it, options);
  const capacity: Resources = {
    cpu: it.vcpu * 1000,
    memory: memoryCapacityBytes(it, options.vmMemoryOverheadPercent ?? 0.075),
    'ephemeral-storage': storageBytes(it, options),
    pods,
  };
  const gpu = it.gpus && it.gpus.count > 0 ? gpuResource(it.gpus.manufacturer) : undefined;
  if (gpu && it.gpus) capacity[gpu] = it.gpus.count;
  if (it.maxEfaInterfaces) capacity[EFA] = it.maxEfaInterfaces;
  if (it.accelerators && it.accelerators.count > 0) {
    capacity[NEURON] = it.accelerators.count;
    if (it.accelerators.coresPerDevice)
      capacity[NEURON_CORE] = it.accelerators.count * it.accelerators.coresPerDevice;
  }
  const reserved = kubeReserved(capacity.cpu, pods, options.kubelet);
  if (it.overhead?.kubeReservedCpuMillis !== undefined) reserved.cpu = it.overhead.kubeReservedCpuMillis;
  if (it.overhead?.kubeReservedMemoryMiB !== undefined)
    reserved.memory = it.overhead.kubeReservedMemoryMiB * MIB;
  const systemReserved = parseResourceMap(options.kubelet?.systemReserved, 'systemReserved');
  const eviction = evictionThreshold(capacity.memory, capacity['ephemeral-storage'], options.kubelet);
  const allocatable: Resources = {};
  for (const [name, amount] of Object.entries(capacity)) {
    if (name === 'pods') {
      allocatable[name] = amount;
      continue;
    }
    const minus = (reserved[name] ?? 0) + (systemReserved[name] ?? 0) + (eviction[name] ?? 0);
    allocatable[name] = Math.max(0, amount - minus);
  }
  return {
    capacity,
    allocatable,
    overhead: { kubeReserved: reserved, systemReserved, evictionThreshold: eviction },
  };
}
