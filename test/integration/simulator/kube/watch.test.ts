import { makeInformer, type V1Pod, Watch } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, type Harness, podBody, startHarness } from './fixtures.js';

describe('watch on the simulated API server', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.sim.close();
  });

  it('keeps an informer in sync across a 410 Gone relist', async () => {
    await h.sim.store.create(podBody('a'));
    await h.sim.store.create(podBody('b'));
    const informer = makeInformer(h.kc, '/api/v1/namespaces/default/pods', () =>
      h.core.listNamespacedPod({ namespace: 'default' }),
    );
    const added: string[] = [];
    const deleted: string[] = [];
    const errors: unknown[] = [];
    let connects = 0;
    informer.on('add', (p: V1Pod) => added.push(p.metadata!.name!));
    informer.on('delete', (p: V1Pod) => deleted.push(p.metadata!.name!));
    informer.on('error', (e: unknown) => errors.push(e));
    informer.on('connect', () => connects++);
    await informer.start();
    await h.sim.store.create(podBody('c'));
    await eventually(() => added.includes('c'), 'the watch to deliver c');

    // The server ends the watch; while the client is away, history is compacted past its version.
    h.sim.endWatches();
    await h.sim.store.create(podBody('d'));
    await h.sim.store.delete('v1', 'Pod', 'a', 'default');
    h.sim.store.compact();
    await eventually(() => deleted.includes('a') && added.includes('d'), 'the relist after 410');
    expect(connects).toBeGreaterThanOrEqual(2);
    expect(
      informer
        .list('default')
        .map((p) => p.metadata?.name)
        .sort(),
    ).toEqual(['b', 'c', 'd']);
    expect(errors).toEqual([]);
    await h.sim.store.create(podBody('e'));
    await eventually(() => added.includes('e'), 'watching again after the relist');
    await informer.stop();
  });

  it('sends an ERROR event with a 410 Status for an expired resourceVersion', async () => {
    await h.sim.store.create(podBody('a'));
    const list = await h.core.listNamespacedPod({ namespace: 'default' });
    await h.sim.store.create(podBody('b'));
    h.sim.store.compact();
    const events: { type: string; obj: { code?: number; reason?: string } }[] = [];
    let done = false;
    await new Watch(h.kc).watch(
      '/api/v1/namespaces/default/pods',
      { resourceVersion: list.metadata?.resourceVersion },
      (type, obj) => events.push({ type, obj }),
      () => {
        done = true;
      },
    );
    await eventually(() => done, 'the server to end the watch');
    expect(events).toEqual([
      { type: 'ERROR', obj: expect.objectContaining({ code: 410, reason: 'Expired' }) },
    ]);
  });

  it('resumes from a resourceVersion, filters by selector, and sends bookmarks on request', async () => {
    const list = await h.core.listNamespacedPod({ namespace: 'default' });
    await h.sim.store.create(podBody('a', { app: 'web' }));
    await h.sim.store.create(podBody('b', { app: 'db' }));
    const events: { type: string; name?: string }[] = [];
    const ctrl = await new Watch(h.kc).watch(
      '/api/v1/namespaces/default/pods',
      {
        resourceVersion: list.metadata?.resourceVersion,
        labelSelector: 'app=web',
        allowWatchBookmarks: true,
      },
      (type, obj: V1Pod) => events.push({ type, name: obj.metadata?.name }),
      () => {},
    );
    await eventually(() => events.some((e) => e.name === 'a'), 'the replayed ADDED');
    await h.sim.store.patch('v1', 'Pod', 'a', 'default', { metadata: { labels: { app: 'other' } } });
    await eventually(
      () => events.some((e) => e.type === 'DELETED'),
      'a DELETED when the pod leaves the selector',
    );
    await h.clock.advance(61_000);
    await eventually(() => events.filter((e) => e.type === 'BOOKMARK').length >= 2, 'a periodic bookmark');
    expect(events.filter((e) => e.type === 'ADDED' || e.type === 'DELETED')).toEqual([
      { type: 'ADDED', name: 'a' },
      { type: 'DELETED', name: 'a' },
    ]);
    expect(events.every((e) => e.name !== 'b')).toBe(true);
    ctrl.abort();
  });
});
