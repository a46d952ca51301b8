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

  it('keeps two pods with the same hostPort apart (protocol TCP, hostIP 0.0.0.0 by default)', async () => {
    await h.sim.store.create(nodeBody('n1'));
    const withPort = (name: string, port: Record<string, unknown>) => {
      const body = podBody(name);
      return {
        ...body,
        spec: { containers: [{ ...body.spec.containers[0], ports: [{ containerPort: 80, ...port }] }] },
      };
    };
    await h.sim.store.create(withPort('a', { hostPort: 8080 }));
    await h.sim.store.create(withPort('b', { hostPort: 8080, protocol: 'TCP', hostIP: '10.0.0.9' }));
    await h.sim.store.create(withPort('c', { hostPort: 8080, protocol: 'UDP' }));
    await h.sim.scheduleNow();
    expect(nodeOf(h, 'a')).toBe('n1');
    expect(nodeOf(h, 'c')).toBe('n1');
    expect(nodeOf(h, 'b')).toBeUndefined();
    expect(unschedulableMessage(h, 'b')).toMatch(/didn't have free ports for the requested pod ports/);
  });

  it('binds a pod whose claim waits for its first consumer only in the zones its StorageClass allows', async () => {
    await h.sim.store.create(nodeBody('in-a', { labels: { [ZONE]: 'us-west-2a' } }));
    await h.sim.store.create(nodeBody('in-b', { labels: { [ZONE]: 'us-west-2b' } }));
    await h.sim.store.create({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'gp3-b' },
      provisioner: 'ebs.csi.aws.com',
      volumeBindingMode: 'WaitForFirstConsumer',
      allowedTopologies: [
        { matchLabelExpressions: [{ key: 'topology.ebs.csi.aws.com/zone', values: ['us-west-2b'] }] },
      ],
    });
    await h.sim.store.create({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'default' },
      spec: {
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'gp3-b',
        resources: { requests: { storage: '1Gi' } },
      },
    });
    for (const name of ['v1', 'v2']) {
      const body = podBody(name);
      await h.sim.store.create({
        ...body,
        spec: { ...body.spec, volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] },
      });
    }
    await h.sim.scheduleNow();
    expect(nodeOf(h, 'v1')).toBe('in-b');
    expect(nodeOf(h, 'v2')).toBe('in-b');
  });

  it('counts topology spread only on the nodes the pod may use (nodeAffinityPolicy Honor by default)', async () => {
    await h.sim.store.create(nodeBody('x1', { labels: { team: 'x' } }));
    await h.sim.store.create(nodeBody('y1', { labels: { team: 'y' } }));
    const spread = (name: string, policy?: 'Ignore') => {
      const body = podBody(name, { app: 'w' });
      return {
        ...body,
        spec: {
          ...body.spec,
          nodeSelector: { team: 'y' },
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'kubernetes.io/hostname',
              whenUnsatisfiable: 'DoNotSchedule',
              labelSelector: { matchLabels: { app: 'w' } },
              ...(policy ? { nodeAffinityPolicy: policy } : {}),
            },
          ],
        },
      };
    };
    await h.sim.store.create(spread('s1'));
    await h.sim.store.create(spread('s2'));
    await h.sim.scheduleNow();
    expect([nodeOf(h, 's1'), nodeOf(h, 's2')]).toEqual(['y1', 'y1']);
    await h.sim.store.create(spread('s3', 'Ignore'));
    await h.sim.scheduleNow();
    expect(nodeOf(h, 's3')).toBeUndefined();
    expect(unschedulableMessage(h, 's3')).toMatch(/topology spread/);
  });
  it('honours pod (anti-)affinity on architecture and capacity type, and a node without the key is not repelled', async () => {
    const ARCH = 'kubernetes.io/arch';
    const CT = 'karpenter.sh/capacity-type';
    await h.sim.store.create(nodeBody('amd', { labels: { [ARCH]: 'amd64', [CT]: 'spot' } }));
    await h.sim.store.create(nodeBody('arm', { labels: { [ARCH]: 'arm64', [CT]: 'on-demand' } }));
    const withAffinity = (name: string, labels: Record<string, string>, affinity: object) => {
      const body = podBody(name, labels);
      return { ...body, spec: { ...body.spec, affinity } };
    };
    const term = (key: string, app: string) => [
      { topologyKey: key, labelSelector: { matchLabels: { app } } },
    ];
    for (const name of ['a1', 'a2', 'a3'])
      await h.sim.store.create(
        withAffinity(
          name,
          { app: 'a' },
          { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: term(ARCH, 'a') } },
        ),
      );
    await h.sim.scheduleNow();
    const placed = ['a1', 'a2', 'a3'].map((n) => nodeOf(h, n));
    expect(placed.filter((n) => n !== undefined).sort()).toEqual(['amd', 'arm']);
    const waiting = ['a1', 'a2', 'a3'].find((n) => nodeOf(h, n) === undefined)!;
    expect(unschedulableMessage(h, waiting)).toMatch(/^0\/2 nodes are available: /);
    // Follows the capacity type of the pod it wants to be with (least-allocated alone would pick arm).
    const solo = podBody('solo', { app: 'solo' });
    await h.sim.store.create({ ...solo, spec: { ...solo.spec, nodeSelector: { [ARCH]: 'amd64' } } });
    await h.sim.scheduleNow();
    expect(nodeOf(h, 'solo')).toBe('amd');
    await h.sim.store.create(
      withAffinity(
        'f',
        {},
        { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: term(CT, 'solo') } },
      ),
    );
    await h.sim.scheduleNow();
    expect(nodeOf(h, 'f')).toBe('amd');
    // A node without the architecture label is in no domain of the anti-affinity term.
    await h.sim.store.create(nodeBody('plain'));
    await h.sim.scheduleNow();
    expect(nodeOf(h, waiting)).toBe('plain');
  });

  it('re-writes an Unschedulable reason that changed only after the pod backoff (1 s, doubling, at most 10 s)', async () => {
    await h.sim.store.create(nodeBody('n1', { cpu: '1' }));
    await h.sim.store.create(podBody('big', {}, '4'));
    await h.sim.scheduleNow();
    expect(unschedulableMessage(h, 'big')).toMatch(/^0\/1 nodes are available/);
    // A second node changes the reason (0/2), but the pod is still in its backoff: unchanged.
    await h.sim.store.create(nodeBody('n2', { cpu: '1' }));
    await h.sim.scheduleNow();
    expect(unschedulableMessage(h, 'big')).toMatch(/^0\/1 nodes are available/);
    await h.clock.advance(1_000);
    await h.sim.scheduleNow();
    expect(unschedulableMessage(h, 'big')).toMatch(/^0\/2 nodes are available/);
    // The next change waits 2 s.
    await h.sim.store.create(nodeBody('n3', { cpu: '1' }));
    await h.clock.advance(1_000);
    await h.sim.scheduleNow();
    expect(unschedulableMessage(h, 'big')).toMatch(/^0\/2 nodes are available/);
    await h.clock.advance(1_000);
    await h.sim.scheduleNow();
    expect(unschedulableMessage(h, 'big')).toMatch(/^0\/3 nodes are available/);
  });

  it('never re-writes an unchanged Unschedulable condition, and writes it at once when another writer clears it', async () => {
    await h.sim.store.create(nodeBody('n1', { cpu: '1' }));
    await h.sim.store.create(podBody('big', {}, '4'));
    await h.sim.scheduleNow();
    const version = () => pods(h).find((p) => p.metadata?.name === 'big')?.metadata?.resourceVersion;
    const marked = version();
    expect(unschedulableMessage(h, 'big')).toMatch(/^0\/1 nodes are available/);
    await h.clock.advance(5_000);
    await h.sim.scheduleNow();
    expect(version()).toBe(marked);
    // Another writer drops the condition: the next pass writes it again, refresh due or not.
    await h.sim.store.patch('v1', 'Pod', 'big', 'default', { status: { conditions: [] } }, 'status');
    expect(unschedulableMessage(h, 'big')).toBeUndefined();
    await h.sim.scheduleNow();
    expect(unschedulableMessage(h, 'big')).toMatch(/^0\/1 nodes are available/);
    const rewritten = version();
    // Unchanged, it is not written again, however long the pod waits (the real scheduler's
    // UpdatePodCondition finds nothing to patch).
    for (const wait of [30_000, 31_000, 300_000]) {
      await h.clock.advance(wait);
      await h.sim.scheduleNow();
      expect(version()).toBe(rewritten);
    }
  });

  it('keeps lastTransitionTime when only the message changes', async () => {
    await h.sim.store.create(nodeBody('n1', { cpu: '1' }));
    await h.sim.store.create(podBody('big', {}, '4'));
    await h.sim.scheduleNow();
    const scheduled = () =>
      pods(h)
        .find((p) => p.metadata?.name === 'big')
        ?.status?.conditions?.find((c) => c.type === 'PodScheduled');
    const first = scheduled()?.lastTransitionTime;
    expect(first).toBeDefined();
    await h.clock.advance(5_000);
    await h.sim.store.create(nodeBody('n2', { cpu: '1' }));
    await h.sim.scheduleNow();
    expect(unschedulableMessage(h, 'big')).toMatch(/^0\/2 nodes are available/);
    expect(scheduled()?.lastTransitionTime).toBe(first);
  });

  it('binds a waiting pod once a bound pod finishes or takes the labels its affinity needs', async () => {
    await h.sim.store.create(nodeBody('n1', { cpu: '1' }));
    await h.sim.store.create(podBody('first', {}, '800m'));
    await h.sim.scheduleNow();
    expect(nodeOf(h, 'first')).toBe('n1');
    await h.sim.store.create(podBody('second', {}, '800m'));
    await h.sim.scheduleNow();
    expect(unschedulableMessage(h, 'second')).toMatch(/Insufficient cpu/);
    // Status updates that free nothing leave it waiting.
    await h.sim.store.patch('v1', 'Pod', 'first', 'default', { status: { phase: 'Running' } }, 'status');
    await h.sim.scheduleNow();
    expect(nodeOf(h, 'second')).toBeUndefined();
    // A finished pod's resources are free: the next pass binds the waiting pod.
    await h.sim.store.patch('v1', 'Pod', 'first', 'default', { status: { phase: 'Succeeded' } }, 'status');
    await h.sim.scheduleNow();
    expect(nodeOf(h, 'second')).toBe('n1');
    // A pod that must join app=web waits until a bound pod is labelled so.
    const follower = podBody('follower', {}, '100m');
    await h.sim.store.create({
      ...follower,
      spec: {
        ...follower.spec,
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' },
            ],
          },
        },
      },
    });
    await h.sim.scheduleNow();
    expect(nodeOf(h, 'follower')).toBeUndefined();
    await h.sim.store.patch('v1', 'Pod', 'second', 'default', { metadata: { labels: { app: 'web' } } });
    await h.sim.scheduleNow();
    expect(nodeOf(h, 'follower')).toBe('n1');
  });
});
