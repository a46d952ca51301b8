/**
 * Drains over the provisioning fakes: a seed example's NodePools, a manual clock shared with the
 * leases, running nodes (an Initialized claim, its instance and its Node), bound pods, and helpers
 * to take drain steps and to bring launched replacement claims up as initialized nodes.
 */
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import type {
  DisruptionDeps,
  DisruptionSettings,
} from '../../../../functions/core/disruption/disruption-deps.js';
import { drainStep } from '../../../../functions/core/disruption/drain-step.js';
import type { ClusterConfig } from '../../../../functions/core/lifecycle/cluster-config.js';
import type { Node, Pod } from '../../../../functions/core/model/kube-objects.js';
import { newNodeClaim } from '../../../../functions/core/nodeclaim/create.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { transition } from '../../../../functions/core/nodeclaim/state-machine.js';
import { parseConfiguration } from '../../../../functions/core/provisioning/cluster-snapshot.js';
import { type Harness, harness } from '../provisioning/harness.js';
import { seedCluster } from '../provisioning/seed-cluster.js';

export const SEED_002 = 'examples/seed-002';

/** The provisioning harness with the deps of the disruption engine. */
export interface DrainHarness extends Omit<Harness, 'deps'> {
  readonly deps: DisruptionDeps;
  /** The seed's workload pods (not in the cluster: tests bind them where they want). */
  readonly workloads: readonly Pod[];
}

/** A harness over `seed`'s configuration, with no pods and no nodes yet. */
export async function drainHarness(
  seed = SEED_002,
  settings: Partial<DisruptionSettings> = {},
): Promise<DrainHarness> {
  const cluster = await seedCluster(seed);
  const workloads = cluster.pods;
  cluster.pods = [];
  const h = harness(cluster);
  cluster.now = h.clock.now;
  const parsed = parseConfiguration([...cluster.nodePoolDocs, ...cluster.nodeClassDocs], h.log);
  const config: ClusterConfig = {
    nodePools: parsed.nodePools,
    nodeClasses: parsed.nodeClasses,
    nodePoolNames: new Set(cluster.nodePoolDocs.map((d) => d.metadata.name)),
  };
  const base: DisruptionDeps = {
    clock: h.clock,
    log: h.log,
    cluster: h.cluster,
    store: h.store,
    cloud: h.cloud,
    timers: h.timers,
    config: async () => config,
    catalog: bundledCatalog,
    leaseClock: h.clock,
    disruptionSettings: settings,
  };
  // A provisioning run waiting for its lease does not sleep in real time.
  const deps = Object.assign(base, { sleep: async () => {} });
  return { ...h, deps, workloads };
}

/** Where a step left the drain (`replacing`, `evicting`, `terminated`, `cancelled`, `not-draining`). */
export async function step(h: DrainHarness, id: string): Promise<string> {
  const outcome: unknown = await drainStep(h.deps, id);
  return typeof outcome === 'string' ? outcome : (outcome as { state: string }).state;
}

/** What a running node is made of. */
export interface RunningNodeOptions {
  readonly claimId: string;
  readonly nodeName: string;
  readonly instanceType?: string;
  readonly zone?: string;
  readonly nodePool?: string;
  /** Node allocatable; default: the catalog's vCPUs less 100m, 7 GiB, 58 pods. */
  readonly allocatable?: Record<string, string>;
  /** The instance id (default `i-<claimId>`). */
  readonly instanceId?: string;
}

