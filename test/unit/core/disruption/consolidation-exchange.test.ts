import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../../../functions/core/disruption/consolidation/candidates.js';
import { consolidationCandidates } from '../../../../functions/core/disruption/consolidation/candidates.js';
import { describe as describeMove } from '../../../../functions/core/disruption/consolidation/consolidation-round.js';
import { exchangeOrder } from '../../../../functions/core/disruption/consolidation/exchange-order.js';
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
import { instanceType } from '../scheduling/fixtures.js';

const NOW = Date.UTC(2026, 0, 1, 12);
const HOUR = 3_600_000;
const ON_DEMAND = { key: 'karpenter.sh/capacity-type', operator: 'In' as const, values: ['on-demand'] };

/** Compute, general purpose and memory families as in the consolidation benchmark (cpu, GiB, $/h). */
const TYPES: Record<string, [number, number, number]> = {
  'c.large': [2, 4, 0.068],
  'c.xlarge': [4, 8, 0.136],
  'c.2xlarge': [8, 16, 0.272],
  'm.large': [2, 8, 0.077],
  'm.xlarge': [4, 16, 0.154],
  'm.2xlarge': [8, 32, 0.308],
  'r.large': [2, 16, 0.1008],
  'r.xlarge': [4, 32, 0.2016],
  'r.2xlarge': [8, 64, 0.4032],
};

interface Cluster {
  claims: NodeClaim[];
  nodes: Node[];
  pods: Pod[];
  pool: NodePool;
}

function cluster(requirements = [ON_DEMAND]): Cluster {
  return {
    claims: [],
    nodes: [],
    pods: [],
    pool: nodePool({ disruption: { consolidateAfterMs: 30_000 }, requirements }),
  };
}

type PodSpec = [cpu: number, memGi: number, extra?: Parameters<typeof pod>[0]];

/** Adds an initialized node of `type` running pods of [cpu millicores, memory GiB, extra]. */
function addNode(
  c: Cluster,
  name: string,
  type: string,
  pods: PodSpec[],
  capacity: 'on-demand' | 'spot' = 'on-demand',
): void {
  const [cpu, memGi, listed] = TYPES[type];
  const price = capacity === 'spot' ? listed * 0.4 : listed;
  const zone = 'zone-a';
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
  c.nodes.push(
    node({
      name,
      instanceType: type,
      zone,
      nodePool: 'default',
      allocatable: { cpu: `${cpu * 1000 - 100}m`, memory: `${memGi * 1024 - 512}Mi`, pods: '58' },
      labels: { 'karpenter.sh/capacity-type': capacity, 'karpenter.k8s.aws/instance-family': type[0] },
    }),
  );
  for (const [k, [m, gi, extra]] of pods.entries()) {
    const bound = pod({
      name: `${name}-${k}`,
      nodeName: name,
      requests: { cpu: `${m}m`, memory: `${gi}Gi` },
      ownerKind: 'ReplicaSet',
      labels: { app: `${name}-${k}` },
      ...extra,
    });
    bound.status = {
      phase: 'Running',
      startTime: new Date(NOW - HOUR).toISOString(),
      conditions: [{ type: 'Ready', status: 'True' }],
    } as Pod['status'];
    c.pods.push(bound);
  }
}

function schedulingPool(c: Cluster, sizes?: string): SchedulingPool {
  return {
    pool: c.pool,
    nodeClass: nodeClass(),
    instanceTypes: Object.entries(TYPES)
      .filter(([name]) => !sizes || name.endsWith(sizes))
      .map(([name, [cpu, gi, price]]) => instanceType(name, cpu, gi, price, { zones: ['zone-a'] })),
  };
}

function plan(c: Cluster, allowed = 100, sizes?: string) {
  const view = disruptionView(NOW, c.claims, c.nodes, c.pods, [], {
    nodePools: [c.pool],
    nodeClasses: [nodeClass()],
    nodePoolNames: new Set([c.pool.name]),
  });
  const { candidates } = consolidationCandidates(view, 30_000);
  const prepared = prepareCluster({
    nodes: c.nodes,
    boundPods: c.pods,
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools: [schedulingPool(c, sizes)],
    leaving: new Set(),
  });
  return { candidates, prepared, move: planConsolidation(prepared, candidates, { allowed: () => allowed }) };
}

/**
 * A memory node and a compute node, both full by cpu: neither fits a cheaper node alone (40 GiB
 * needs an r; the compute pods already sit on the cheapest 8-cpu type) and their pods together
 * need two nodes, so no delete, replace or two-into-one move exists. Re-packed together (large
 * pods first, a memory pod beside a compute pod) they take two m.2xlarge, 0.0592/h less.
 */
