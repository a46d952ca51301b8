import type { ApiException } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, nodeBody, podBody, startHarness } from './fixtures.js';
import { startWebhookBackend, type WebhookBackend, webhookConfiguration } from './webhook-backend.js';

const CREATE_PODS = [
  { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: 'Namespaced' },
];

describe('validating admission webhooks', () => {
  let h: Harness;
  let backend: WebhookBackend;
  beforeEach(async () => {
    h = await startHarness();
    backend = await startWebhookBackend();
  });
  afterEach(async () => {
    await h.sim.close();
    await backend.close();
  });

  it('denies a request when the webhook answers allowed=false', async () => {
    backend.behaviour = { allowed: false, message: 'no pods today' };
    await h.sim.store.create(
      webhookConfiguration(backend.url, { rules: CREATE_PODS, failurePolicy: 'Fail' }),
    );
    const err = await h.core
      .createNamespacedPod({ namespace: 'default', body: podBody('a') })
      .catch((e: ApiException<string>) => e);
    expect((err as ApiException<string>).code).toBe(403);
    expect(String((err as ApiException<string>).body)).toContain(
      'admission webhook \\"pods.joiner.sh\\" denied the request: no pods today',
    );
    expect(backend.reviews).toHaveLength(1);
    expect(backend.reviews[0]).toMatchObject({
      operation: 'CREATE',
      name: 'a',
      namespace: 'default',
      resource: { resource: 'pods' },
    });
  });

  it('honours failurePolicy and timeoutSeconds when the backend is too slow', async () => {
    backend.behaviour = { allowed: false, delayMs: 3000 };
    await h.sim.store.create(
      webhookConfiguration(backend.url, { rules: CREATE_PODS, timeoutSeconds: 1, failurePolicy: 'Ignore' }),
    );
    const started = Date.now();
    await h.core.createNamespacedPod({ namespace: 'default', body: podBody('a') });
    expect(Date.now() - started).toBeLessThan(2500);
    await h.sim.store.apply(
      webhookConfiguration(backend.url, { rules: CREATE_PODS, timeoutSeconds: 1, failurePolicy: 'Fail' }),
    );
    const err = await h.core
      .createNamespacedPod({ namespace: 'default', body: podBody('b') })
      .catch((e: ApiException<string>) => e);
    expect((err as ApiException<string>).code).toBe(500);
    expect(String((err as ApiException<string>).body)).toContain('failed calling webhook');
  });

  it('calls the webhook only when rules, objectSelector and CEL matchConditions match', async () => {
    await h.sim.store.create(
      webhookConfiguration(backend.url, {
        rules: [
          {
            operations: ['UPDATE'],
            apiGroups: [''],
            apiVersions: ['v1'],
            resources: ['nodes'],
            scope: 'Cluster',
          },
        ],
        objectSelector: { matchExpressions: [{ key: 'skip', operator: 'DoesNotExist' }] },
        matchConditions: [
          {
            name: 'cordon',
            expression:
              "has(object.spec.unschedulable) && object.spec.unschedulable && request.operation == 'UPDATE'",
          },
        ],
      }),
    );
    await h.sim.store.create(nodeBody('n1'));
    await h.sim.store.create({ ...nodeBody('n2'), metadata: { name: 'n2', labels: { skip: 'yes' } } });
    await h.sim.store.patch('v1', 'Node', 'n1', undefined, { metadata: { labels: { a: 'b' } } });
    expect(backend.reviews).toHaveLength(0);
    await h.sim.store.patch('v1', 'Node', 'n2', undefined, { spec: { unschedulable: true } });
    expect(backend.reviews).toHaveLength(0);
    await h.sim.store.patch('v1', 'Node', 'n1', undefined, { spec: { unschedulable: true } });
    expect(backend.reviews.map((r) => r.name)).toEqual(['n1']);
  });
});
