import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClusterApi } from '../../../../functions/adapters/kube/create-cluster-api.js';
import { kubeClients } from '../../../../functions/adapters/kube/kube-clients.js';
import { KubeClusterApi } from '../../../../functions/adapters/kube/kube-cluster-api.js';
import { nodeClassCrd, nodePoolCrd } from '../../../../functions/core/install/crds.js';
import type { Log } from '../../../../functions/core/ports/log.js';
import { type Harness, nodeBody, podBody, startHarness } from '../../simulator/kube/fixtures.js';

function recordingLog(lines: string[]): Log {
  const at = (level: string) => (message: string, fields?: object) => {
    lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

describe('KubeClusterApi against the simulated API server', () => {
  let h: Harness;
  let api: KubeClusterApi;
  let lines: string[];
  let dir: string;

  beforeEach(async () => {
    h = await startHarness();
    lines = [];
    dir = await mkdtemp(join(tmpdir(), 'joiner-kube-'));
    const path = join(dir, 'kubeconfig.yaml');
    await writeFile(path, h.sim.kubeconfig());
    api = createClusterApi({ kubeconfigPath: path }, { log: recordingLog(lines), clock: h.clock });
  });
  afterEach(async () => {
    await h.sim.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists pending pods (unbound and Unschedulable) and the pods bound to nodes', async () => {
    await h.sim.store.create(nodeBody('n1'));
    await h.sim.store.create(podBody('small', { app: 'web' }));
    await h.sim.store.create(podBody('huge', { app: 'web' }, '64'));
    await h.sim.store.create({
      ...podBody('gated'),
      spec: { ...podBody('gated').spec, schedulerName: 'other' },
    });
    await h.sim.scheduleNow();

    const pending = await api.listPendingPods();
    expect(pending.map((p) => p.metadata.name)).toEqual(['huge']);
    expect(typeof pending[0].metadata.creationTimestamp).toBe('string');

    expect((await api.listPodsOnNode('n1')).map((p) => p.metadata.name)).toEqual(['small']);
    expect((await api.listPodsOnNode()).map((p) => p.metadata.name)).toEqual(['small']);
    expect(await api.listPodsOnNode('n2')).toEqual([]);
    expect((await api.getPod('default', 'small'))?.spec.nodeName).toBe('n1');
    expect(await api.getPod('default', 'missing')).toBeUndefined();
  });

  it('reads nodes, daemonsets, volumes, claims and disruption budgets', async () => {
    await h.sim.store.create(nodeBody('n1', { labels: { team: 'a' } }));
    await h.sim.store.create({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'kube-system' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { containers: [{ name: 'a', image: 'x' }] },
        },
      },
    });
    await h.sim.store.create({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv1' },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' },
      },
    });
    await h.sim.store.create({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'default' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    await h.sim.store.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web', namespace: 'default' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
    });

    expect((await api.listNodes()).map((n) => n.metadata.labels?.team)).toEqual(['a']);
    expect((await api.getNode('n1'))?.metadata.name).toBe('n1');
    expect(await api.getNode('nope')).toBeUndefined();
    expect((await api.listDaemonSets()).map((d) => d.metadata.name)).toContain('agent');
    expect((await api.listPersistentVolumes()).map((v) => v.metadata.name)).toEqual(['pv1']);
    expect((await api.listPersistentVolumeClaims()).map((c) => c.metadata.name)).toEqual(['data']);
    expect((await api.listPodDisruptionBudgets()).map((b) => b.metadata.name)).toEqual(['web']);
  });

  it("reads joiner's NodePools and NodeClasses and tolerates Karpenter's groups not being installed", async () => {
    expect(await api.listNodePoolDocuments()).toEqual([]);
    expect(await api.listNodeClassDocuments()).toEqual([]);
    await h.sim.store.create(nodePoolCrd());
    await h.sim.store.create(nodeClassCrd());
    await h.sim.store.create({
      apiVersion: 'joiner.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'default' },
      spec: { template: { spec: { nodeClassRef: { name: 'default' }, requirements: [] } } },
    });
    await h.sim.store.create({
      apiVersion: 'joiner.sh/v1',
      kind: 'NodeClass',
      metadata: { name: 'default' },
      spec: { role: 'node-role', amiSelectorTerms: [{ alias: 'al2023@latest' }] },
    });
    const pools = await api.listNodePoolDocuments();
    expect(pools.map((d) => [d.apiVersion, d.kind, d.metadata.name])).toEqual([
      ['joiner.sh/v1', 'NodePool', 'default'],
    ]);
    const classes = await api.listNodeClassDocuments();
    expect(classes.map((d) => [d.apiVersion, d.kind, d.metadata.name])).toEqual([
      ['joiner.sh/v1', 'NodeClass', 'default'],
    ]);
  });

  it('patches labels and annotations (null removes) and replaces taints', async () => {
    await h.sim.store.create(nodeBody('n1', { labels: { old: 'x' } }));
    const patched = await api.patchNode('n1', {
      labels: { 'karpenter.sh/nodepool': 'default', old: null },
      annotations: { 'joiner.sh/nodeclaim': 'nc-1' },
      taints: [{ key: 'joiner.sh/multus', value: 'starting', effect: 'NoSchedule' }],
    });
    expect(patched.metadata.labels).toMatchObject({ 'karpenter.sh/nodepool': 'default' });
    expect(patched.metadata.labels?.old).toBeUndefined();
    expect(patched.metadata.annotations?.['joiner.sh/nodeclaim']).toBe('nc-1');
    expect(patched.spec?.taints).toEqual([
      { key: 'joiner.sh/multus', value: 'starting', effect: 'NoSchedule' },
    ]);

    const cleared = await api.patchNode('n1', { taints: [], unschedulable: true });
    expect(cleared.spec?.taints ?? []).toEqual([]);
    expect(cleared.spec?.unschedulable).toBe(true);
    await expect(api.patchNode('missing', { labels: { a: 'b' } })).rejects.toThrow(
      /patching node missing failed \(HTTP 404\)/,
    );
  });

  it('re-reads and retries a taint patch that loses a race with another writer (409)', async () => {
    await h.sim.store.create(nodeBody('n1'));
    const clients = kubeClients(h.kc);
    let reads = 0;
    const racingCore = new Proxy(clients.core, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== 'readNode') return typeof value === 'function' ? value.bind(target) : value;
        return async (param: { name: string }) => {
          const node = await target.readNode(param);
          reads++;
          // Another controller changes the node between our read and our patch, once.
          if (reads === 1)
            await h.sim.store.patch('v1', 'Node', 'n1', undefined, {
              metadata: { labels: { racer: 'won' } },
            });
          return node;
        };
      },
    });
    const racing = new KubeClusterApi(async () => ({ ...clients, core: racingCore }), {
      log: recordingLog(lines),
      clock: h.clock,
    });
    const node = await racing.patchNode('n1', { taints: [{ key: 'k', effect: 'NoSchedule' }] });
    expect(reads).toBe(2);
    expect(node.spec?.taints).toEqual([{ key: 'k', effect: 'NoSchedule' }]);
    expect(node.metadata.labels?.racer).toBe('won');
    expect(lines.some((l) => l.startsWith('debug node changed while patching taints'))).toBe(true);
  });

  it('deletes nodes and treats a missing node as deleted', async () => {
    await h.sim.store.create(nodeBody('n1'));
    await api.deleteNode('n1');
    expect(await api.getNode('n1')).toBeUndefined();
    await expect(api.deleteNode('n1')).resolves.toBeUndefined();
  });

  it('creates Events about objects and only logs the ones that fail', async () => {
    await api.createEvents([
      {
        involvedObject: { kind: 'Pod', name: 'web-1', namespace: 'default', uid: 'u1', apiVersion: 'v1' },
        type: 'Normal',
        reason: 'Nominated',
        message: 'Pod should schedule on: nodeclaim/default-abc',
      },
      {
        involvedObject: { kind: 'Pod', name: 'x', namespace: 'no-such-namespace' },
        type: 'Warning',
        reason: 'R',
        message: 'm',
      },
    ]);
    const events = h.sim.store.list<{
      involvedObject: { name: string };
      reason: string;
      source?: { component?: string };
    }>('v1', 'Event', { namespace: 'default' });
    const nominated = events.find((e) => e.reason === 'Nominated');
    expect(nominated?.involvedObject.name).toBe('web-1');
    expect(nominated?.source?.component).toBe('joiner');
    expect(lines.some((l) => l.startsWith('warn failed to create event'))).toBe(true);
  });

  it('evicts pods through the Eviction API: evicted, blocked by a PDB (429), not found', async () => {
    await h.sim.store.create(nodeBody('n1'));
    for (const name of ['a', 'b']) await h.sim.store.create(podBody(name, { app: 'web' }));
    await h.sim.scheduleNow();
    for (const name of ['a', 'b']) {
      const ready = { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } };
      await h.sim.store.patch('v1', 'Pod', name, 'default', ready, 'status');
    }
    await h.sim.store.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web', namespace: 'default' },
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
    });
    expect(await api.evictPod('default', 'a')).toBe('blocked-by-pdb');
    await h.sim.store.patch('policy/v1', 'PodDisruptionBudget', 'web', 'default', {
      spec: { minAvailable: 1 },
    });
    expect(await api.evictPod('default', 'a')).toBe('evicted');
    expect(await api.evictPod('default', 'nope')).toBe('not-found');
  });
});
