import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../functions/core/model/kube-objects.js';
import { RemovalRuns } from '../../../../functions/core/scheduling/removal-runs.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import type { ExistingNode, SchedulingPool } from '../../../../functions/core/scheduling/types.js';
import { SeededRandom } from '../../../../functions/simulator/clock.js';
import { nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';
import { existing, pool, ZONES } from './fixtures.js';

const GI = 2 ** 30;
const ZONE = 'topology.kubernetes.io/zone';
const HOSTNAME = 'kubernetes.io/hostname';

interface Built {
  nodes: ExistingNode[];
  movable: Map<string, Pod[]>;
  pools: SchedulingPool[];
}

/** `count` nodes of 4 cpu over three zones, each running pods of a few apps (some spread by zone, some anti-affine by host). */
function cluster(count: number, seed = 1, pools = [pool(nodePool({ name: 'default' }))]): Built {
  const random = new SeededRandom(seed);
  const nodes: ExistingNode[] = [];
  const movable = new Map<string, Pod[]>();
  let n = 0;
  for (let i = 0; i < count; i++) {
    const name = `node-${i}`;
    const bound: Pod[] = [];
    const pods = 1 + Math.floor(random.next() * 4);
    for (let j = 0; j < pods; j++) {
      const app = `app-${Math.floor(random.next() * 6)}`;
      const kind = Number(app.slice(4)) % 3;
      bound.push(
        pod({
          name: `${app}-${++n}`,
          labels: { app },
          nodeName: name,
          ownerKind: 'ReplicaSet',
          requests: { cpu: `${250 * (1 + Math.floor(random.next() * 4))}m`, memory: '512Mi' },
          ...(kind === 1
            ? {
                topologySpreadConstraints: [
                  {
                    maxSkew: 1,
                    topologyKey: ZONE,
                    whenUnsatisfiable: 'DoNotSchedule' as const,
                    labelSelector: { matchLabels: { app } },
                  },
                ],
              }
            : {}),
          ...(kind === 2
            ? {
                affinity: {
                  podAntiAffinity: {
                    requiredDuringSchedulingIgnoredDuringExecution: [
                      { topologyKey: HOSTNAME, labelSelector: { matchLabels: { app } } },
                    ],
                  },
                },
              }
            : {}),
        }),
      );
    }
    nodes.push(
      existing(name, {
        labels: { [ZONE]: ZONES[i % 3], 'karpenter.sh/nodepool': 'default' },
        allocatable: { cpu: 4000, memory: 16 * GI, pods: 58 },
        pods: bound,
        nodePool: 'default',
      }),
    );
    movable.set(
      name,
      bound.map((p) => ({ ...p, spec: { ...p.spec, nodeName: undefined } })),
    );
  }
  return { nodes, movable, pools };
}

function runsOf(c: Built): RemovalRuns {
  return new RemovalRuns({
    nodes: c.nodes,
    movable: c.movable,
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools: c.pools,
  });
}

/** The same question asked of a fresh scheduler run: the plan of the removed nodes' pods on the rest. */
function planWithout(c: Built, removed: readonly string[]) {
  const gone = new Set(removed);
  return schedule({
    pods: removed.flatMap((name) => c.movable.get(name) ?? []),
    nodes: c.nodes.filter((n) => !gone.has(n.name)),
    inFlight: [],
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools: c.pools,
    skipImprovement: true,
  });
}

function fromScratch(c: Built, removed: readonly string[]) {
  const plan = planWithout(c, removed);
  return { claims: plan.nodeClaims.length, unschedulable: plan.unschedulable.length };
}

function summary(o: ReturnType<RemovalRuns['trial']>) {
  return { claims: o.newClaims.length, unschedulable: o.unschedulable };
}

function someNodes(c: Built, random: SeededRandom, k: number): string[] {
  const names = c.nodes.map((n) => n.name);
  const out = new Set<string>();
  while (out.size < k) out.add(names[Math.floor(random.next() * names.length)]);
  return [...out];
}

describe('RemovalRuns: what if these nodes went', () => {
  it('answers as a fresh scheduler run does, and a rollback leaves nothing behind', () => {
    const c = cluster(30);
    const runs = runsOf(c);
    const random = new SeededRandom(9);
    for (let t = 0; t < 25; t++) {
      const set = someNodes(c, random, 1 + (t % 12));
      const first = summary(runs.trial(set));
      runs.rollback();
      expect(first).toEqual(fromScratch(c, set));
      expect(summary(runs.trial(set))).toEqual(first);
      runs.rollback();
    }
  });

  it('a committed trial stays: its nodes are gone, receivers stay, later trials add to it', () => {
    const c = cluster(12, 3);
    const runs = runsOf(c);
    const outcome = runs.trial(['node-0']);
    expect(outcome.pods).toBe(c.movable.get('node-0')?.length);
    expect(summary(outcome)).toEqual({ claims: 0, unschedulable: 0 });
    runs.commit();
    expect(runs.removed()).toEqual(new Set(['node-0']));
    expect(runs.canRemove('node-0')).toBe(false);
    const receivers = c.nodes.filter((n) => n.name !== 'node-0' && !runs.canRemove(n.name));
    expect(receivers.length).toBeGreaterThan(0);
    expect(() => runs.trial([receivers[0].name])).toThrow(/cannot be taken away/);
    // The next trial places only its own node's pods, on the cluster without node-0.
    const other = c.nodes.find((n) => runs.canRemove(n.name))!.name;
    const next = runs.trial([other]);
    expect(next.pods).toBe(c.movable.get(other)?.length);
    runs.rollback();
    expect(summary(next)).toEqual(fromScratchAfter(c, ['node-0'], [other]));
  });

  it('keeps a new node a committed trial opened and fills it before opening another', () => {
    // Two full nodes: taking one away needs a new node; the second one's pods go there too when they fit.
    const big = (name: string, app: string) =>
      existing(name, {
        labels: { [ZONE]: 'zone-a' },
        allocatable: { cpu: 4000, memory: 16 * GI, pods: 58 },
        pods: [pod({ name: `${app}-0`, nodeName: name, requests: { cpu: '3000m', memory: '1Gi' } })],
      });
    const nodes = [big('a', 'x'), big('b', 'y'), big('c', 'z')];
    const z = pod({ name: 'z-0', nodeName: 'c', requests: { cpu: '1500m', memory: '1Gi' } });
    const filler = pod({ name: 'fill', nodeName: 'c', requests: { cpu: '2000m', memory: '1Gi' } });
    nodes[2] = { ...nodes[2], pods: [z, filler] };
    const movable = new Map(
      nodes.map((n) => [n.name, n.pods.map((p) => ({ ...p, spec: { ...p.spec, nodeName: undefined } }))]),
    );
    const runs = runsOf({ nodes, movable, pools: [pool(nodePool({ name: 'default' }))] });
    const first = runs.trial(['c']);
    expect(first.newClaims).toHaveLength(1);
    runs.commit();
    const second = runs.trial(['a']);
    expect(second.newClaims).toHaveLength(1);
    expect(second.newClaims[0].pods).toHaveLength(3);
    expect(second.unschedulable).toBe(0);
    runs.rollback();
    // The open claim was restored: the same trial gives the same answer.
    expect(runs.trial(['a']).newClaims).toEqual(second.newClaims);
    runs.rollback();
  });

  it('reset undoes every committed trial', () => {
    const c = cluster(20, 5);
    const runs = runsOf(c);
    const before = summary(runs.trial(['node-3', 'node-4']));
    runs.rollback();
    for (let i = 0; i < 3; i++) {
      runs.trial([c.nodes.find((n) => runs.canRemove(n.name))!.name]);
      runs.commit();
    }
    expect(runs.removed().size).toBe(3);
    runs.reset();
    expect(runs.removed().size).toBe(0);
    expect(c.nodes.every((n) => runs.canRemove(n.name))).toBe(true);
    expect(summary(runs.trial(['node-3', 'node-4']))).toEqual(before);
    runs.rollback();
  });

  it('zone spread: a removed node no longer counts its pods, and counts come back on rollback', () => {
    const spread = (name: string, node: string) =>
      pod({
        name,
        labels: { app: 's' },
        nodeName: node,
        requests: { cpu: '100m' },
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: ZONE,
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: { app: 's' } },
          },
        ],
      });
    const at = (name: string, zone: string, pods: Pod[]) =>
      existing(name, {
        labels: { [ZONE]: zone },
        pods,
        allocatable: { cpu: 4000, memory: 16 * GI, pods: 58 },
      });
    // zone-a: a1 (s-1), a2 (nothing); zone-b: b1 (s-2); zone-c: c1 (s-3). No pools: no new nodes.
    const nodes = [
      at('a1', 'zone-a', [spread('s-1', 'a1')]),
      at('a2', 'zone-a', []),
      at('b1', 'zone-b', [spread('s-2', 'b1')]),
      at('c1', 'zone-c', [spread('s-3', 'c1')]),
    ];
    const movable = new Map(
      nodes.map((n) => [n.name, n.pods.map((p) => ({ ...p, spec: { ...p.spec, nodeName: undefined } }))]),
    );
    const runs = runsOf({ nodes, movable, pools: [] });
    // Without a1, s-1 goes to a2: zone-a counts 0 once a1's pod is uncounted.
    expect(summary(runs.trial(['a1']))).toEqual({ claims: 0, unschedulable: 0 });
    runs.rollback();
    // Without a1 and a2, zone-a is no domain any more (no node, no pool): s-1 goes to b or c.
    expect(summary(runs.trial(['a1', 'a2']))).toEqual({ claims: 0, unschedulable: 0 });
    runs.rollback();
    expect(fromScratch({ nodes, movable, pools: [] }, ['a1', 'a2'])).toEqual({ claims: 0, unschedulable: 0 });
    // Without b1, s-2 may not go to zone-a or zone-c (they would reach 2 while zone-b has 0)...
    // unless it stays in zone-b: nowhere, so it is unschedulable; counts came back after each rollback.
    expect(summary(runs.trial(['b1']))).toEqual(fromScratch({ nodes, movable, pools: [] }, ['b1']));
    runs.rollback();
  });

  it('refuses misuse with a message naming it', () => {
    const c = cluster(4);
    const runs = runsOf(c);
    expect(() => runs.trial(['nope'])).toThrow(/node nope cannot be taken away/);
    runs.trial(['node-0']);
    expect(() => runs.trial(['node-1'])).toThrow(/neither committed nor rolled back/);
    expect(() => runs.reset()).toThrow(/a trial is open/);
    runs.commit();
    expect(() => runs.commit()).toThrow(/no trial is open/);
    expect(() => runs.trial(['node-0'])).toThrow(/node node-0 cannot be taken away/);
  });
});

/** A fresh scheduler run of `next`'s pods after `first` went (their pods placed where a fresh run puts them). */
function fromScratchAfter(c: Built, first: readonly string[], next: readonly string[]) {
  const gone = new Set(first);
  const plan = planWithout(c, first);
  const byId = new Map(
    first.flatMap((name) => c.movable.get(name) ?? []).map((p) => [`default/${p.metadata.name}`, p]),
  );
  const nodes = c.nodes
    .filter((n) => !gone.has(n.name))
    .map((n) => {
      const moved = plan.existingPlacements.find((e) => e.node === n.name)?.pods ?? [];
      const extra = moved.map((id) => ({
        ...byId.get(id)!,
        spec: { ...byId.get(id)!.spec, nodeName: n.name },
      }));
      return { ...n, pods: [...n.pods, ...extra] };
    });
  return fromScratch({ ...c, nodes }, next);
}
