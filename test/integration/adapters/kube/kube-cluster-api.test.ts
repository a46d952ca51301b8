import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClusterApi } from '../../../../functions/adapters/kube/create-cluster-api.js';
import { kubeClients } from '../../../../functions/adapters/kube/kube-clients.js';
import { KubeClusterApi } from '../../../../functions/adapters/kube/kube-cluster-api.js';
import { PAGE_SIZE } from '../../../../functions/adapters/kube/kube-lists.js';
import type { KubeRequest, KubeTransport } from '../../../../functions/adapters/kube/kube-transport.js';
import { KubeManifestApplier } from '../../../../functions/adapters/kube/manifest-applier.js';
import { nodeClassCrd, nodePoolCrd } from '../../../../functions/core/install/crds.js';
import type { Node } from '../../../../functions/core/model/kube-objects.js';
import type { Log } from '../../../../functions/core/ports/log.js';
import { type Harness, nodeBody, podBody, startHarness } from '../../simulator/kube/fixtures.js';

function recordingLog(lines: string[]): Log {
  const at = (level: string) => (message: string, fields?: object) => {
    lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

type Send = (request: KubeRequest) => Promise<unknown>;

/** The client with its requests going through `around` (which sends them with `send`). */
function intercepting(
  rest: KubeTransport,
  around: (request: KubeRequest, send: Send) => Promise<unknown>,
): KubeTransport {
  return new Proxy(rest, {
    get(target, prop, receiver) {
      if (prop !== 'request') return Reflect.get(target, prop, receiver);
      return (request: KubeRequest) => around(request, (r) => target.request(r));
    },
  });
}

/** The client, recording each request it sends. */
function recording(rest: KubeTransport, requests: KubeRequest[]): KubeTransport {
  return intercepting(rest, (request, send) => {
    requests.push(request);
    return send(request);
  });
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
    const both = await api.listPendingAndBoundPods();
    expect(both.pending.map((p) => p.metadata.name)).toEqual(['huge']);
    expect(both.bound.map((p) => p.metadata.name)).toEqual(['small']);
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
      spec: {
        template: {
          spec: {
            nodeClassRef: { group: 'joiner.sh', kind: 'NodeClass', name: 'default' },
            requirements: [],
          },
        },
      },
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
    let reads = 0;
    const racing = new KubeClusterApi(
      async () =>
        intercepting(await kubeClients(h.kc), async (request, send) => {
          const answer = await send(request);
          if (request.method === 'GET' && request.path === '/api/v1/nodes/n1') {
            reads++;
            // Another controller changes the node between our read and our patch, once.
            if (reads === 1)
              await h.sim.store.patch('v1', 'Node', 'n1', undefined, {
                metadata: { labels: { racer: 'won' } },
              });
          }
          return answer;
        }),
      { log: recordingLog(lines), clock: h.clock },
    );
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

  it("deletes a node for an instance only while the node is that instance's (node names are reused)", async () => {
    const reused = (instanceId: string) => ({
      ...nodeBody('ip-10-0-0-4'),
      spec: { providerID: `aws:///us-west-2a/${instanceId}` },
    });
    await h.sim.store.create(reused('i-0new'));
    // The name was the old instance's; a later instance registered a Node under it: left alone.
    await api.deleteNode('ip-10-0-0-4', 'i-0old');
    expect((await api.getNode('ip-10-0-0-4'))?.spec?.providerID).toBe('aws:///us-west-2a/i-0new');
    expect(lines.some((l) => l.startsWith('info node name now belongs to another instance'))).toBe(true);
    const requests: KubeRequest[] = [];
    const rest = recording(await kubeClients(h.kc), requests);
    const checked = new KubeClusterApi(async () => rest, { log: recordingLog(lines), clock: h.clock });
    await checked.deleteNode('ip-10-0-0-4', 'i-0new');
    expect(await api.getNode('ip-10-0-0-4')).toBeUndefined();
    // The delete carries the uid it checked as a precondition (a Node re-created meanwhile is kept).
    const del = requests.find((r) => r.method === 'DELETE');
    expect(del?.body).toMatchObject({ preconditions: { uid: expect.any(String) } });
    await expect(api.deleteNode('ip-10-0-0-4', 'i-0new')).resolves.toBeUndefined();
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

  it('deletes pods with a DeleteOptions body: immediately at grace 0, gracefully otherwise, not found when gone', async () => {
    await h.sim.store.create(nodeBody('n1'));
    for (const name of ['a', 'b']) await h.sim.store.create(podBody(name, { app: 'web' }));
    await h.sim.scheduleNow();
    const requests: KubeRequest[] = [];
    const rest = recording(await kubeClients(h.kc), requests);
    const recorded = new KubeClusterApi(async () => rest, { log: recordingLog(lines), clock: h.clock });

    expect(await recorded.deletePod('default', 'a', 0)).toBe('deleted');
    expect(requests.at(-1)).toMatchObject({
      method: 'DELETE',
      path: '/api/v1/namespaces/default/pods/a',
      body: { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 },
    });
    expect(await api.getPod('default', 'a')).toBeUndefined();

    expect(await api.deletePod('default', 'b', 45)).toBe('deleted');
    const terminating = await api.getPod('default', 'b');
    expect(terminating?.metadata.deletionTimestamp).toBeDefined();
    expect(terminating?.metadata).toMatchObject({ deletionGracePeriodSeconds: 45 });
    expect(await api.deletePod('default', 'nope')).toBe('not-found');
    expect(await api.deletePod('default', 'a')).toBe('not-found');
  });

  it(`reads lists longer than a page (${PAGE_SIZE}) page by page with limit and continue`, async () => {
    const count = 2 * PAGE_SIZE + 7;
    for (let i = 0; i < count; i++) await h.sim.store.create(nodeBody(`n${String(i).padStart(4, '0')}`));
    const requests: KubeRequest[] = [];
    const paged = new KubeClusterApi(async () => recording(await kubeClients(h.kc), requests), {
      log: recordingLog(lines),
      clock: h.clock,
    });
    const names = (await paged.listNodes()).map((n) => n.metadata.name);
    expect(names).toHaveLength(count);
    expect(new Set(names).size).toBe(count);
    expect(requests.map((r) => [r.method, r.path, r.query?.limit, typeof r.query?.continue])).toEqual([
      ['GET', '/api/v1/nodes', PAGE_SIZE, 'undefined'],
      ['GET', '/api/v1/nodes', PAGE_SIZE, 'string'],
      ['GET', '/api/v1/nodes', PAGE_SIZE, 'string'],
    ]);

    requests.length = 0;
    expect(await paged.listPodsOnNode('n0001')).toEqual([]);
    expect(requests.map((r) => r.query?.fieldSelector)).toEqual(['spec.nodeName=n0001']);
  });

  it('sends merge, strategic merge and JSON patches with their content types', async () => {
    await h.sim.store.create(nodeBody('n1', { labels: { a: '1' } }));
    const requests: KubeRequest[] = [];
    const rest = recording(await kubeClients(h.kc), requests);
    const path = '/api/v1/nodes/n1';
    await rest.patch(path, 'merge', { metadata: { labels: { b: '2' } } });
    await rest.patch(path, 'strategic', { spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } });
    await rest.patch(path, 'strategic', { spec: { taints: [{ key: 'l', effect: 'NoExecute' }] } });
    const node = await rest.patch<Node>(path, 'json', [{ op: 'remove', path: '/metadata/labels/a' }]);
    expect(requests.map((r) => [r.method, r.contentType])).toEqual([
      ['PATCH', 'application/merge-patch+json'],
      ['PATCH', 'application/strategic-merge-patch+json'],
      ['PATCH', 'application/strategic-merge-patch+json'],
      ['PATCH', 'application/json-patch+json'],
    ]);
    expect(node.metadata.labels).toEqual({ 'kubernetes.io/hostname': 'n1', b: '2' });
    // Strategic merge patches merge taints by key; a merge patch would have replaced the list.
    expect(node.spec?.taints?.map((t) => t.key).sort()).toEqual(['k', 'l']);

    requests.length = 0;
    const merged = new KubeClusterApi(async () => recording(await kubeClients(h.kc), requests), {
      log: recordingLog(lines),
      clock: h.clock,
    });
    await merged.patchNode('n1', { labels: { c: '3' }, taints: [] });
    expect(requests.filter((r) => r.method === 'PATCH').map((r) => r.contentType)).toEqual([
      'application/merge-patch+json',
      'application/merge-patch+json',
    ]);
  });

  it('names the request or the operation and the HTTP status in errors', async () => {
    const rest = await kubeClients(h.kc);
    await expect(rest.get('/api/v1/nodes/missing')).rejects.toThrow(
      'GET /api/v1/nodes/missing failed (HTTP 404): nodes "missing" not found',
    );
    await expect(api.patchNode('missing', { labels: { a: 'b' } })).rejects.toThrow(
      'patching node missing failed (HTTP 404): nodes "missing" not found',
    );
    await api.createEvents([
      {
        involvedObject: { kind: 'Pod', name: 'x', namespace: 'nowhere' },
        type: 'Normal',
        reason: 'R',
        message: 'm',
      },
    ]);
    expect(lines.find((l) => l.startsWith('warn failed to create event'))).toMatch(
      /POST \/api\/v1\/namespaces\/nowhere\/events failed \(HTTP 404\)/,
    );
  });

  it('fails requests with an error naming a kubeconfig it cannot read', async () => {
    const missing = createClusterApi(
      { kubeconfigPath: join(dir, 'missing.yaml') },
      { log: recordingLog(lines), clock: h.clock },
    );
    await expect(missing.listNodes()).rejects.toThrow(/cannot use the kubeconfig .*missing\.yaml/);
  });
});

describe('KubeManifestApplier against the simulated API server', () => {
  let h: Harness;
  let lines: string[];

  beforeEach(async () => {
    h = await startHarness();
    lines = [];
  });
  afterEach(async () => {
    await h.sim.close();
  });

  const pool = {
    apiVersion: 'joiner.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'default' },
    spec: {
      template: {
        spec: { nodeClassRef: { group: 'joiner.sh', kind: 'NodeClass', name: 'default' }, requirements: [] },
      },
    },
  };

  function applier(sleep: (ms: number) => Promise<void>, requests: KubeRequest[] = []) {
    return new KubeManifestApplier(async () => recording(await kubeClients(h.kc), requests), {
      log: recordingLog(lines),
      attempts: 3,
      retryDelayMs: 1,
      sleep,
    });
  }

  it('creates, replaces and deletes namespaced and cluster-scoped objects found by discovery', async () => {
    const requests: KubeRequest[] = [];
    const objects = applier(async () => {}, requests);
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } };
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r' } };
    expect(await objects.apply(configMap)).toBe('created');
    expect(await objects.apply({ ...configMap, data: { a: '2' } })).toBe('updated');
    expect(await objects.apply(role)).toBe('created');
    expect(h.sim.store.get<{ data: unknown }>('v1', 'ConfigMap', 'c', 'default')?.data).toEqual({ a: '2' });
    expect(await objects.delete(configMap)).toBe(true);
    expect(await objects.delete(configMap)).toBe(false);
    expect(await objects.delete(role)).toBe(true);
    const writes = requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
    expect(writes).toEqual([
      'POST /api/v1/namespaces/default/configmaps',
      'PUT /api/v1/namespaces/default/configmaps/c',
      'POST /apis/rbac.authorization.k8s.io/v1/clusterroles',
      'DELETE /api/v1/namespaces/default/configmaps/c',
      'DELETE /api/v1/namespaces/default/configmaps/c',
      'DELETE /apis/rbac.authorization.k8s.io/v1/clusterroles/r',
    ]);
    // Discovery is asked once per group/version.
    const discovery = requests.filter(
      (r) => r.path === '/api/v1' || r.path.endsWith('/rbac.authorization.k8s.io/v1'),
    );
    expect(discovery).toHaveLength(2);
  });

  it('waits for a kind the API server does not serve yet, then gives up with an error naming it', async () => {
    await expect(applier(async () => {}).apply(pool)).rejects.toThrow(
      'applying NodePool default failed: the API server does not serve NodePool in joiner.sh/v1: group/version joiner.sh/v1 is not served',
    );
    expect(lines.filter((l) => l.startsWith('info kind not served yet'))).toHaveLength(2);
    expect(await applier(async () => {}).delete(pool)).toBe(false);

    // The group is served (NodeClass), the kind is not yet: its CRD arrives while the applier waits.
    await h.sim.store.create(nodeClassCrd());
    let waits = 0;
    const waiting = applier(async () => {
      waits++;
      await h.sim.store.create(nodePoolCrd());
    });
    expect(await waiting.apply(pool)).toBe('created');
    expect(waits).toBe(1);
    expect(await waiting.apply(pool)).toBe('updated');
    expect(await waiting.delete(pool)).toBe(true);
    expect(await waiting.delete(pool)).toBe(false);
  });
});
