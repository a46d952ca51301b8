/** Small hand-made instance types and inputs for scheduler tests. */
import type { ResolvedInstanceType } from '../../../../functions/core/model/instance-type.js';
import type { Pod } from '../../../../functions/core/model/kube-objects.js';
import type { NodePool } from '../../../../functions/core/model/node-pool.js';
import type {
  ExistingNode,
  ScheduleInput,
  SchedulingPool,
} from '../../../../functions/core/scheduling/types.js';

const GI = 2 ** 30;
export const ZONES = ['zone-a', 'zone-b', 'zone-c'];

/** Options of `instanceType()`. */
export interface TypeOptions {
  arch?: 'amd64' | 'arm64';
  family?: string;
  gpus?: number;
  zones?: string[];
  spotDiscount?: number;
  spot?: boolean;
  pods?: number;
}

/** An instance type with `cpu` vCPUs, `memGi` GiB, an on-demand price, spot in every zone (cheaper). */
export function instanceType(
  name: string,
  cpu: number,
  memGi: number,
  price: number,
  o: TypeOptions = {},
): ResolvedInstanceType {
  const zones = o.zones ?? ZONES;
  const family = o.family ?? name.split('.')[0];
  const gpu: Record<string, number> = o.gpus ? { 'nvidia.com/gpu': o.gpus } : {};
  return {
    name,
    labels: {
      'node.kubernetes.io/instance-type': name,
      'kubernetes.io/arch': o.arch ?? 'amd64',
      'kubernetes.io/os': 'linux',
      'karpenter.k8s.aws/instance-family': family,
      'karpenter.k8s.aws/instance-cpu': String(cpu),
      'karpenter.k8s.aws/instance-memory': String(memGi * 1024),
      'karpenter.k8s.aws/instance-size': name.split('.')[1] ?? 'large',
    },
    capacity: { cpu: cpu * 1000, memory: memGi * GI, pods: o.pods ?? 58, ...gpu },
    allocatable: { cpu: cpu * 1000 - 100, memory: memGi * GI - 0.5 * GI, pods: o.pods ?? 58, ...gpu },
    offerings: [
      ...zones.map((zone) => ({ zone, capacityType: 'on-demand' as const, price, available: true })),
      ...(o.spot === false
        ? []
        : zones.map((zone) => ({
            zone,
            capacityType: 'spot' as const,
            price: price * (o.spotDiscount ?? 0.4),
            available: true,
          }))),
    ],
  };
}

/** A little general-purpose catalog: m-like (4 GiB/vCPU), c-like (2 GiB/vCPU), r-like (8 GiB/vCPU). */
export function smallCatalog(): ResolvedInstanceType[] {
  return [
    instanceType('m.large', 2, 8, 0.096),
    instanceType('m.xlarge', 4, 16, 0.192),
    instanceType('m.2xlarge', 8, 32, 0.384),
    instanceType('c.large', 2, 4, 0.085),
    instanceType('c.xlarge', 4, 8, 0.17),
    instanceType('c.2xlarge', 8, 16, 0.34),
    instanceType('r.large', 2, 16, 0.126),
    instanceType('r.xlarge', 4, 32, 0.252),
  ];
}

/** A scheduling pool. */
export function pool(p: NodePool, instanceTypes: ResolvedInstanceType[] = smallCatalog()): SchedulingPool {
  return { pool: p, instanceTypes };
}

/** A full schedule input with defaults. */
export function input(o: Partial<ScheduleInput> & { pods: Pod[] }): ScheduleInput {
  return {
    nodes: [],
    inFlight: [],
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools: [],
    ...o,
  };
}

/** An existing node for the scheduler. */
export function existing(name: string, o: Partial<ExistingNode> = {}): ExistingNode {
  return {
    name,
    labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': 'zone-a', ...(o.labels ?? {}) },
    taints: o.taints ?? [],
    allocatable: o.allocatable ?? { cpu: 4000, memory: 16 * GI, pods: 110 },
    pods: o.pods ?? [],
    ...(o.nodePool ? { nodePool: o.nodePool } : {}),
    ...(o.unschedulable ? { unschedulable: true } : {}),
  };
}
