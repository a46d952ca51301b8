import { PatchStrategy, setHeaderOptions, type V1Node, type V1Pod } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimInstance } from '../../../../functions/simulator/instance.js';
import { nodeConfigUserData } from '../../../builders/node-config.js';
import { type Harness, nodeBody, startHarness } from './fixtures.js';

const NODE = 'ip-10-0-1-23.us-west-2.compute.internal';

const userData = nodeConfigUserData({ flags: ['--node-labels=karpenter.sh/nodepool=default'] });

const instance: SimInstance = {
  instanceId: 'i-0123456789abcdef0',
  instanceType: 'm5.2xlarge',
  availabilityZone: 'us-west-2b',
  capacityType: 'on-demand',
  imageId: 'ami-0abc',
  launchTime: Date.UTC(2026, 0, 1),
  privateDnsName: NODE,
  privateIpAddress: '10.0.1.23',
  userData,
  tags: { 'karpenter.sh/nodepool': 'default' },
  networkInterfaces: [],
  state: 'running',
};

const second = (ms: number) => ({ delayMs: ms, jitterMs: 0 });

describe('disruptions observed by the simulated API server', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({
      nodeRegistered: second(1000),
      nodeReady: second(1000),
      podRunning: second(1000),
      podTerminated: second(1000),
      nodeNotReady: second(2000),
      nodeRemoved: second(5000),
    });
  });
  afterEach(async () => {
    await h.sim.close();
  });

  const advance = async (ms: number): Promise<void> => {
    for (let t = 0; t < ms; t += 500) {
      await h.clock.advance(500);
      await h.sim.idle();
    }
  };
  const webPods = () =>
    h.sim.store
      .list<V1Pod>('v1', 'Pod', { namespace: 'default', labelSelector: 'app=web' })
      .filter((p) => !p.metadata?.deletionTimestamp);

  /** A node from a running instance, `replicas` web pods Running on it, a daemonset pod and a PDB. */
  async function cluster(replicas: number, pdb: { minAvailable?: number | string; maxUnavailable?: number }) {
    await h.sim.store.create({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'kube-system' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { tolerations: [{ operator: 'Exists' }], containers: [{ name: 'a', image: 'agent' }] },
        },
      },
    });
    await h.sim.store.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx', resources: { requests: { cpu: '100m' } } }] },
        },
      },
    });
    await h.sim.store.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web', namespace: 'default' },
      spec: { ...pdb, selector: { matchLabels: { app: 'web' } } },
    });
    h.sim.observer.instanceRunning(instance);
    await advance(5000);
    expect(webPods().map((p) => [p.spec?.nodeName, p.status?.phase])).toEqual(
      Array.from({ length: replicas }, () => [NODE, 'Running']),
    );
  }

  const evict = (name: string) =>
    h.core.createNamespacedPodEviction({
      name,
      namespace: 'default',
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } },
    });

  it('records no violation for an eviction the budget allows, nor for a scale-down by the owner', async () => {
    await cluster(3, { minAvailable: 2 });
    await evict(webPods()[0].metadata?.name as string);
    await advance(3000);
    await h.sim.store.patch('apps/v1', 'Deployment', 'web', 'default', { spec: { replicas: 1 } });
    await advance(3000);
    expect(webPods()).toHaveLength(1);
    expect(h.sim.disruptionViolations()).toEqual([]);
    expect(h.sim.podsLost()).toEqual([]);
  });

  it('records a DELETE of a pod protected by minAvailable = all as a violation, not a pod lost', async () => {
    await cluster(2, { minAvailable: '100%' });
    const [first] = webPods();
    const at = h.clock.now();
    await h.core.deleteNamespacedPod({ name: first.metadata?.name as string, namespace: 'default' });
    expect(h.sim.disruptionViolations()).toEqual([
      {
        pdb: 'default/web',
        pod: `default/${first.metadata?.name}`,
        at,
        how: 'delete',
        currentHealthy: 1,
        desiredHealthy: 2,
      },
    ]);
    // The pod was already unhealthy (terminating): deleting it again, even at once, is no new violation.
    await h.core.deleteNamespacedPod({
      name: first.metadata?.name as string,
      namespace: 'default',
      gracePeriodSeconds: 0,
    });
    await advance(3000);
    expect(h.sim.disruptionViolations()).toHaveLength(1);
    expect(h.sim.podsLost()).toEqual([]);
  });

  it('records the pods of a terminated instance as violations and as lost, daemonset pods aside', async () => {
    await cluster(2, { maxUnavailable: 1 });
    const names = webPods().map((p) => `default/${p.metadata?.name}`);
    h.sim.observer.instanceTerminated(instance);
    await advance(2500);
    const node = await h.core.readNode({ name: NODE });
    expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('Unknown');
    expect(webPods().map((p) => p.status?.conditions?.find((c) => c.type === 'Ready')?.status)).toEqual([
      'False',
      'False',
    ]);
    // The first pod down leaves 1 healthy of the 1 desired; the second breaks the budget.
    expect(h.sim.disruptionViolations()).toEqual([
      expect.objectContaining({ pdb: 'default/web', pod: names[1], how: 'node-gone', currentHealthy: 0 }),
    ]);
    expect(h.sim.podsLost().map((l) => [l.pod, l.node])).toEqual(names.map((n) => [n, NODE]));

    await advance(6000);
    expect(h.sim.store.list<V1Node>('v1', 'Node')).toEqual([]);
    expect(webPods().every((p) => !p.spec?.nodeName && !names.includes(`default/${p.metadata?.name}`))).toBe(
      true,
    );
    expect(h.sim.podsLost()).toHaveLength(2);
    expect(h.sim.problems()).toEqual([]);
  });

  it('counts pods removed with their deleted Node as lost, unless they were evicted first', async () => {
    await cluster(3, { minAvailable: 1 });
    const [evicted, ...left] = webPods().map((p) => p.metadata?.name as string);
    await evict(evicted);
    await h.core.deleteNode({ name: NODE });
    await advance(1000);
    expect(h.sim.podsLost().map((l) => l.pod)).toEqual(left.map((n) => `default/${n}`));
    expect(h.sim.disruptionViolations()).toEqual([
      expect.objectContaining({ pod: `default/${left[1]}`, how: 'node-gone', currentHealthy: 0 }),
    ]);
  });

  it('lets a drained node whose instance terminates and whose Node joiner deletes go without errors', async () => {
    await cluster(2, { maxUnavailable: 1 });
    await h.sim.store.create(nodeBody('spare'));
    await h.core.patchNode(
      { name: NODE, body: { spec: { taints: [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }] } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    for (const pod of webPods()) {
      await evict(pod.metadata?.name as string);
      await advance(2000);
    }
    expect(webPods().filter((p) => p.spec?.nodeName === NODE)).toEqual([]);
    h.sim.observer.instanceTerminated(instance);
    await h.core.deleteNode({ name: NODE });
    await advance(10_000);
    expect(h.sim.store.list<V1Node>('v1', 'Node').map((n) => n.metadata?.name)).toEqual(['spare']);
    const agents = h.sim.store.list<V1Pod>('v1', 'Pod', { namespace: 'kube-system' });
    expect(agents.map((p) => p.spec?.nodeName)).toEqual(['spare']);
    expect(webPods().map((p) => [p.spec?.nodeName, p.status?.phase])).toEqual([
      ['spare', 'Running'],
      ['spare', 'Running'],
    ]);
    expect(h.sim.podsLost()).toEqual([]);
    expect(h.sim.disruptionViolations()).toEqual([]);
    expect(h.sim.problems()).toEqual([]);
  });
});
