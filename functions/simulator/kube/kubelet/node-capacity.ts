/**
 * What a kubelet reports for an instance type: capacity and allocatable (after kube-reserved,
 * system-reserved and hard-eviction thresholds, with the EKS AMI formulas Karpenter also uses) and
 * the well-known node labels.
 */
import type { InstanceType } from '../../../core/model/instance-type.js';
import { formatBytes, formatCpu, parseResource } from '../../../core/model/quantity.js';

const MI = 2 ** 20;
const GI = 2 ** 30;
/** Share of the memory the hypervisor and firmware keep (Karpenter's VM_MEMORY_OVERHEAD_PERCENT). */
const VM_MEMORY_OVERHEAD = 0.075;
const ROOT_VOLUME_BYTES = 20 * GI;

/** The ENI-limited pod count of the EKS AMIs: ENIs x (IPv4 per ENI - 1) + 2. */
export function eniLimitedPods(type: InstanceType): number {
  return type.maxPods ?? type.maxEnis * (type.ipv4PerEni - 1) + 2;
}

/** The kube-reserved CPU of the EKS AMIs in millicores (6% / 1% / 0.5% / 0.25% of successive cores). */
export function kubeReservedCpuMillis(vcpu: number): number {
  const millis = vcpu * 1000;
  const bands: [number, number][] = [
    [1000, 0.06],
    [1000, 0.01],
    [2000, 0.005],
    [Number.POSITIVE_INFINITY, 0.0025],
  ];
  let left = millis;
  let reserved = 0;
  for (const [size, share] of bands) {
    const part = Math.min(left, size);
    reserved += part * share;
    left -= part;
  }
  return Math.round(reserved);
}

/** Kubelet overrides read from the node's user data. */
export interface KubeletOverrides {
  readonly maxPods?: number;
  readonly kubeReserved?: Record<string, string>;
  readonly systemReserved?: Record<string, string>;
  readonly evictionHard?: Record<string, string>;
}

/** Capacity and allocatable as Kubernetes quantity strings. */
export interface NodeResources {
  readonly capacity: Record<string, string>;
  readonly allocatable: Record<string, string>;
}

function reserved(map: Record<string, string> | undefined, name: string, fallback: number): number {
  const v = map?.[name];
  return v === undefined ? fallback : parseResource(name, v);
}

/** Computes a node's capacity and allocatable for an instance type. */
export function nodeResources(type: InstanceType, kubelet: KubeletOverrides = {}): NodeResources {
  const pods = kubelet.maxPods ?? eniLimitedPods(type);
  const cpu = type.vcpu * 1000;
  const memory = Math.floor(type.memoryMiB * (1 - VM_MEMORY_OVERHEAD)) * MI;
  const kubeCpu = reserved(
    kubelet.kubeReserved,
    'cpu',
    type.overhead?.kubeReservedCpuMillis ?? kubeReservedCpuMillis(type.vcpu),
  );
  const kubeMem = reserved(
    kubelet.kubeReserved,
    'memory',
    (type.overhead?.kubeReservedMemoryMiB ?? 11 * pods + 255) * MI,
  );
  const sysCpu = reserved(kubelet.systemReserved, 'cpu', 0);
  const sysMem = reserved(kubelet.systemReserved, 'memory', 0);
  const evictMem = reserved(kubelet.evictionHard, 'memory.available', 100 * MI);
  const storage = ROOT_VOLUME_BYTES + (type.localNvmeGiB ?? 0) * GI;
  const capacity: Record<string, string> = {
    cpu: formatCpu(cpu),
    memory: formatBytes(memory),
    pods: String(pods),
    'ephemeral-storage': formatBytes(storage),
  };
  const allocatable: Record<string, string> = {
    cpu: formatCpu(Math.max(0, cpu - kubeCpu - sysCpu)),
    memory: formatBytes(Math.max(0, memory - kubeMem - sysMem - evictMem)),
    pods: String(pods),
    'ephemeral-storage': formatBytes(Math.floor(storage * 0.9) - GI),
  };
  if (type.gpus && type.gpus.manufacturer.toLowerCase() === 'nvidia') {
    capacity['nvidia.com/gpu'] = String(type.gpus.count);
    allocatable['nvidia.com/gpu'] = String(type.gpus.count);
  }
  return { capacity, allocatable };
}

/** The well-known labels a node of this type carries (zone and hostname added by the kubelet). */
export function instanceTypeLabels(type: InstanceType, region: string): Record<string, string> {
  const [family, size = ''] = type.name.split('.');
  const category = /^[a-z]+/.exec(family)?.[0] ?? family;
  const generation = /\d+/.exec(family)?.[0] ?? '';
  const labels: Record<string, string> = {
    'node.kubernetes.io/instance-type': type.name,
    'beta.kubernetes.io/instance-type': type.name,
    'kubernetes.io/arch': type.arch,
    'beta.kubernetes.io/arch': type.arch,
    'kubernetes.io/os': 'linux',
    'beta.kubernetes.io/os': 'linux',
    'topology.kubernetes.io/region': region,
    'failure-domain.beta.kubernetes.io/region': region,
    'karpenter.k8s.aws/instance-category': category,
    'karpenter.k8s.aws/instance-family': family,
    'karpenter.k8s.aws/instance-generation': generation,
    'karpenter.k8s.aws/instance-size': size,
    'karpenter.k8s.aws/instance-cpu': String(type.vcpu),
    'karpenter.k8s.aws/instance-memory': String(type.memoryMiB),
    'karpenter.k8s.aws/instance-hypervisor': type.hypervisor ?? 'nitro',
    'karpenter.k8s.aws/instance-encryption-in-transit-supported': String(type.encryptionInTransit ?? false),
  };
  if (type.networkBandwidthMbps)
    labels['karpenter.k8s.aws/instance-network-bandwidth'] = String(type.networkBandwidthMbps);
  if (type.localNvmeGiB) labels['karpenter.k8s.aws/instance-local-nvme'] = String(type.localNvmeGiB);
  if (type.gpus) {
    labels['karpenter.k8s.aws/instance-gpu-count'] = String(type.gpus.count);
    labels['karpenter.k8s.aws/instance-gpu-manufacturer'] = type.gpus.manufacturer.toLowerCase();
    labels['karpenter.k8s.aws/instance-gpu-name'] = type.gpus.name.toLowerCase();
    labels['karpenter.k8s.aws/instance-gpu-memory'] = String(type.gpus.memoryMiB);
  }
  return labels;
}
