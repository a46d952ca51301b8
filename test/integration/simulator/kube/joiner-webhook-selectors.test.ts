import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { webhookConfiguration } from '../../../../functions/core/install/webhook-configuration.js';
import { type Harness, nodeBody, podBody, startHarness } from './fixtures.js';
import { startWebhookBackend, type WebhookBackend } from './webhook-backend.js';

/** A pod bound to node n1 in `namespace`. */
function boundPod(name: string, namespace: string, labels: Record<string, string> = {}) {
  const body = podBody(name, labels);
  return { ...body, metadata: { ...body.metadata, namespace }, spec: { ...body.spec, nodeName: 'n1' } };
}

describe("joiner's webhook configuration in the simulated API server", () => {
  let h: Harness;
  let backend: WebhookBackend;
  beforeEach(async () => {
    h = await startHarness();
    backend = await startWebhookBackend();
    await h.sim.store.create(webhookConfiguration({ url: backend.url }));
    await h.sim.store.create(nodeBody('n1'));
  });
  afterEach(async () => {
    await h.sim.close();
    await backend.close();
  });

  it('is not called for pod deletions in kube-system, and still is for other namespaces', async () => {
    await h.sim.store.create(boundPod('coredns-1', 'kube-system', { 'k8s-app': 'kube-dns' }));
    await h.sim.store.create(boundPod('web-1', 'default'));
    backend.reviews.length = 0;
    await h.sim.store.delete('v1', 'Pod', 'coredns-1', 'kube-system');
    await h.sim.store.delete('v1', 'Pod', 'web-1', 'default');
    const deletions = backend.reviews.filter((r) => r.operation === 'DELETE');
    expect(deletions.map((r) => `${r.namespace}/${r.name}`)).toEqual(['default/web-1']);
  });

  it('sends only Multus pods (app=multus) to the Multus readiness webhook, in kube-system too', async () => {
    await h.sim.store.create(boundPod('multus-abc', 'kube-system', { app: 'multus' }));
    await h.sim.store.create(boundPod('other-abc', 'kube-system', { app: 'other' }));
    backend.reviews.length = 0;
    const ready = { status: { conditions: [{ type: 'Ready', status: 'True' }] } };
    await h.sim.store.patch('v1', 'Pod', 'other-abc', 'kube-system', ready, 'status');
    await h.sim.store.patch('v1', 'Pod', 'multus-abc', 'kube-system', ready, 'status');
    expect(backend.reviews.map((r) => `${r.namespace}/${r.name}`)).toEqual(['kube-system/multus-abc']);
    const config = webhookConfiguration({ url: backend.url }) as unknown as {
      webhooks: Record<string, unknown>[];
    };
    const multus = config.webhooks.find((w) => w.name === 'multus-pod-ready.joiner.sh');
    expect(multus?.objectSelector).toEqual({ matchLabels: { app: 'multus' } });
  });
});
