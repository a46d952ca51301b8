import type { InstanceType } from '../model/instance-type.js';
import * as L from './well-known-labels.js';

/** `<category><generation><attributes>.<size>`, e.g. `r6gd.xlarge`, `u-6tb1.metal`, `x1e.8xlarge`. */
const NAME = /^([a-z]+)(-[0-9]+tb)?([0-9]+)[a-z0-9-]*\.(.+)$/;

/** The parts of an instance type name Karpenter turns into labels. */
export interface InstanceTypeNameParts {
  readonly family: string;
  readonly category: string;
  readonly generation: string;
  readonly size: string;
}

/** Splits an instance type name into family, category, generation and size (`c6i.2xlarge` -> c6i, c, 6, 2xlarge). */
export function parseInstanceTypeName(name: string): InstanceTypeNameParts {
  const dot = name.indexOf('.');
  const match = NAME.exec(name);
  if (dot < 0 || !match) {
    throw new Error(`instance type name "${name}" does not look like <family>.<size> (e.g. "m5.large")`);
  }
  return { family: name.slice(0, dot), category: match[1], generation: match[3], size: match[4] };
}

/**
 * The labels every node of this instance type carries, with Karpenter's value formats:
 * `node.kubernetes.io/instance-type`, `kubernetes.io/arch`, `kubernetes.io/os`,
 * `topology.kubernetes.io/region` and `karpenter.k8s.aws/instance-*` (cpu and memory in MiB as
 * integers, GPU name and manufacturer lower-case with dashes for spaces, GPU memory in MiB per GPU). GPU, local NVMe and
 * network bandwidth labels are present only when the type has them, and so are the CPU
 * manufacturer (lower case) and sustained clock speed (MHz) when the catalog knows them; tenancy
 * is `default` (joiner launches on shared hardware). Zone, capacity type and
 * nodepool labels come from the offering and the pool.
 */
export function instanceTypeLabels(it: InstanceType, region: string): Record<string, string> {
  const parts = parseInstanceTypeName(it.name);
  const labels: Record<string, string> = {
    [L.LABEL_INSTANCE_TYPE]: it.name,
    [L.LABEL_ARCH]: it.arch,
    [L.LABEL_OS]: 'linux',
    [L.LABEL_REGION]: region,
    [L.LABEL_INSTANCE_FAMILY]: parts.family,
    [L.LABEL_INSTANCE_CATEGORY]: parts.category,
    [L.LABEL_INSTANCE_GENERATION]: parts.generation,
    [L.LABEL_INSTANCE_SIZE]: parts.size,
    [L.LABEL_INSTANCE_CPU]: String(it.vcpu),
    [L.LABEL_INSTANCE_MEMORY]: String(it.memoryMiB),
    [L.LABEL_INSTANCE_ENCRYPTION_IN_TRANSIT]: String(it.encryptionInTransit ?? false),
    [L.LABEL_INSTANCE_TENANCY]: L.DEFAULT_TENANCY,
  };
  if (it.cpuManufacturer) labels[L.LABEL_INSTANCE_CPU_MANUFACTURER] = kebabLower(it.cpuManufacturer);
  if (it.sustainedClockSpeedMhz)
    labels[L.LABEL_INSTANCE_CPU_SUSTAINED_CLOCK_SPEED] = String(it.sustainedClockSpeedMhz);
  const hypervisor = it.hypervisor ?? 'nitro';
  if (hypervisor !== '') labels[L.LABEL_INSTANCE_HYPERVISOR] = hypervisor;
  if (it.networkBandwidthMbps) labels[L.LABEL_INSTANCE_NETWORK_BANDWIDTH] = String(it.networkBandwidthMbps);
  if (it.ebsBandwidthMbps) labels[L.LABEL_INSTANCE_EBS_BANDWIDTH] = String(it.ebsBandwidthMbps);
  if (it.localNvmeGiB) labels[L.LABEL_INSTANCE_LOCAL_NVME] = String(it.localNvmeGiB);
  if (it.gpus && it.gpus.count > 0) {
    labels[L.LABEL_INSTANCE_GPU_COUNT] = String(it.gpus.count);
    labels[L.LABEL_INSTANCE_GPU_NAME] = kebabLower(it.gpus.name);
    labels[L.LABEL_INSTANCE_GPU_MANUFACTURER] = kebabLower(it.gpus.manufacturer);
    labels[L.LABEL_INSTANCE_GPU_MEMORY] = String(it.gpus.memoryMiB);
  }
  if (it.accelerators && it.accelerators.count > 0) {
    labels[L.LABEL_INSTANCE_ACCELERATOR_NAME] = kebabLower(it.accelerators.name);
    labels[L.LABEL_INSTANCE_ACCELERATOR_MANUFACTURER] = kebabLower(it.accelerators.manufacturer);
    labels[L.LABEL_INSTANCE_ACCELERATOR_COUNT] = String(it.accelerators.count);
  }
  return labels;
}

/** Lower case with spaces as dashes, so a name such as "Radeon Pro V520" is a valid label value. */
function kebabLower(value: string): string {
  return value.trim().toLowerCase().replace(/\s+/g, '-');
}