/** Stores an Initialized claim with its running instance and its Ready Node; returns the claim. */
export function runningNode(h: DrainHarness, o: RunningNodeOptions): NodeClaim {
  const instanceType = o.instanceType ?? 'c5.xlarge';
  const zone = o.zone ?? 'us-west-2a';
  const nodePool = o.nodePool ?? 'default';
  const now = h.clock.now();
  const instanceId = o.instanceId ?? `i-${o.claimId}`;
  const pending = newNodeClaim(
    {
      id: o.claimId,
      nodePool,
      nodeClass: nodePool,
      nodePoolHash: 'pool-hash',
      nodeClassHash: 'class-hash',
      requirements: [],
      labels: {},
      taints: [],
      startupTaints: [],
      options: [{ instanceType, zone, capacityType: 'spot', price: 0.1 }],
      pods: [],
      requests: {},
    },
    now - 20 * 60_000,
  );
  const launched = transition(pending, 'Launched', now - 19 * 60_000, {
    instance: { instanceId, instanceType, zone, capacityType: 'spot' },
  });
  const claim = initialize(launched, o.nodeName, now - 18 * 60_000);
  h.store.claims.set(claim.id, { ...claim, version: 1 });
  h.cloud.instances.push({
    instanceId,
    instanceType,
    zone,
    capacityType: 'spot',
    state: 'running',
    launchTime: now - 19 * 60_000,
    nodeClaimId: claim.id,
    nodePool,
    tags: { 'joiner.sh/nodeclaim': claim.id },
    clientToken: `token-${claim.id}`,
  });
  h.cluster.nodes = [
    ...h.cluster.nodes,
    kubeNode(o.nodeName, instanceId, instanceType, zone, nodePool, o.allocatable),
  ];
  return h.store.claims.get(claim.id) as NodeClaim;
}

/**
 * Brings every Launched claim up: Registered then Initialized with node `ip-<instance>`, and its
 * Node added to the cluster. Returns the node names.
 */
export function initializeLaunched(h: DrainHarness): string[] {
  const names: string[] = [];
  for (const claim of [...h.store.claims.values()].filter((c) => c.state === 'Launched')) {
    const instance = claim.instance;
    if (!instance) continue;
    const nodeName = `ip-${instance.instanceId}`;
    const initialized = initialize(claim, nodeName, h.clock.now());
    h.store.claims.set(claim.id, { ...initialized, version: claim.version + 1 });
    h.cluster.nodes = [
      ...h.cluster.nodes,
      kubeNode(nodeName, instance.instanceId, instance.instanceType, instance.zone, claim.nodePool),
    ];
    names.push(nodeName);
  }
  return names;
}

function initialize(claim: NodeClaim, nodeName: string, now: number): NodeClaim {
  const registered = transition(claim, 'Registered', now, { nodeName });
  return transition(registered, 'Initialized', now);
}

function kubeNode(
  name: string,
  instanceId: string,
  instanceType: string,
  zone: string,
  nodePool: string,
  allocatable?: Record<string, string>,
): Node {
  const vcpu = bundledCatalog.instanceTypes.find((t) => t.name === instanceType)?.vcpu ?? 4;
  const resources = allocatable ?? { cpu: `${vcpu * 1000 - 100}m`, memory: '7Gi', pods: '58' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: `uid-${name}`,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'topology.kubernetes.io/zone': zone,
        'node.kubernetes.io/instance-type': instanceType,
        'karpenter.sh/capacity-type': 'spot',
        'karpenter.sh/nodepool': nodePool,
        'karpenter.sh/registered': 'true',
        'karpenter.sh/initialized': 'true',
      },
    },
    spec: { providerID: `aws:///${zone}/${instanceId}`, taints: [] },
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
}

/** `pod` bound to `nodeName` and Running. */
export function boundTo(pod: Pod, nodeName: string): Pod {
  const ns = pod.metadata.namespace ?? 'default';
  return {
    ...pod,
    metadata: { ...pod.metadata, namespace: ns, uid: pod.metadata.uid ?? `uid-${ns}-${pod.metadata.name}` },
    spec: { ...pod.spec, nodeName },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/** Names of the pods the cluster evicted (accepted evictions only), in order. */
export function evicted(h: DrainHarness): string[] {
  return h.cluster.evictions.filter((e) => e.result === 'evicted').map((e) => e.name);
}

/** Names of the pods still bound to `nodeName`. */
export function podsOn(h: DrainHarness, nodeName: string): string[] {
  return h.cluster.pods.filter((p) => p.spec.nodeName === nodeName).map((p) => p.metadata.name);
}

/** Whether `nodeName` carries the `karpenter.sh/disrupted:NoSchedule` taint. */
export function isTainted(h: DrainHarness, nodeName: string): boolean {
  const node = h.cluster.nodes.find((n) => n.metadata.name === nodeName);
  return (node?.spec?.taints ?? []).some(
    (t) => t.key === 'karpenter.sh/disrupted' && t.effect === 'NoSchedule',
  );
}
