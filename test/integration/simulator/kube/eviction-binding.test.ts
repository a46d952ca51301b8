import type { ApiException, V1Pod } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, nodeBody, podBody, startHarness } from './fixtures.js';
import { startWebhookBackend, webhookConfiguration } from './webhook-backend.js';

describe('binding and eviction on the simulated API server', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.sim.close();
  });

  it('binds a pod with a Binding and refuses a second binding with 409', async () => {
    await h.sim.store.create(nodeBody('n1'));
    await h.sim.store.create({ ...podBody('p'), spec: { ...podBody('p').spec, schedulerName: 'other' } });
    await h.core.createNamespacedBinding({
      namespace: 'default',
      body: { metadata: { name: 'p' }, target: { kind: 'Node', name: 'n1' } },
    });
    const pod = await h.core.readNamespacedPod({ name: 'p', namespace: 'default' });
    expect(pod.spec?.nodeName).toBe('n1');
    expect(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status).toBe('True');
    const again = await h.core
      .createNamespacedPodBinding({
        name: 'p',
        namespace: 'default',
        body: { metadata: { name: 'p' }, target: { kind: 'Node', name: 'n2' } },
      })
      .catch((e: ApiException<string>) => e);
    expect((again as ApiException<string>).code).toBe(409);
  });

  it('refuses an eviction with 429 while the PDB allows no disruption, and allows it when it does', async () => {
    await h.sim.store.create(nodeBody('n1'));
    for (const name of ['a', 'b']) await h.sim.store.create(podBody(name, { app: 'web' }));
    await h.sim.scheduleNow();
    const running = async (): Promise<void> => {
      for (const p of h.sim.store.list<V1Pod>('v1', 'Pod', { namespace: 'default' })) {
        await h.sim.store.patch(
          'v1',
          'Pod',
          p.metadata!.name!,
          'default',
          { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
          'status',
        );
      }
    };
    await running();
    await h.sim.store.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web', namespace: 'default' },
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
    });
    const eviction = (name: string) => ({
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name, namespace: 'default' },
    });
    const refused = await h.core
      .createNamespacedPodEviction({ name: 'a', namespace: 'default', body: eviction('a') })
      .catch((e: ApiException<string>) => e);
    expect((refused as ApiException<string>).code).toBe(429);
    const status = JSON.parse(String((refused as ApiException<string>).body));
    expect(status).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', code: 429 });
    expect(status.details.causes[0].message).toContain('needs 2 healthy pods and has 2 currently');

    const merge = { spec: { minAvailable: 1 } };
    await h.sim.store.patch('policy/v1', 'PodDisruptionBudget', 'web', 'default', merge);
    await h.core.createNamespacedPodEviction({ name: 'a', namespace: 'default', body: eviction('a') });
    const left = h.sim.store
      .list<V1Pod>('v1', 'Pod', { namespace: 'default' })
      .filter((p) => !p.metadata?.deletionTimestamp);
    expect(left.map((p) => p.metadata?.name)).toEqual(['b']);
    const again = await h.core
      .createNamespacedPodEviction({ name: 'b', namespace: 'default', body: eviction('b') })
      .catch((e: ApiException<string>) => e);
    expect((again as ApiException<string>).code).toBe(429);
  });

  it("admits an eviction's CREATE only, marks the pod DisruptionTarget and deletes it without a DELETE review", async () => {
    const backend = await startWebhookBackend();
    try {
      await h.sim.store.create(nodeBody('n1'));
      // A finalizer keeps the evicted pod readable after its deletion.
      const held = podBody('a', { app: 'web' });
      await h.sim.store.create({ ...held, metadata: { ...held.metadata, finalizers: ['example.com/hold'] } });
      await h.sim.store.create(podBody('b', { app: 'web' }));
      await h.sim.scheduleNow();
      const rules = [
        { operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' },
        {
          operations: ['CREATE'],
          apiGroups: [''],
          apiVersions: ['v1'],
          resources: ['pods/eviction'],
          scope: '*',
        },
      ];
      await h.sim.store.create(webhookConfiguration(backend.url, { rules }));
      await h.core.createNamespacedPodEviction({
        name: 'a',
        namespace: 'default',
        body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'a', namespace: 'default' } },
      });
      await h.core.deleteNamespacedPod({ name: 'b', namespace: 'default' });
      const seen = backend.reviews.map((r) => `${r.operation} ${r.name} ${r.subResource ?? ''}`.trim());
      expect(seen).toEqual(['CREATE a eviction', 'DELETE b']);
      const evicted = h.sim.store.get<V1Pod>('v1', 'Pod', 'a', 'default');
      expect(evicted?.metadata?.deletionTimestamp).toBeTruthy();
      expect(evicted?.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
        status: 'True',
        reason: 'EvictionByEvictionAPI',
      });
    } finally {
      await backend.close();
    }
  });

  it('lets only as many concurrent evictions through as the budget allows, even while evictions wait for webhooks', async () => {
    const backend = await startWebhookBackend();
    try {
      await h.sim.store.create(nodeBody('n1'));
      const names = ['a', 'b', 'c', 'd'];
      for (const name of names) await h.sim.store.create(podBody(name, { app: 'web' }));
      await h.sim.scheduleNow();
      for (const name of names) {
        const ready = { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } };
        await h.sim.store.patch('v1', 'Pod', name, 'default', ready, 'status');
      }
      await h.sim.store.create({
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'web', namespace: 'default' },
        spec: { minAvailable: 3, selector: { matchLabels: { app: 'web' } } },
      });
      const evictions = [
        {
          operations: ['CREATE'],
          apiGroups: [''],
          apiVersions: ['v1'],
          resources: ['pods/eviction'],
          scope: '*',
        },
      ];
      await h.sim.store.create(webhookConfiguration(backend.url, { rules: evictions }));
      backend.behaviour = { allowed: true, delayMs: 100 };
      const codes = await Promise.all(
        ['a', 'b', 'c'].map((name) =>
          h.core
            .createNamespacedPodEviction({
              name,
              namespace: 'default',
              body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } },
            })
            .then(() => 201)
            .catch((e: ApiException<string>) => e.code),
        ),
      );
      expect(codes.filter((c) => c === 201)).toHaveLength(1);
      expect(codes.filter((c) => c === 429)).toHaveLength(2);
      expect(h.sim.disruptionViolations()).toEqual([]);
      await h.sim.idle();
      const pdb = h.sim.store.get<{ status: Record<string, unknown> }>(
        'policy/v1',
        'PodDisruptionBudget',
        'web',
        'default',
      );
      expect(pdb?.status).toMatchObject({ currentHealthy: 3, desiredHealthy: 3, disruptionsAllowed: 0 });
      expect(pdb?.status.disruptedPods).toBeUndefined();
    } finally {
      await backend.close();
    }
  });
});
