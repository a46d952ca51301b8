/**
 * Garbage collection in the simulated control plane: pods whose node went and objects whose
 * controller owner went are removed, whether the pod changed just now or long before the owner or
 * node went (the control loop checks only changed pods until a node or an owner is deleted).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  GENERIC_GC_USER,
  POD_GC_USER,
} from '../../../../functions/simulator/kube/controllers/housekeeping.js';
import { eventually, type Harness, nodeBody, podBody, startHarness } from './fixtures.js';
import { startWebhookBackend, type WebhookBackend, webhookConfiguration } from './webhook-backend.js';

const podNames = (h: Harness): string[] =>
  h.sim.store
    .list<{ metadata: { name: string } }>('v1', 'Pod', { namespace: 'default' })
    .map((p) => p.metadata.name);

describe('simulated garbage collection', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.sim.close();
  });

  it('removes a new pod whose controller owner does not exist, and keeps one without owner', async () => {
    await h.sim.store.create(podBody('plain'));
    await h.sim.store.create({
      ...podBody('orphan'),
      metadata: {
        name: 'orphan',
        namespace: 'default',
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'gone', uid: 'no-such-uid', controller: true },
        ],
      },
    });
    await eventually(() => !podNames(h).includes('orphan'), 'the orphan pod removed');
    await h.sim.idle();
    expect(podNames(h)).toEqual(['plain']);
  });

  it('removes the pods bound to a node once the node is deleted, long after they last changed', async () => {
    await h.sim.store.create(nodeBody('n1'));
    await h.sim.store.create(nodeBody('n2'));
    for (const name of ['a', 'b', 'c', 'd']) await h.sim.store.create(podBody(name));
    await h.sim.scheduleNow();
    await h.sim.idle();
    const bound = h.sim.store
      .list<{ metadata: { name: string }; spec: { nodeName?: string } }>('v1', 'Pod', {
        namespace: 'default',
      })
      .map((p) => [p.metadata.name, p.spec.nodeName] as const);
    expect(bound.every(([, node]) => node === 'n1' || node === 'n2')).toBe(true);
    // Unrelated passes in between: the bound pods are no longer "changed".
    await h.sim.store.create(podBody('later', {}, '100'));
    await h.sim.idle();
    await h.sim.store.delete('v1', 'Node', 'n1');
    const onN2 = bound.filter(([, node]) => node === 'n2').map(([name]) => name);
    await eventually(() => podNames(h).length === onN2.length + 1, 'the pods of n1 removed');
    expect(podNames(h)).toEqual([...onN2, 'later'].sort());
  });

  it("removes a Deployment's pods with it, through its ReplicaSet", async () => {
    await h.sim.store.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: podTemplate(),
      },
    });
    await eventually(() => podNames(h).length === 3, 'three pods');
    await h.sim.idle();
    await h.sim.store.delete('apps/v1', 'Deployment', 'web', 'default');
    await eventually(() => podNames(h).length === 0, 'the pods removed');
    expect(h.sim.store.list('apps/v1', 'ReplicaSet', { namespace: 'default' })).toEqual([]);
  });
});

describe('simulated garbage collection through admission', () => {
  let h: Harness;
  let backend: WebhookBackend;
  const DELETE_PODS = [
    {
      operations: ['DELETE'],
      apiGroups: [''],
      apiVersions: ['v1'],
      resources: ['pods'],
      scope: 'Namespaced',
    },
  ];
  /** The pod DELETE reviews the webhook got, as `name by user`. */
  const podDeletes = () =>
    backend.reviews
      .filter((r) => r.operation === 'DELETE' && r.resource.resource === 'pods')
      .map((r) => `${r.name} by ${r.userInfo?.username}`)
      .sort();
  beforeEach(async () => {
    h = await startHarness();
    backend = await startWebhookBackend();
    await h.sim.store.apply(webhookConfiguration(backend.url, { rules: DELETE_PODS }));
  });
  afterEach(async () => {
    await h.sim.close();
    await backend.close();
  });

  it('sends the DELETE of each pod of a deleted Deployment through the webhooks, as the garbage collector', async () => {
    await h.sim.store.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: podTemplate() },
    });
    await eventually(() => podNames(h).length === 3, 'three pods');
    const names = podNames(h);
    await h.sim.idle();
    await h.sim.store.delete('apps/v1', 'Deployment', 'web', 'default');
    await eventually(() => podNames(h).length === 0, 'the pods removed');
    await h.sim.idle();
    expect(podDeletes()).toEqual(names.map((n) => `${n} by ${GENERIC_GC_USER}`));
  });

  it('sends the DELETE of each pod of a deleted node through the webhooks, as the pod garbage collector', async () => {
    await h.sim.store.create(nodeBody('n1'));
    for (const name of ['a', 'b']) await h.sim.store.create(podBody(name));
    await h.sim.scheduleNow();
    await h.sim.idle();
    await h.sim.store.delete('v1', 'Node', 'n1');
    await eventually(() => podNames(h).length === 0, 'the pods of n1 removed');
    await h.sim.idle();
    expect(podDeletes()).toEqual([`a by ${POD_GC_USER}`, `b by ${POD_GC_USER}`]);
  });

  it('keeps a pod whose DELETE a webhook refused and deletes it in a later pass', async () => {
    await h.sim.store.apply(webhookConfiguration(backend.url, { rules: DELETE_PODS, failurePolicy: 'Fail' }));
    backend.behaviour = { allowed: false, message: 'not now' };
    await h.sim.store.create({
      ...podBody('orphan'),
      metadata: {
        name: 'orphan',
        namespace: 'default',
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'gone', uid: 'no-such-uid', controller: true },
        ],
      },
    });
    await eventually(() => podDeletes().length > 0, 'a refused delete');
    await h.sim.idle();
    expect(podNames(h)).toEqual(['orphan']);
    backend.behaviour = { allowed: true };
    // Any change runs another controllers pass.
    await h.sim.store.create(podBody('later'));
    await eventually(() => !podNames(h).includes('orphan'), 'the orphan pod removed');
    expect(podNames(h)).toEqual(['later']);
  });
});

function podTemplate() {
  const pod = podBody('x', { app: 'web' });
  return { metadata: { labels: { app: 'web' } }, spec: pod.spec };
}
