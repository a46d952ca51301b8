/**
 * A synthetic cluster for the consolidation benchmark: a mixed workload (deployments of varied
 * cpu/memory, zonal topology spread, hostname anti-affinity, PDBs, a few do-not-disrupt pods)
 * packed by the scheduler as a provisioner would, then turned into Initialized NodeClaims,
 * Nodes as the kubelet reports them and bound Pods. A share of the pods is then removed at random.
 */
import { bundledCatalog } from '../../functions/core/catalog/bundled.js';
import type { ClusterConfig } from '../../functions/core/lifecycle/cluster-config.js';
import type { Node, Pod, PodDisruptionBudget } from '../../functions/core/model/kube-objects.js';
import type { NodeClaim } from '../../functions/core/nodeclaim/nodeclaim.js';
import { schedulingPools } from '../../functions/core/scheduling/prepare.js';
import { schedule } from '../../functions/core/scheduling/schedule.js';
import type { PlannedNodeClaim, SchedulingPool } from '../../functions/core/scheduling/types.js';
import { SeededRandom } from '../../functions/simulator/clock.js';
import { nodeClass, nodePool } from '../../test/builders/config.js';

const ZONE = 'topology.kubernetes.io/zone';
const HOSTNAME = 'kubernetes.io/hostname';
const CPU_MILLIS = [100, 250, 500, 750, 1000];
const MEMORY_MI = [128, 256, 512, 1024, 2048, 4096];
/** Pods per node the packed cluster aims at (the scheduler decides the real count). */
export const PODS_PER_NODE = 15;

/** A built cluster. */
export interface SyntheticCluster {
  readonly now: number;
  readonly config: ClusterConfig;
  readonly pools: readonly SchedulingPool[];
  claims: NodeClaim[];
  nodes: Node[];
  pods: Pod[];
  readonly pdbs: PodDisruptionBudget[];
}

/** The NodePool and NodeClass: on-demand general purpose, compute and memory families. */
export function benchConfig(): { config: ClusterConfig; pools: SchedulingPool[] } {
  const pool = nodePool({
    name: 'default',
    requirements: [
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
      { key: 'karpenter.k8s.aws/instance-category', operator: 'In', values: ['c', 'm', 'r'] },
      { key: 'karpenter.k8s.aws/instance-generation', operator: 'Gt', values: ['5'] },
      { key: 'karpenter.k8s.aws/instance-cpu', operator: 'Lt', values: ['9'] },
    ],
    disruption: { budgets: [{ nodes: { percent: 100 } }] },
  });
  const nc = nodeClass();
  const pools = schedulingPools([pool], [nc], bundledCatalog);
  return { config: { nodePools: [pool], nodeClasses: [nc], nodePoolNames: new Set(['default']) }, pools };
}

