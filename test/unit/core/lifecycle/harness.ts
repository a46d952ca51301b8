/** Wires the fakes into the deps of the lifecycle, sweep and interruption cores. */
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import type { InterruptionDeps } from '../../../../functions/core/interruption/handle-interruption.js';
import type { LifecycleDeps } from '../../../../functions/core/lifecycle/lifecycle-deps.js';
import { lifecycleDeps } from '../../../../functions/core/lifecycle/lifecycle-deps.js';
import type { NodeClass } from '../../../../functions/core/model/node-class.js';
import type { DisruptionBudget, NodePool } from '../../../../functions/core/model/node-pool.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { transition } from '../../../../functions/core/nodeclaim/state-machine.js';
import type { SweepDeps } from '../../../../functions/core/sweep/sweep-deps.js';
import {
  FakeClock,
  FakeCloud,
  FakeCluster,
  FakeLog,
  FakePublisher,
  FakeStore,
  FakeTimers,
  kubeletNode,
  markReady,
  pendingClaim,
  podOn,
} from './fakes.js';

export const MULTUS_TAINT = { key: 'multus/not-ready', value: 'true', effect: 'NoSchedule' } as const;

/** The fakes and the deps built from them. */
export function harness(
  config: {
    consolidateAfterMs?: number | null;
    consolidationPolicy?: 'WhenEmpty' | 'WhenEmptyOrUnderutilized';
    budgets?: readonly DisruptionBudget[];
    terminationGracePeriodMs?: number;
  } = {},
) {
  const clock = new FakeClock();
  const log = new FakeLog();
  const store = new FakeStore();
  const cluster = new FakeCluster();
  const cloud = new FakeCloud();
  const events = new FakePublisher();
  const timers = new FakeTimers();
  const nodeClass = {
    name: 'default',
    multusReadyTaint: MULTUS_TAINT,
    amiSelectorTerms: [],
    subnetSelectorTerms: [],
    securityGroupSelectorTerms: [],
    multusInterfaces: [],
  } as unknown as NodeClass;
  const nodePool = {
    name: 'default',
    nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
    requirements: [],
    labels: {},
    taints: [],
    startupTaints: [],
    disruption: {
      consolidationPolicy: config.consolidationPolicy ?? 'WhenEmpty',
      consolidateAfterMs: config.consolidateAfterMs === undefined ? 30_000 : config.consolidateAfterMs,
      budgets: config.budgets ?? [],
    },
    expireAfterMs: null,
    terminationGracePeriodMs: config.terminationGracePeriodMs,
  } as unknown as NodePool;
  const lifecycle: LifecycleDeps = lifecycleDeps({ clock, log, cluster, store, timers }, async () => ({
    nodePools: [nodePool],
    nodeClasses: [nodeClass],
    nodePoolNames: new Set([nodePool.name]),
  }));
  // The sweep's deps over the fakes: they implement what the sweep calls on a cluster whose nodes
  // have no reschedulable pods to move (no provisioning run), which is what these tests build.
  const sweep = {
    ...lifecycle,
    cluster,
    store,
    cloud,
    events,
    catalog: bundledCatalog,
    settings: { orphanGraceMs: 120_000 },
  } as unknown as SweepDeps;
  const interruption: InterruptionDeps = { clock, log, store, cluster, cloud, timers };
  return { clock, log, store, cluster, cloud, events, timers, lifecycle, sweep, interruption };
}

/** Stores a claim launched as `instanceId` at the clock's time and returns it. */
export function launchedClaim(h: ReturnType<typeof harness>, id: string, instanceId: string): NodeClaim {
  const pending = pendingClaim(id, h.clock.now());
  const launched = transition(pending, 'Launched', h.clock.now(), {
    instance: { instanceId, instanceType: 'c5.large', zone: 'us-west-2a', capacityType: 'spot' },
  });
  h.cloud.instances.set(instanceId, {
    instanceId,
    instanceType: 'c5.large',
    zone: 'us-west-2a',
    capacityType: 'spot',
    state: 'running',
    launchTime: h.clock.now(),
    nodeClaimId: id,
    tags: {},
  });
  return h.store.put(launched);
}

/** Stores an Initialized claim with a Ready node `nodeName` running `pods` (by name) and returns the claim. */
export function runningClaim(
  h: ReturnType<typeof harness>,
  id: string,
  nodeName: string,
  pods: readonly string[] = [],
): NodeClaim {
  const instanceId = `i-${id}`;
  const claim = launchedClaim(h, id, instanceId);
  const initializedAt = h.clock.now() - 10 * 60_000;
  const stored = h.store.put({
    ...claim,
    state: 'Initialized',
    nodeName,
    timers: {},
    timestamps: { ...claim.timestamps, Initialized: initializedAt },
  });
  const node = kubeletNode(nodeName, instanceId);
  node.metadata.labels = { ...node.metadata.labels, 'karpenter.sh/nodepool': 'default' };
  markReady(node);
  h.cluster.nodes.set(nodeName, node);
  for (const pod of pods) h.cluster.pods.push(podOn(nodeName, pod));
  return stored;
}
