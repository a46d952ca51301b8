/**
 * What a kubelet reports for an instance type: capacity and allocatable as Kubernetes quantities,
 * and the node labels. The numbers and the kubelet's labels come from joiner's catalog (the same
 * formulas the scheduler plans with: VM overhead, kube-reserved, system-reserved, eviction
 * thresholds, ENI-limited max pods); the kubelet adds only what a real kubelet adds itself (the
 * deprecated beta labels) and honours the overrides its user data asks for.
 */
import { nodeCapacity } from '../../../core/catalog/allocatable.js';
import { instanceTypeLabels } from '../../../core/catalog/labels.js';
import type { InstanceType } from '../../../core/model/instance-type.js';
import { formatBytes, formatCpu } from '../../../core/model/quantity.js';
import type { Resources } from '../../../core/model/resources.js';

/** Kubelet overrides read from the node's user data. */
export interface KubeletOverrides {
  readonly maxPods?: number;
  readonly kubeReserved?: Record<string, string>;
  readonly systemReserved?: Record<string, string>;
  readonly evictionHard?: Record<string, string>;
  /** `RAID0` when the user data builds the instance store array: ephemeral storage is the instance store. */
  readonly instanceStorePolicy?: 'RAID0';
}

/** Capacity and allocatable as Kubernetes quantity strings. */
export interface NodeResources {
  readonly capacity: Record<string, string>;
  readonly allocatable: Record<string, string>;
}

function quantities(resources: Resources): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, amount] of Object.entries(resources)) {
    if (name === 'cpu') out[name] = formatCpu(amount);
    else if (name === 'memory' || name === 'ephemeral-storage') out[name] = formatBytes(amount);
    else out[name] = String(amount);
  }
  return out;
}

/** Computes a node's capacity and allocatable for an instance type and the kubelet's overrides. */
export function nodeResources(type: InstanceType, kubelet: KubeletOverrides = {}): NodeResources {
  const { capacity, allocatable } = nodeCapacity(type, {
    kubelet: {
      maxPods: kubelet.maxPods,
      kubeReserved: kubelet.kubeReserved,
      systemReserved: kubelet.systemReserved,
      evictionHard: kubelet.evictionHard,
    },
    instanceStorePolicy: kubelet.instanceStorePolicy,
  });
  return { capacity: quantities(capacity), allocatable: quantities(allocatable) };
}

/**
 * The labels a node of this type registers with, as the kubelet and the AWS cloud controller set
 * them: instance type, arch, os, region and their deprecated beta forms (zone and hostname are
 * added at registration). Not Karpenter's `karpenter.k8s.aws/*` instance labels: no kubelet sets
 * those, the autoscaler puts them on the node (joiner does when the node registers).
 */
export function nodeLabels(type: InstanceType, region: string): Record<string, string> {
  const fromCatalog = Object.entries(instanceTypeLabels(type, region)).filter(
    ([key]) => !key.startsWith('karpenter.k8s.aws/'),
  );
  return {
    ...Object.fromEntries(fromCatalog),
    'beta.kubernetes.io/instance-type': type.name,
    'beta.kubernetes.io/arch': type.arch,
    'beta.kubernetes.io/os': 'linux',
    'failure-domain.beta.kubernetes.io/region': region,
  };
}