function memoryAndCompute(
  c = cluster(),
  extra: { memory?: Parameters<typeof pod>[0]; compute?: Parameters<typeof pod>[0] } = {},
  capacity: 'on-demand' | 'spot' = 'on-demand',
): Cluster {
  addNode(
    c,
    'memory',
    'r.2xlarge',
    [
      [4000, 24, extra.memory],
      [3800, 16],
    ],
    capacity,
  );
  addNode(
    c,
    'compute',
    'c.2xlarge',
    [
      [3900, 2, extra.compute],
      [3800, 2],
    ],
    capacity,
  );
  return c;
}

const names = (set: readonly Candidate[] | undefined) => (set ?? []).map((x) => x.node.metadata.name).sort();

describe('consolidation: exchanges (two nodes into two cheaper ones)', () => {
  it('re-packs a memory node and a compute node into two cheaper nodes', () => {
    const { move } = plan(memoryAndCompute());
    expect(move?.method).toBe('replace');
    expect(names(move?.candidates)).toEqual(['compute', 'memory']);
    expect(move?.replacements).toHaveLength(2);
    const cheapest = (move?.replacements ?? []).map((r) =>
      Math.min(...r.instanceTypeOptions.map((o) => o.price)),
    );
    expect(cheapest).toEqual([0.308, 0.308]);
    expect(move?.savings).toBeCloseTo(0.272 + 0.4032 - 2 * 0.308);
    // Whichever options the two new nodes launch with, together they cost less than the pair.
    const dearest = (move?.replacements ?? []).map((r) =>
      Math.max(...r.instanceTypeOptions.map((o) => o.price)),
    );
    expect(dearest[0] + dearest[1]).toBeLessThan(0.272 + 0.4032);
    expect(describeMove(move as NonNullable<typeof move>)).toContain(
      'and replacing with 2 nodes: on-demand node from types m.2xlarge',
    );
  });

  it('finds the mixed split first-fit-decreasing misses (same cpu per pod: memory pods placed first, together)', () => {
    // 2xlarge types only (with every size the re-pack takes smaller nodes that save more).
    const c = cluster();
    addNode(c, 'memory', 'r.2xlarge', [
      [1900, 9],
      [1900, 9],
      [1900, 9],
      [1900, 9],
    ]);
    addNode(c, 'compute', 'c.2xlarge', [
      [1900, 3],
      [1900, 3],
      [1900, 3],
      [1900, 3],
    ]);
    const { move } = plan(c, 100, '.2xlarge');
    expect(plan(c).move?.savings).toBeGreaterThan(0.272 + 0.4032 - 2 * 0.308);
    expect(move?.replacements?.map((r) => r.instanceTypeOptions[0]?.instanceType)).toEqual([
      'm.2xlarge',
      'm.2xlarge',
    ]);
    expect(move?.savings).toBeCloseTo(0.272 + 0.4032 - 2 * 0.308);
  });

  it('is found again when the proposal is re-validated, and one node of the pair alone is no move', () => {
    const { candidates, prepared } = plan(memoryAndCompute());
    expect(evaluate(prepared, candidates)?.replacements).toHaveLength(2);
    expect(evaluate(prepared, [candidates[0]])).toBeUndefined();
    expect(evaluate(prepared, [candidates[1]])).toBeUndefined();
  });

  it('prefers a delete: an exchange is only looked for when nothing else saves', () => {
    const c = memoryAndCompute();
    addNode(c, 'idle', 'c.xlarge', [[100, 1]]);
    const { move } = plan(c);
    expect(move?.method).toBe('delete');
    expect(names(move?.candidates)).toEqual(['idle']);
  });

  it('needs a budget of two nodes', () => {
    expect(plan(memoryAndCompute(), 1).move).toBeUndefined();
  });

  it('never exchanges spot nodes (several spot nodes are never replaced at once, as in Karpenter)', () => {
    expect(plan(memoryAndCompute(cluster([]), {}, 'spot')).move).toBeUndefined();
  });

  it('plans the pods with their anti-affinity: two pods that may not share a node spoil the mixed split', () => {
    const apart = {
      labels: { app: 'apart' },
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'apart' } } },
          ],
        },
      },
    } as Parameters<typeof pod>[0];
    expect(plan(memoryAndCompute(cluster(), { memory: apart, compute: apart })).move).toBeUndefined();
  });
});

