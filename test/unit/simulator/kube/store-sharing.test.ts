/**
 * The simulated API server's store keeps a part of an object an update did not change by
 * reference (the stored versions are never changed), instead of copying it on every write. These
 * tests hold it to the store's rules through every write path: no earlier version changes, each
 * version gets its own metadata (its resourceVersion), and no object handed to a caller, nor one a
 * caller wrote, reaches into the store.
 */
import { describe, expect, it } from 'vitest';
import { SeededRandom, VirtualClock } from '../../../../functions/simulator/clock.js';
import { KubeApi } from '../../../../functions/simulator/kube/api/kube-api.js';
import {
  type KubeObject,
  ObjectStore,
  type StoreEvent,
} from '../../../../functions/simulator/kube/api/object-store.js';
import { bindPod, evictPod } from '../../../../functions/simulator/kube/api/pod-subresources.js';
import { ResourceRegistry } from '../../../../functions/simulator/kube/api/resource-registry.js';

async function cluster() {
  const registry = new ResourceRegistry();
  const store = new ObjectStore();
  const api = new KubeApi(registry, store, new VirtualClock(0), new SeededRandom(1));
  await api.create(registry.byKind('v1', 'Namespace')!, undefined, { metadata: { name: 'default' } });
  const podType = registry.byKind('v1', 'Pod')!;
  const events: StoreEvent[] = [];
  store.subscribe((e) => events.push(e));
  const pod = (name: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'web' } },
    spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '1' } } }] },
  });
  const peek = (name: string) => api.peek(podType, 'default', name) as KubeObject;
  return { api, store, podType, events, pod, peek };
}

/** Changes every level of an object a caller holds. */
function scribble(o: KubeObject): void {
  o.metadata.name = 'scribbled';
  o.metadata.resourceVersion = '0';
  o.metadata.labels = o.metadata.labels ?? {};
  o.metadata.labels.app = 'scribbled';
  o.spec = o.spec ?? {};
  const spec = o.spec as { containers?: { name: string }[]; nodeName?: string };
  if (spec.containers?.[0]) spec.containers[0].name = 'scribbled';
  spec.nodeName = 'scribbled';
  o.status = { phase: 'scribbled', conditions: [] };
}

