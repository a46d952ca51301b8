import {
  ApiException,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type V1Node,
  type V1Pod,
} from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, nodeBody, podBody, startHarness } from './fixtures.js';

describe('simulated API server with @kubernetes/client-node', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.sim.close();
  });

  it('creates, gets, lists with selectors and deletes pods', async () => {
    await h.core.createNamespacedPod({
      namespace: 'default',
      body: podBody('a', { app: 'web', tier: 'fe' }),
    });
    await h.core.createNamespacedPod({ namespace: 'default', body: podBody('b', { app: 'db' }) });
    const got = await h.core.readNamespacedPod({ name: 'a', namespace: 'default' });
    expect(got.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(got.status?.phase).toBe('Pending');
    const web = await h.core.listNamespacedPod({
      namespace: 'default',
      labelSelector: 'app in (web,api),tier',
    });
    expect(web.items.map((p: V1Pod) => p.metadata?.name)).toEqual(['a']);
    const notWeb = await h.core.listPodForAllNamespaces({ labelSelector: 'app!=web' });
    expect(notWeb.items.map((p: V1Pod) => p.metadata?.name)).toEqual(['b']);
    const byName = await h.core.listNamespacedPod({ namespace: 'default', fieldSelector: 'metadata.name=b' });
    expect(byName.items).toHaveLength(1);
    const unbound = await h.core.listNamespacedPod({ namespace: 'default', fieldSelector: 'spec.nodeName=' });
    expect(unbound.items).toHaveLength(2);
    await h.core.deleteNamespacedPod({ name: 'a', namespace: 'default' });
    const err = await h.core.readNamespacedPod({ name: 'a', namespace: 'default' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiException);
    expect((err as ApiException<unknown>).code).toBe(404);
    expect(JSON.parse(String((err as ApiException<string>).body))).toMatchObject({
      kind: 'Status',
      reason: 'NotFound',
      code: 404,
    });
  });

  it('answers 409 AlreadyExists and 409 Conflict on a stale resourceVersion', async () => {
    await h.core.createNode({ body: nodeBody('n1') });
    const dup = await h.core.createNode({ body: nodeBody('n1') }).catch((e: ApiException<unknown>) => e);
    expect((dup as ApiException<unknown>).code).toBe(409);
    const node = await h.core.readNode({ name: 'n1' });
    await h.core.replaceNode({
      name: 'n1',
      body: { ...node, metadata: { ...node.metadata, labels: { x: '1' } } },
    });
    const stale = await h.core.replaceNode({ name: 'n1', body: node }).catch((e: ApiException<string>) => e);
    expect((stale as ApiException<string>).code).toBe(409);
    expect(JSON.parse(String((stale as ApiException<string>).body)).reason).toBe('Conflict');
  });

  it('cordons and taints a node with a merge patch and a strategic merge patch', async () => {
    await h.core.createNode({ body: nodeBody('n1') });
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    const cordoned = await h.core.patchNode({ name: 'n1', body: { spec: { unschedulable: true } } }, merge);
    expect(cordoned.spec?.unschedulable).toBe(true);
    const smp = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
    await h.core.patchNode(
      { name: 'n1', body: { spec: { taints: [{ key: 'a', effect: 'NoSchedule' }] } } },
      smp,
    );
    const tainted = await h.core.patchNode(
      { name: 'n1', body: { spec: { taints: [{ key: 'b', value: 'x', effect: 'NoExecute' }] } } },
      smp,
    );
    expect(tainted.spec?.taints?.map((t) => t.key)).toEqual(['a', 'b']);
    const json = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
    const labelled = await h.core.patchNode(
      { name: 'n1', body: [{ op: 'add', path: '/metadata/labels/role', value: 'w' }] },
      json,
    );
    expect(labelled.metadata?.labels?.role).toBe('w');
    const cordonedNodes = await h.core.listNode({ fieldSelector: 'spec.unschedulable=true' });
    expect(cordonedNodes.items.map((n: V1Node) => n.metadata?.name)).toEqual(['n1']);
  });

  it('keeps nodes with finalizers until the finalizers are removed', async () => {
    await h.core.createNode({
      body: { ...nodeBody('n1'), metadata: { name: 'n1', finalizers: ['joiner.sh/termination'] } },
    });
    await h.core.deleteNode({ name: 'n1' });
    const terminating = await h.core.readNode({ name: 'n1' });
    expect(terminating.metadata?.deletionTimestamp).toBeDefined();
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    await h.core.patchNode({ name: 'n1', body: { metadata: { finalizers: null } } }, merge);
    const gone = await h.core.readNode({ name: 'n1' }).catch((e: ApiException<unknown>) => e);
    expect((gone as ApiException<unknown>).code).toBe(404);
  });

  it('paginates lists with limit and continue', async () => {
    for (let i = 0; i < 5; i++)
      await h.core.createNamespacedPod({ namespace: 'default', body: podBody(`p${i}`) });
    const first = await h.core.listNamespacedPod({ namespace: 'default', limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.metadata?.remainingItemCount).toBe(3);
    const second = await h.core.listNamespacedPod({
      namespace: 'default',
      limit: 2,
      _continue: first.metadata?._continue,
    });
    const third = await h.core.listNamespacedPod({
      namespace: 'default',
      limit: 2,
      _continue: second.metadata?._continue,
    });
    const names = [...first.items, ...second.items, ...third.items].map((p: V1Pod) => p.metadata?.name);
    expect(names).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
    expect(third.metadata?._continue).toBeUndefined();
  });

  it("serves every page of a list from its first page's state, as one resourceVersion", async () => {
    for (let i = 0; i < 6; i++)
      await h.core.createNamespacedPod({ namespace: 'default', body: podBody(`p${i}`) });
    const first = await h.core.listNamespacedPod({ namespace: 'default', limit: 3 });
    // Between the pages, a pod of the first page goes and its replacement comes in the second's.
    await h.core.deleteNamespacedPod({ namespace: 'default', name: 'p0', gracePeriodSeconds: 0 });
    await h.core.createNamespacedPod({ namespace: 'default', body: podBody('p4x') });
    const second = await h.core.listNamespacedPod({
      namespace: 'default',
      limit: 3,
      _continue: first.metadata?._continue,
    });
    const names = [...first.items, ...second.items].map((p: V1Pod) => p.metadata?.name);
    expect(names).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5']);
    expect(second.metadata?._continue).toBeUndefined();
    const fresh = await h.core.listNamespacedPod({ namespace: 'default' });
    expect(fresh.items.map((p: V1Pod) => p.metadata?.name)).toEqual(['p1', 'p2', 'p3', 'p4', 'p4x', 'p5']);
  });

  it('serves custom resources once their CRD is created', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'nodepools.joiner.sh' },
      spec: {
        group: 'joiner.sh',
        scope: 'Cluster',
        names: { plural: 'nodepools', singular: 'nodepool', kind: 'NodePool' },
        versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} } }],
      },
    };
    const custom = h.kc.makeApiClient(CustomObjectsApi);
    const before = await custom
      .listClusterCustomObject({ group: 'joiner.sh', version: 'v1', plural: 'nodepools' })
      .catch((e: ApiException<unknown>) => e);
    expect((before as ApiException<unknown>).code).toBe(404);
    await h.sim.store.create(crd);
    const pool = {
      apiVersion: 'joiner.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'default' },
      spec: { weight: 1 },
    };
    await custom.createClusterCustomObject({
      group: 'joiner.sh',
      version: 'v1',
      plural: 'nodepools',
      body: pool,
    });
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    await custom.patchClusterCustomObject(
      {
        group: 'joiner.sh',
        version: 'v1',
        plural: 'nodepools',
        name: 'default',
        body: { spec: { weight: 5 } },
      },
      merge,
    );
    const listed = (await custom.listClusterCustomObject({
      group: 'joiner.sh',
      version: 'v1',
      plural: 'nodepools',
    })) as { items: { spec: { weight: number } }[] };
    expect(listed.items.map((i) => i.spec.weight)).toEqual([5]);
    await custom.deleteClusterCustomObject({
      group: 'joiner.sh',
      version: 'v1',
      plural: 'nodepools',
      name: 'default',
    });
    const after = (await custom.listClusterCustomObject({
      group: 'joiner.sh',
      version: 'v1',
      plural: 'nodepools',
    })) as { items: unknown[] };
    expect(after.items).toEqual([]);
  });
});
