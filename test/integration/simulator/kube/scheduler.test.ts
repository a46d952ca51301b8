import type { V1Pod } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, nodeBody, podBody, startHarness } from './fixtures.js';

const ZONE = 'topology.kubernetes.io/zone';

function pods(h: Harness): V1Pod[] {
  return h.sim.store.list<V1Pod>('v1', 'Pod', { namespace: 'default' });
}

function nodeOf(h: Harness, name: string): string | undefined {
  return pods(h).find((p) => p.metadata?.name === name)?.spec?.nodeName;
}

function unschedulableMessage(h: Harness, name: string): string | undefined {
  const pod = pods(h).find((p) => p.metadata?.name === name);
  const c = pod?.status?.conditions?.find((x) => x.type === 'PodScheduled');
  return c?.status === 'False' && c.reason === 'Unschedulable' ? c.message : undefined;
}

describe('the simulated kube-scheduler uses joiner scheduling predicates', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.sim.close();
  });

  it('spreads over the least allocated nodes and reports Insufficient cpu like the real scheduler', async () => {
    await h.sim.store.create(nodeBody('n1', { cpu: '2' }));
    await h.sim.store.create(nodeBody('n2', { cpu: '2' }));
    for (const name of ['a', 'b', 'c']) await h.sim.store.create(podBody(name, {}, '1200m'));
    await h.sim.scheduleNow();
    const placed = ['a', 'b', 'c'].map((n) => nodeOf(h, n));
    expect(placed.filter((n) => n === 'n1')).toHaveLength(1);
    expect(placed.filter((n) => n === 'n2')).toHaveLength(1);
    const waiting = ['a', 'b', 'c'].find((n) => nodeOf(h, n) === undefined)!;
    expect(unschedulableMessage(h, waiting)).toMatch(
      /^0\/2 nodes are available: 2 Insufficient cpu\. preemption: 0\/2 nodes are available/,
    );
  });

  it('honours zone topology spread and hostname anti-affinity', async () => {
    for (const [name, zone] of [
      ['n1', 'us-west-2a'],
      ['n2', 'us-west-2a'],
      ['n3', 'us-west-2b'],
    ])
      await h.sim.store.create(nodeBody(name, { labels: { [ZONE]: zone } }));
    const spread = (name: string) => ({
      ...podBody(name, { app: 'web' }),
      spec: {
        ...podBody(name).spec,
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: ZONE,
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: { app: 'web' } },
          },
        ],
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'web' } } },
            ],
          },
        },
      },
    });
    for (const name of ['w1', 'w2', 'w3', 'w4']) await h.sim.store.create(spread(name));
    await h.sim.scheduleNow();
    const nodes = ['w1', 'w2', 'w3', 'w4'].map((n) => nodeOf(h, n)).filter((n) => n !== undefined);
    expect(new Set(nodes).size).toBe(nodes.length);
    expect(nodes).toHaveLength(3);
    const zoneOf = (n: string) => (n === 'n3' ? 'us-west-2b' : 'us-west-2a');
    const perZone = new Map<string, number>();
    for (const n of nodes) perZone.set(zoneOf(n), (perZone.get(zoneOf(n)) ?? 0) + 1);
    expect(Math.abs((perZone.get('us-west-2a') ?? 0) - (perZone.get('us-west-2b') ?? 0))).toBeLessThanOrEqual(
      1,
    );
    const waiting = ['w1', 'w2', 'w3', 'w4'].find((n) => nodeOf(h, n) === undefined)!;
    expect(unschedulableMessage(h, waiting)).toMatch(/^0\/3 nodes are available: /);
  });

  it('does not bind to a node that is not Ready or is cordoned', async () => {
    const notReady = nodeBody('sleepy');
    notReady.status.conditions = [{ type: 'Ready', status: 'False' }];
    await h.sim.store.create(notReady);
    await h.sim.store.create({ ...nodeBody('cordoned'), spec: { unschedulable: true } });
    await h.sim.store.create(podBody('p'));
    await h.sim.scheduleNow();
    expect(nodeOf(h, 'p')).toBeUndefined();
    expect(unschedulableMessage(h, 'p')).toMatch(
      /1 node\(s\) had untolerated taint \{node\.kubernetes\.io\/not-ready: \}.*1 node\(s\) were unschedulable|1 node\(s\) were unschedulable.*not-ready/,
    );
  });
});