describe('store sharing unchanged parts between versions', () => {
  it('keeps a status update’s spec and labels by reference and changes no earlier version', async () => {
    const { api, podType, events, pod, peek } = await cluster();
    await api.create(podType, 'default', pod('p'));
    const v1 = peek('p');
    const v1Json = JSON.stringify(v1);
    await api.replace(podType, 'default', 'p', { ...v1, status: { phase: 'Running' } }, 'status');
    const v2 = peek('p');
    expect(JSON.stringify(v1)).toBe(v1Json);
    expect(v2).not.toBe(v1);
    expect(v2.spec).toBe(v1.spec);
    expect(v2.metadata.labels).toBe(v1.metadata.labels);
    expect(v2.metadata).not.toBe(v1.metadata);
    expect(Number(v2.metadata.resourceVersion)).toBeGreaterThan(Number(v1.metadata.resourceVersion));
    expect(v2.status).toEqual({ phase: 'Running' });
    const last = events.at(-1)!;
    expect(last.oldObject).toBe(v1);
    expect(last.object).toBe(v2);
  });

  it('lets no object a verb returns, or a caller wrote, reach into the store', async () => {
    const { api, store, podType, pod, peek } = await cluster();
    const body = pod('p');
    const created = await api.create(podType, 'default', body);
    scribble(body);
    scribble(created);
    const check = (): string => {
      const now = peek('p');
      expect(now.metadata.name).toBe('p');
      expect(now.metadata.labels).toEqual({ app: 'web' });
      expect((now.spec as { containers: { name: string }[] }).containers[0].name).toBe('app');
      expect((now.spec as { nodeName?: string }).nodeName).toBeUndefined();
      return JSON.stringify(now);
    };
    let before = check();
    scribble(api.get(podType, 'default', 'p'));
    scribble(api.list(podType).items[0]);
    scribble(store.get('/pods', 'default', 'p')!);
    expect(check()).toBe(before);

    // A caller's own object (a copy it read), changed after it was written.
    const statusBody = {
      ...api.get(podType, 'default', 'p'),
      status: { phase: 'Running', conditions: [{ type: 'Ready' }] },
    };
    const replaced = await api.replace(podType, 'default', 'p', statusBody, 'status');
    scribble(replaced);
    scribble(statusBody as KubeObject);
    before = check();
    expect(peek('p').status).toEqual({ phase: 'Running', conditions: [{ type: 'Ready' }] });

    const dry = await api.replace(
      podType,
      'default',
      'p',
      { ...peek('p'), status: { phase: 'x' } },
      'status',
      {
        dryRun: true,
      },
    );
    scribble(dry);
    expect(check()).toBe(before);

    const specBody = api.get(podType, 'default', 'p');
    specBody.metadata.annotations = { a: '1' };
    const updated = await api.replace(podType, 'default', 'p', specBody);
    scribble(specBody);
    // The update keeps the stored status (by reference): changing what it returned does not reach it.
    scribble(updated);
    before = check();
    expect(peek('p').status).toEqual({ phase: 'Running', conditions: [{ type: 'Ready' }] });

    const patched = await api.patch(podType, 'default', 'p', 'merge', {
      metadata: { annotations: { b: '2' } },
    });
    scribble(patched);
    const statusPatched = await api.patch(
      podType,
      'default',
      'p',
      'merge',
      { status: { phase: 'Succeeded' } },
      'status',
    );
    scribble(statusPatched);
    before = check();
    expect(peek('p').metadata.annotations).toEqual({ a: '1', b: '2' });
    expect((peek('p').status as { phase: string }).phase).toBe('Succeeded');

    const put = store.put('/pods', peek('p'));
    scribble(put);
    expect(check()).not.toBe(before);
    const removed = store.remove('/pods', 'default', 'p')!;
    scribble(removed);
    expect(peek('p')).toBeUndefined();
  });

  it('gives a version written from the stored object itself its own metadata', async () => {
    const { api, store, podType, pod, peek, events } = await cluster();
    await api.create(podType, 'default', pod('p'));
    const v1 = peek('p');
    const rv1 = v1.metadata.resourceVersion;
    const v2 = store.write('/pods', v1);
    expect(v2).not.toBe(v1);
    expect(v2.metadata).not.toBe(v1.metadata);
    expect(v1.metadata.resourceVersion).toBe(rv1);
    expect(v2.metadata.resourceVersion).not.toBe(rv1);
    expect(v2.spec).toBe(v1.spec);
    store.remove('/pods', 'default', 'p');
    const deleted = events.at(-1)!;
    expect(deleted.type).toBe('DELETED');
    expect(deleted.oldObject).toBe(v2);
    expect(deleted.object.metadata.resourceVersion).not.toBe(v2.metadata.resourceVersion);
    expect(v2.metadata.resourceVersion).not.toBe(rv1);
    expect(
      JSON.stringify({ ...deleted.object, metadata: { ...deleted.object.metadata, resourceVersion: '' } }),
    ).toBe(JSON.stringify({ ...v2, metadata: { ...v2.metadata, resourceVersion: '' } }));
  });

  it('binds and evicts without changing the versions the pod had', async () => {
    const { api, podType, pod, peek } = await cluster();
    await api.create(podType, 'default', pod('p'));
    const v1 = peek('p');
    const v1Json = JSON.stringify(v1);
    await bindPod(api, 'default', 'p', { metadata: { name: 'p' }, target: { kind: 'Node', name: 'n1' } });
    const v2 = peek('p');
    expect(JSON.stringify(v1)).toBe(v1Json);
    expect((v2.spec as { nodeName?: string }).nodeName).toBe('n1');
    expect(v2.metadata.labels).toBe(v1.metadata.labels);
    expect((v2.spec as { containers: unknown }).containers).toBe(
      (v1.spec as { containers: unknown }).containers,
    );
    await api.replace(
      podType,
      'default',
      'p',
      { ...v2, status: { ...(v2.status as object), phase: 'Running' } },
      'status',
    );
    const v3 = peek('p');
    const v3Json = JSON.stringify(v3);
    const v2Json = JSON.stringify(v2);
    await evictPod(api, 'default', 'p', { metadata: { name: 'p' } });
    expect(JSON.stringify(v3)).toBe(v3Json);
    expect(JSON.stringify(v2)).toBe(v2Json);
    expect(peek('p')).toBeUndefined();
  });
});
