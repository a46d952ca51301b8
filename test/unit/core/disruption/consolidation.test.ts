import { describe, expect, it } from 'vitest';
import { consolidationCandidates } from '../../../../functions/core/disruption/consolidation/candidates.js';
import {
  evaluate,
  planConsolidation,
} from '../../../../functions/core/disruption/consolidation/plan-consolidation.js';
import { prepareCluster } from '../../../../functions/core/disruption/consolidation/removal-simulation.js';
import { disruptionView } from '../../../../functions/core/disruption/disruption-view.js';
import type { Node, Pod } from '../../../../functions/core/model/kube-objects.js';
import type { NodePool } from '../../../../functions/core/model/node-pool.js';
import { newNodeClaim } from '../../../../functions/core/nodeclaim/create.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import type { SchedulingPool } from '../../../../functions/core/scheduling/types.js';
import { claimInput } from '../../../builders/claims.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { node, pod } from '../../../builders/workloads.js';
import { instanceType, smallCatalog } from '../scheduling/fixtures.js';

const NOW = Date.UTC(2026, 0, 1, 12);
const HOUR = 3_600_000;
const SIZES: Record<string, { cpu: string; memory: string; price: number }> = {
  'c.large': { cpu: '1900m', memory: '3584Mi', price: 0.085 },
  'c.xlarge': { cpu: '3900m', memory: '7680Mi', price: 0.17 },
  'c.2xlarge': { cpu: '7900m', memory: '15872Mi', price: 0.34 },
};

interface Cluster {
  claims: NodeClaim[];
  nodes: Node[];
  pods: Pod[];
  pool: NodePool;
  /** Hourly prices by type when not {@link SIZES}'. */
  prices?: Record<string, number>;
  /** Zones the pool launches in (default zone-a). */
  zones?: string[];
}

const ON_DEMAND = { key: 'karpenter.sh/capacity-type', operator: 'In' as const, values: ['on-demand'] };

function cluster(
  pool = nodePool({ disruption: { consolidateAfterMs: 30_000 }, requirements: [ON_DEMAND] }),
): Cluster {
  return { claims: [], nodes: [], pods: [], pool };
}

/** Adds an initialized node of `type` (capacity type `capacity`) running `pods` (cpu each). */
function addNode(
  c: Cluster,
  name: string,
  type: string,
  pods: { name: string; cpu: string; extra?: Parameters<typeof pod>[0] }[],
  capacity: 'on-demand' | 'spot' = 'on-demand',
  zone = 'zone-a',
): void {
  const size = SIZES[type];
  const listed = c.prices?.[type] ?? size.price;
  const price = capacity === 'spot' ? listed * 0.4 : listed;
  const claim = newNodeClaim(
    claimInput(name, { instanceType: type, zone, capacityType: capacity, price }),
    NOW - 2 * HOUR,
  );
  c.claims.push({
    ...claim,
    state: 'Initialized',
    version: 1,
    nodeName: name,
    timers: {},
    instance: { instanceId: `i-${name}`, instanceType: type, zone, capacityType: capacity, price },
    timestamps: { Pending: NOW - 2 * HOUR, Initialized: NOW - 2 * HOUR },
  });
  const n = node({
    name,
    instanceType: type,
    zone,
    nodePool: 'default',
    allocatable: { cpu: size.cpu, memory: size.memory, pods: '58' },
    labels: { 'karpenter.sh/capacity-type': capacity, 'karpenter.k8s.aws/instance-family': 'c' },
  });
  c.nodes.push(n);
  for (const p of pods) {
    const bound = pod({
      name: p.name,
      nodeName: name,
      requests: { cpu: p.cpu, memory: '256Mi' },
      ownerKind: 'ReplicaSet',
      labels: { app: p.name.split('-')[0] },
      ...p.extra,
    });
    bound.status = {
      phase: 'Running',
      startTime: new Date(NOW - HOUR).toISOString(),
      conditions: [{ type: 'Ready', status: 'True' }],
    } as Pod['status'];
    c.pods.push(bound);
  }
}

function schedulingPool(c: Cluster): SchedulingPool {
  const types = smallCatalog()
    .filter((t) => t.name.startsWith('c.'))
    .map((t) =>
      instanceType(
        t.name,
        Number(t.labels['karpenter.k8s.aws/instance-cpu']),
        t.capacity.memory / 2 ** 30,
        c.prices?.[t.name] ?? SIZES[t.name]?.price ?? 1,
        { zones: c.zones ?? ['zone-a'] },
      ),
    );
  return { pool: c.pool, nodeClass: nodeClass(), instanceTypes: types };
}

