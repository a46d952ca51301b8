import { describe, expect, it } from 'vitest';
import { consolidationCandidates } from '../../../../functions/core/disruption/consolidation/candidates.js';
import { planConsolidation } from '../../../../functions/core/disruption/consolidation/plan-consolidation.js';
import { prepareCluster } from '../../../../functions/core/disruption/consolidation/removal-simulation.js';
import {
  SEARCH_RESERVE_MS,
  SearchBudget,
} from '../../../../functions/core/disruption/consolidation/search-budget.js';
import { disruptionView } from '../../../../functions/core/disruption/disruption-view.js';
import type { Node, Pod } from '../../../../functions/core/model/kube-objects.js';
import { newNodeClaim } from '../../../../functions/core/nodeclaim/create.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { claimInput } from '../../../builders/claims.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { node, pod } from '../../../builders/workloads.js';
import { instanceType } from '../scheduling/fixtures.js';

const NOW = Date.UTC(2026, 0, 1, 12);
const HOUR = 3_600_000;
const POOL = nodePool({
  disruption: { consolidateAfterMs: 30_000 },
  requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }],
});

/** `count` c.xlarge nodes (4 vCPU), each running one pod of `cpu`. */
function cluster(count: number, cpu: string) {
  const claims: NodeClaim[] = [];
  const nodes: Node[] = [];
  const pods: Pod[] = [];
  for (let i = 0; i < count; i++) {
    const name = `n${i}`;
    const option = {
      instanceType: 'c.xlarge',
      zone: 'zone-a',
      capacityType: 'on-demand' as const,
      price: 0.17,
    };
    const claim = newNodeClaim(claimInput(name, option), NOW - 2 * HOUR);
    claims.push({
      ...claim,
      state: 'Initialized',
      version: 1,
      nodeName: name,
      timers: {},
      instance: { instanceId: `i-${name}`, ...option },
      timestamps: { Pending: NOW - 2 * HOUR, Initialized: NOW - 2 * HOUR },
    });
    nodes.push(
      node({
        name,
        instanceType: 'c.xlarge',
        zone: 'zone-a',
        nodePool: 'default',
        allocatable: { cpu: '3900m', memory: '7680Mi', pods: '58' },
        labels: { 'karpenter.sh/capacity-type': 'on-demand' },
      }),
    );
    const bound = pod({
      name: `web-${i}`,
      nodeName: name,
      requests: { cpu, memory: '256Mi' },
      ownerKind: 'ReplicaSet',
      labels: { app: 'web' },
    });
    bound.status = {
      phase: 'Running',
      startTime: new Date(NOW - HOUR).toISOString(),
      conditions: [{ type: 'Ready', status: 'True' }],
    } as Pod['status'];
    pods.push(bound);
  }
  const types = [
    instanceType('c.large', 2, 4, 0.085, { zones: ['zone-a'] }),
    instanceType('c.xlarge', 4, 8, 0.17, { zones: ['zone-a'] }),
  ];
  const view = disruptionView(NOW, claims, nodes, pods, [], {
    nodePools: [POOL],
    nodeClasses: [nodeClass()],
    nodePoolNames: new Set([POOL.name]),
  });
  const { candidates } = consolidationCandidates(view, 30_000);
  const prepared = prepareCluster({
    nodes,
    boundPods: pods,
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools: [{ pool: POOL, nodeClass: nodeClass(), instanceTypes: types }],
    leaving: new Set(),
  });
  return { candidates, prepared };
}

/** The nodes a search removes with `budget`, and the method. */
function search(budget: SearchBudget, count = 12, cpu = '1') {
  const { candidates, prepared } = cluster(count, cpu);
  const move = planConsolidation(budget.counting(prepared), candidates, {
    allowed: () => 100,
    expired: budget.expired,
  });
  return { method: move?.method, nodes: move?.candidates.map((c) => c.node.metadata.name) ?? [] };
}

/** A wall clock that moves `stepMs` each time it is read: a host slower than any search allows. */
function crawlingWall(stepMs: number): () => number {
  let t = 0;
  return () => (t += stepMs);
}

describe('SearchBudget', () => {
  it('gives the same search on a fast and on a crawling host: the budget is evaluations, and remaining time that stands still', () => {
    const remainingMs = () => 50_000; // virtual: stands still while joiner computes
    const fast = search(new SearchBudget({ remainingMs, wallNow: crawlingWall(0.001) }));
    const slow = search(new SearchBudget({ remainingMs, wallNow: crawlingWall(60_000) }));
    expect(fast.nodes.length).toBeGreaterThan(1);
    expect(slow).toEqual(fast);
  });

  it('counts one evaluation per node of each trial and stops once they are spent, the same way every time', () => {
    const full = new SearchBudget();
    const whole = search(full);
    expect(full.cutBy).toBeUndefined();
    expect(full.spent).toBeGreaterThanOrEqual(12);
    const tight = () => new SearchBudget({ evaluations: 3 });
    const first = tight();
    const cut = search(first);
    expect(first.cutBy).toBe('evaluations');
    expect(cut).toEqual(search(tight()));
    expect(cut.nodes.length).toBeLessThan(whole.nodes.length);
  });

  it('stops when the invocation has less than the reserve left, and on wall time only where that is unknown', () => {
    let left = SEARCH_RESERVE_MS + 1;
    const lambda = new SearchBudget({ remainingMs: () => left, wallNow: crawlingWall(1e9) });
    expect(lambda.expired()).toBe(false);
    left = SEARCH_RESERVE_MS - 1;
    expect(lambda.expired()).toBe(true);
    expect(lambda.cutBy).toBe('remaining-time');
    left = 60_000;
    expect(lambda.expired()).toBe(true);

    const wall = new SearchBudget({ wallLimitMs: 1_000, wallNow: crawlingWall(600) });
    expect(wall.expired()).toBe(false);
    expect(wall.expired()).toBe(true);
    expect(wall.cutBy).toBe('wall-time');
  });

  it('refuses limits that are not numbers of the right kind, naming them', () => {
    expect(() => new SearchBudget({ evaluations: -1 })).toThrow(
      /consolidation search evaluations must be an integer >= 0, got -1/,
    );
    expect(() => new SearchBudget({ evaluations: 1.5 })).toThrow(/evaluations must be an integer/);
    expect(() => new SearchBudget({ wallLimitMs: 0 })).toThrow(
      /consolidation search wall-time limit must be > 0 ms, got 0/,
    );
  });
});