/**
 * A memory node whose memory pod and compute pod together just overflow an m.2xlarge (32 GiB,
 * 31.5 allocatable), beside a compute node full by cpu. Neither fits a cheaper node alone, and
 * re-packed into two nodes the pods still need an r.2xlarge and a c.2xlarge: no delete, replace or
 * exchange of two into two saves. Smaller nodes cost the same per cpu, so an r.xlarge for the
 * memory pod, a c.xlarge for its neighbour and a c.2xlarge for the compute pod cost $0.6096/h
 * against $0.6752.
 */
function splittable(c = cluster(), capacity: 'on-demand' | 'spot' = 'on-demand'): Cluster {
  addNode(
    c,
    'memory',
    'r.2xlarge',
    [
      [3800, 26],
      [3800, 6],
    ],
    capacity,
  );
  addNode(c, 'compute', 'c.2xlarge', [[7000, 2]], capacity);
  return c;
}

const typesOf = (move: ReturnType<typeof plan>['move']) =>
  (move?.replacements ?? []).map((r) => r.instanceTypeOptions[0]?.instanceType).sort();

describe('consolidation: re-packs into more, smaller nodes', () => {
  it('re-packs two nodes into three smaller ones when together they cost less', () => {
    const { move } = plan(splittable());
    expect(move?.method).toBe('replace');
    expect(names(move?.candidates)).toEqual(['compute', 'memory']);
    expect(typesOf(move)).toEqual(['c.2xlarge', 'c.xlarge', 'r.xlarge']);
    expect(move?.savings).toBeCloseTo(0.4032 + 0.272 - (0.272 + 0.136 + 0.2016));
    // Whichever options the three launch with, together they cost less than the two nodes.
    const dearest = (move?.replacements ?? []).reduce(
      (sum, r) => sum + Math.max(...r.instanceTypeOptions.map((o) => o.price)),
      0,
    );
    expect(dearest).toBeLessThan(0.4032 + 0.272);
    expect(describeMove(move as NonNullable<typeof move>)).toContain('and replacing with 3 nodes');
  });

  it('re-validates the same re-pack; with a budget of one node it splits the memory node alone', () => {
    const { candidates, prepared } = plan(splittable());
    expect(evaluate(prepared, candidates)?.replacements).toHaveLength(3);
    const one = plan(splittable(), 1).move;
    expect(names(one?.candidates)).toEqual(['memory']);
    expect(typesOf(one)).toEqual(['c.xlarge', 'r.xlarge']);
    expect(one?.savings).toBeCloseTo(0.4032 - 0.2016 - 0.136);
  });

  it('leaves spot nodes alone, and a node already on its cheapest shape', () => {
    expect(plan(splittable(cluster([]), 'spot')).move).toBeUndefined();
    const tight = cluster();
    addNode(tight, 'full', 'r.xlarge', [[3800, 26]]);
    expect(plan(tight).move).toBeUndefined();
  });
});

describe('exchange order', () => {
  it('tries only pairs whose requests two cheaper nodes could hold, most saving first', () => {
    const c = memoryAndCompute();
    addNode(c, 'compute-2', 'c.2xlarge', [[7000, 4]]);
    addNode(c, 'memory-2', 'r.2xlarge', [[7000, 30]]);
    const { candidates } = plan(c);
    const order = exchangeOrder(candidates, [schedulingPool(c)]).map(([i, j]) =>
      [candidates[i], candidates[j]].map((x) => x.node.metadata.name).join('+'),
    );
    // By requests (allocatable is 100m and 0.5 GiB under each size): the two memory nodes (14.8
    // cpu, 70 GiB) fit an r.2xlarge and a c.2xlarge, 0.6752 against 0.8064; a memory node with a
    // compute node (14.0-15.5 cpu, 34-44 GiB) fits a c.2xlarge and an m.2xlarge, 0.58 against
    // 0.6752, ties in candidate order. The two compute nodes already sit on the cheapest types.
    expect(order).toEqual([
      'memory-2+memory',
      'memory-2+compute-2',
      'memory-2+compute',
      'compute-2+memory',
      'memory+compute',
    ]);
    expect(exchangeOrder(candidates, [schedulingPool(c)], 1)).toHaveLength(1);
    expect(() => exchangeOrder(candidates, [schedulingPool(c)], -1)).toThrow(/exchange trials must be/);
  });

  it('leaves out spot nodes', () => {
    const c = memoryAndCompute(cluster([]), {}, 'spot');
    expect(exchangeOrder(plan(c).candidates, [schedulingPool(c)])).toEqual([]);
  });
});