function plan(c: Cluster, allowed = 100) {
  const view = disruptionView(NOW, c.claims, c.nodes, c.pods, [], {
    nodePools: [c.pool],
    nodeClasses: [nodeClass()],
    nodePoolNames: new Set([c.pool.name]),
  });
  const { candidates, blocked } = consolidationCandidates(view, 30_000);
  const prepared = prepareCluster({
    nodes: c.nodes,
    boundPods: c.pods,
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools: [schedulingPool(c)],
    leaving: new Set(),
  });
  return {
    candidates,
    blocked,
    prepared,
    move: planConsolidation(prepared, candidates, { allowed: () => allowed }),
  };
}

describe('consolidation: what can go', () => {
  it('replaces three lightly used nodes with one cheaper node in one multi-node move', () => {
    const c = cluster();
    addNode(c, 'a', 'c.2xlarge', [{ name: 'web-1', cpu: '1' }]);
    addNode(c, 'b', 'c.2xlarge', [{ name: 'web-2', cpu: '1' }]);
    addNode(c, 'c', 'c.2xlarge', [{ name: 'web-3', cpu: '1' }]);
    const { move } = plan(c);
    expect(move?.method).toBe('replace');
    expect(move?.candidates).toHaveLength(3);
    expect(move?.replacement?.instanceTypeOptions[0]?.instanceType).toBe('c.xlarge');
    expect(move?.savings).toBeCloseTo(1.02 - 0.17);
  });

  it('deletes the nodes whose pods fit on the others when no cheaper node exists', () => {
    const only2xl = {
      key: 'node.kubernetes.io/instance-type',
      operator: 'In' as const,
      values: ['c.2xlarge'],
    };
    const c = cluster(
      nodePool({ disruption: { consolidateAfterMs: 30_000 }, requirements: [ON_DEMAND, only2xl] }),
    );
    addNode(c, 'a', 'c.2xlarge', [{ name: 'web-1', cpu: '1' }]);
    addNode(c, 'b', 'c.2xlarge', [{ name: 'web-2', cpu: '1' }]);
    addNode(c, 'c', 'c.2xlarge', [{ name: 'web-3', cpu: '1' }]);
    const { move } = plan(c);
    expect(move?.method).toBe('delete');
    expect(move?.candidates).toHaveLength(2);
    expect(move?.savings).toBeCloseTo(0.68);
  });

  it('replaces a node whose pods fit on one cheaper node', () => {
    const c = cluster();
    addNode(c, 'a', 'c.2xlarge', [
      { name: 'web-1', cpu: '1' },
      { name: 'web-2', cpu: '1' },
    ]);
    const { move } = plan(c);
    expect(move?.method).toBe('replace');
    expect(move?.replacement?.instanceTypeOptions.every((o) => o.price < 0.34)).toBe(true);
    expect(move?.replacement?.instanceTypeOptions[0]?.instanceType).toBe('c.xlarge');
  });

  it('replaces two nodes the candidate order does not put side by side with one cheaper node', () => {
    // An xlarge costs less than two larges here. Neither large can go alone (its pods fit nowhere
    // else, and no type is cheaper than a large); all three together need more than an xlarge.
    // The greedy searches try the whole set, then one node at a time, and stop; a pair fits.
    const c = cluster();
    c.prices = { 'c.large': 0.085, 'c.xlarge': 0.15, 'c.2xlarge': 0.34 };
    addNode(c, 'a', 'c.large', [{ name: 'web-1', cpu: '1500m' }]);
    addNode(c, 'b', 'c.large', [
      { name: 'api-1', cpu: '900m' },
      { name: 'api-2', cpu: '900m' },
    ]);
    addNode(c, 'c', 'c.large', [
      { name: 'job-1', cpu: '500m' },
      { name: 'job-2', cpu: '500m' },
      { name: 'job-3', cpu: '500m' },
    ]);
    const { move, candidates } = plan(c);
    expect(candidates.map((x) => x.node.metadata.name)).toEqual(['a', 'b', 'c']);
    expect(move?.method).toBe('replace');
    expect(move?.candidates).toHaveLength(2);
    expect(move?.replacement?.instanceTypeOptions[0]?.instanceType).toBe('c.xlarge');
    expect(move?.savings).toBeCloseTo(0.17 - 0.15);
  });

  it('replaces a node a zone spread keeps, together with another node, by one cheaper node in its zone', () => {
    // api is spread over zone-a and zone-b (maxSkew 1): node b holds the only api pod of zone-b,
    // so it cannot go, and it is already the cheapest type. Its pod and node c's fit one new node in
    // zone-b that costs less than both; the greedy searches (all three, then one at a time) miss it.
    const c = cluster();
    c.prices = { 'c.large': 0.085, 'c.xlarge': 0.15, 'c.2xlarge': 0.34 };
    c.zones = ['zone-a', 'zone-b'];
    const spread = {
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'DoNotSchedule' as const,
          labelSelector: { matchLabels: { app: 'api' } },
        },
      ],
    };
    addNode(c, 'a', 'c.xlarge', [
      { name: 'api-1', cpu: '1', extra: spread },
      { name: 'web-1', cpu: '1400m' },
      { name: 'web-2', cpu: '1400m' },
    ]);
    addNode(c, 'b', 'c.large', [{ name: 'api-2', cpu: '1', extra: spread }], 'on-demand', 'zone-b');
    addNode(c, 'c', 'c.large', [{ name: 'job-1', cpu: '1' }]);
    const { move } = plan(c);
    expect(move?.method).toBe('replace');
    expect(move?.candidates.map((x) => x.node.metadata.name).sort()).toEqual(['b', 'c']);
    expect(move?.replacement?.instanceTypeOptions.every((o) => o.zone === 'zone-b')).toBe(true);
    expect(move?.savings).toBeCloseTo(0.17 - 0.15);
  });

  it('finds a two-into-one replace of nodes past the 48 cheapest to disrupt', () => {
    // 48 full xlarge nodes (one pod each) come first in the disruption-cost order; no two of them
    // fit one node cheaper than both. The two larges (two pods each) come after them, and their
    // pods fit one xlarge, which costs less than the two. Only pairs of the first 48 candidates
    // were tried before; the pairs are now scored by requests first, wherever they stand.
    const c = cluster();
    c.prices = { 'c.large': 0.085, 'c.xlarge': 0.15, 'c.2xlarge': 0.34 };
    for (let n = 0; n < 48; n++)
      addNode(c, `full-${String(n).padStart(2, '0')}`, 'c.xlarge', [{ name: `batch${n}-1`, cpu: '3500m' }]);
    addNode(c, 'x', 'c.large', [
      { name: 'api-1', cpu: '900m' },
      { name: 'api-2', cpu: '900m' },
    ]);
    addNode(c, 'y', 'c.large', [
      { name: 'job-1', cpu: '700m' },
      { name: 'job-2', cpu: '700m' },
    ]);
    const { move, candidates } = plan(c);
    expect(candidates.slice(48).map((x) => x.node.metadata.name)).toEqual(['x', 'y']);
    expect(move?.method).toBe('replace');
    expect(move?.candidates.map((x) => x.node.metadata.name)).toEqual(['x', 'y']);
    expect(move?.replacement?.instanceTypeOptions[0]?.instanceType).toBe('c.xlarge');
    expect(move?.savings).toBeCloseTo(0.17 - 0.15);
  });

  it('keeps a node that is already the cheapest fit', () => {
    const c = cluster();
    addNode(c, 'a', 'c.xlarge', [
      { name: 'web-1', cpu: '1500m' },
      { name: 'web-2', cpu: '1500m' },
    ]);
    expect(plan(c).move).toBeUndefined();
  });

  it('respects the Underutilized budget: one node at a time with allowed 1', () => {
    const c = cluster();
    for (const n of ['a', 'b', 'c']) addNode(c, n, 'c.2xlarge', [{ name: `web-${n}`, cpu: '1' }]);
    expect(plan(c, 1).move?.candidates).toHaveLength(1);
  });

  it('never moves a pod that could not be placed: hostname anti-affinity keeps both nodes', () => {
    const only2xl = {
      key: 'node.kubernetes.io/instance-type',
      operator: 'In' as const,
      values: ['c.2xlarge'],
    };
    const c = cluster(
      nodePool({ disruption: { consolidateAfterMs: 30_000 }, requirements: [ON_DEMAND, only2xl] }),
    );
    const anti = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'db' } } },
        ],
      },
    };
    addNode(c, 'a', 'c.2xlarge', [{ name: 'db-1', cpu: '1', extra: { affinity: anti } }]);
    addNode(c, 'b', 'c.2xlarge', [{ name: 'db-2', cpu: '1', extra: { affinity: anti } }]);
    expect(plan(c).move).toBeUndefined();
  });

  it('spot to spot needs 15 cheaper instance types (Karpenter), so a small catalog replaces nothing', () => {
    const c = cluster(nodePool({ disruption: { consolidateAfterMs: 30_000 } }));
    addNode(c, 'a', 'c.2xlarge', [{ name: 'web-1', cpu: '1' }], 'spot');
    const { prepared, candidates } = plan(c);
    expect(evaluate(prepared, candidates)).toBeUndefined();
    expect(evaluate(prepared, candidates, { minSpotOptions: 1 })?.method).toBe('replace');
  });
});