function podOf(
  name: string,
  app: string,
  cpu: number,
  memoryMi: number,
  extra: Partial<Pod['spec']> = {},
  annotations?: Record<string, string>,
): Pod {
  return {
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      labels: { app },
      ...(annotations ? { annotations } : {}),
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${app}-rs`, uid: `rs-${app}`, controller: true },
      ],
    },
    spec: {
      containers: [{ name: 'app', resources: { requests: { cpu: `${cpu}m`, memory: `${memoryMi}Mi` } } }],
      ...extra,
    },
  } as Pod;
}

/** The workload for about `nodes` nodes: deployments of 3 to 30 replicas. */
export function workload(nodes: number, seed: number): { pods: Pod[]; pdbs: PodDisruptionBudget[] } {
  const random = new SeededRandom(seed);
  const target = nodes * PODS_PER_NODE;
  const pods: Pod[] = [];
  const pdbs: PodDisruptionBudget[] = [];
  let d = 0;
  while (pods.length < target) {
    const app = `app-${++d}`;
    const cpu = random.pick(CPU_MILLIS);
    const memory = random.pick(MEMORY_MI);
    const kind = d % 10;
    const replicas = kind === 9 ? 3 + Math.floor(random.next() * 3) : 3 + Math.floor(random.next() * 28);
    let extra: Partial<Pod['spec']> = {};
    if (kind < 3)
      extra = {
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: ZONE,
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: { app } },
          },
        ],
      };
    else if (kind === 9)
      extra = {
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { topologyKey: HOSTNAME, labelSelector: { matchLabels: { app } } },
            ],
          },
        },
      };
    if (kind === 4 || kind === 9)
      pdbs.push({
        metadata: { name: `${app}-pdb`, namespace: 'default' },
        spec: { maxUnavailable: 1, selector: { matchLabels: { app } } },
        status: { disruptionsAllowed: 1 },
      });
    for (let r = 0; r < replicas; r++) {
      const name = `${app}-${r}`;
      const doNotDisrupt = d % 97 === 0 && r === 0 ? { 'karpenter.sh/do-not-disrupt': 'true' } : undefined;
      pods.push(podOf(name, app, cpu, memory, extra, doNotDisrupt));
    }
  }
  return { pods, pdbs };
}

/** The Node the kubelet would register for a planned claim. */
export function nodeFor(claim: PlannedNodeClaim, pools: readonly SchedulingPool[], name: string): Node {
  const option = claim.instanceTypeOptions[0];
  const type = pools[0].instanceTypes.find((t) => t.name === option.instanceType);
  if (!type) throw new Error(`instance type ${option.instanceType} not in the catalog`);
  const a = type.allocatable;
  const c = type.capacity;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        ...type.labels,
        ...claim.labels,
        [HOSTNAME]: name,
        [ZONE]: option.zone,
        'karpenter.sh/capacity-type': option.capacityType,
        'karpenter.sh/nodepool': claim.nodePool,
        'karpenter.sh/initialized': 'true',
        'karpenter.sh/registered': 'true',
      },
    },
    spec: { taints: [...claim.taints], providerID: `aws:///${option.zone}/i-${name}` },
    status: {
      capacity: { cpu: `${c.cpu}m`, memory: `${c.memory}`, pods: `${c.pods}` },
      allocatable: { cpu: `${a.cpu}m`, memory: `${a.memory}`, pods: `${a.pods}` },
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  } as Node;
}

/** An Initialized NodeClaim with its launched instance for a planned claim. */
export function claimFor(claim: PlannedNodeClaim, name: string, now: number): NodeClaim {
  const option = claim.instanceTypeOptions[0];
  const created = now - 3_600_000;
  return {
    id: name,
    nodePool: claim.nodePool,
    nodeClass: 'default',
    nodePoolHash: 'h',
    nodeClassHash: 'h',
    requirements: claim.requirements,
    labels: claim.labels,
    taints: claim.taints,
    startupTaints: claim.startupTaints,
    options: claim.instanceTypeOptions,
    pods: [],
    requests: claim.requests,
    launchToken: name,
    launchAttempts: 1,
    state: 'Initialized',
    version: 1,
    timestamps: { Pending: created, Launched: created, Registered: created, Initialized: created },
    timers: {},
    instance: {
      instanceId: `i-${name}`,
      instanceType: option.instanceType,
      zone: option.zone,
      capacityType: option.capacityType,
      price: option.price,
      providerId: `aws:///${option.zone}/i-${name}`,
    },
    nodeName: name,
  } as NodeClaim;
}

let nodeCounter = 0;
/** A fresh node name. */
export function nextNodeName(): string {
  return `node-${String(++nodeCounter).padStart(6, '0')}`;
}

/** Binds `pods` onto new nodes for `claims` (pods by `namespace/name`). */
export function materialize(
  planned: readonly PlannedNodeClaim[],
  byKey: ReadonlyMap<string, Pod>,
  pools: readonly SchedulingPool[],
  now: number,
): { claims: NodeClaim[]; nodes: Node[]; pods: Pod[] } {
  const claims: NodeClaim[] = [];
  const nodes: Node[] = [];
  const pods: Pod[] = [];
  for (const p of planned) {
    const name = nextNodeName();
    claims.push(claimFor(p, name, now));
    nodes.push(nodeFor(p, pools, name));
    for (const key of p.pods) {
      const pod = byKey.get(key);
      if (pod) pods.push(bind(pod, name, now));
    }
  }
  return { claims, nodes, pods };
}

/** The pod bound to `node`, started an hour before `now`. */
export function bind(pod: Pod, node: string, now: number): Pod {
  return {
    ...pod,
    metadata: { ...pod.metadata, creationTimestamp: new Date(now - 3_600_000).toISOString() },
    spec: { ...pod.spec, nodeName: node },
    status: { phase: 'Running', startTime: new Date(now - 3_600_000).toISOString() },
  } as Pod;
}

export function podKey(p: Pod): string {
  return `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`;
}

/** Packs the workload for `nodes` nodes, then removes `removeShare` of the pods at random. */
export function buildCluster(nodes: number, removeShare: number, seed = 7): SyntheticCluster {
  const now = Date.UTC(2026, 0, 1);
  const { config, pools } = benchConfig();
  const { pods: all, pdbs } = workload(nodes, seed);
  const plan = schedule({
    pods: all,
    nodes: [],
    inFlight: [],
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools,
    skipImprovement: true,
  });
  const byKey = new Map(all.map((p) => [podKey(p), p]));
  const built = materialize(plan.nodeClaims, byKey, pools, now);
  const random = new SeededRandom(seed + 1);
  const kept = built.pods.filter(
    (p) => random.next() >= removeShare || p.metadata.annotations?.['karpenter.sh/do-not-disrupt'],
  );
  return { now, config, pools, claims: built.claims, nodes: built.nodes, pods: kept, pdbs };
}