describe('consolidation: candidates', () => {
  it('leaves out nodes with a do-not-disrupt pod, nodes of WhenEmpty pools and nodes with a recent pod', () => {
    const c = cluster();
    addNode(c, 'a', 'c.2xlarge', [{ name: 'pinned-1', cpu: '1', extra: {} }]);
    const pinned = c.pods.find((p) => p.metadata.name === 'pinned-1');
    if (pinned) pinned.metadata.annotations = { 'karpenter.sh/do-not-disrupt': 'true' };
    addNode(c, 'b', 'c.2xlarge', [{ name: 'web-1', cpu: '1' }]);
    const fresh = c.pods.find((p) => p.metadata.name === 'web-1');
    if (fresh?.status)
      (fresh.status as { startTime?: string }).startTime = new Date(NOW - 5_000).toISOString();
    addNode(c, 'c', 'c.2xlarge', [{ name: 'web-2', cpu: '1' }]);
    const { candidates, blocked } = plan(c);
    expect(candidates.map((x) => x.node.metadata.name)).toEqual(['c']);
    expect(blocked.map((b) => b.message)).toEqual(['pod default/pinned-1 has do-not-disrupt annotation']);
    const empty = cluster(
      nodePool({ disruption: { consolidationPolicy: 'WhenEmpty', consolidateAfterMs: 0 } }),
    );
    addNode(empty, 'a', 'c.2xlarge', [{ name: 'web-1', cpu: '1' }]);
    expect(plan(empty).candidates).toEqual([]);
  });

  it("holds a node back for consolidateAfter since its last pod event (Karpenter's consolidatable), and the settle time only after its initialization", () => {
    // consolidateAfter 0: a node a pod left 5 s ago is a candidate at once, as in Karpenter (after a
    // scale-down that takes pods from every node, every node must be seen, not just untouched ones).
    const now0 = cluster(nodePool({ disruption: { consolidateAfterMs: 0 }, requirements: [ON_DEMAND] }));
    addNode(now0, 'a', 'c.2xlarge', [{ name: 'web-1', cpu: '1' }]);
    addNode(now0, 'b', 'c.2xlarge', [{ name: 'web-2', cpu: '1' }]);
    now0.claims[0] = { ...now0.claims[0], lastPodRemovedAt: NOW - 5_000 };
    expect(
      plan(now0)
        .candidates.map((x) => x.node.metadata.name)
        .sort(),
    ).toEqual(['a', 'b']);
    // A node initialized 5 s ago is not one yet (the settle time, 30 s here).
    now0.claims[1] = {
      ...now0.claims[1],
      timestamps: { ...now0.claims[1].timestamps, Initialized: NOW - 5_000 },
    };
    expect(plan(now0).candidates.map((x) => x.node.metadata.name)).toEqual(['a']);
    // consolidateAfter 30 s: the node a pod left 5 s ago waits.
    const after = cluster();
    addNode(after, 'a', 'c.2xlarge', [{ name: 'web-1', cpu: '1' }]);
    addNode(after, 'b', 'c.2xlarge', [{ name: 'web-2', cpu: '1' }]);
    after.claims[0] = { ...after.claims[0], lastPodRemovedAt: NOW - 5_000 };
    expect(plan(after).candidates.map((x) => x.node.metadata.name)).toEqual(['b']);
  });

  it('orders candidates by disruption cost: fewer pods first, pod-deletion-cost raises the cost', () => {
    const c = cluster();
    addNode(c, 'a', 'c.2xlarge', [
      { name: 'web-1', cpu: '1' },
      { name: 'web-2', cpu: '1' },
      { name: 'web-5', cpu: '1' },
    ]);
    addNode(c, 'b', 'c.2xlarge', [{ name: 'web-3', cpu: '1' }]);
    addNode(c, 'c', 'c.2xlarge', [{ name: 'web-4', cpu: '1' }]);
    const costly = c.pods.find((p) => p.metadata.name === 'web-3');
    if (costly)
      costly.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': String(2 ** 27) };
    expect(plan(c).candidates.map((x) => x.node.metadata.name)).toEqual(['c', 'b', 'a']);
  });
});
