import { CustomObjectsApi } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { admissionEvents } from '../../../../functions/core/admission/admission-events.js';
import { parseAdmissionReview } from '../../../../functions/core/admission/admission-review.js';
import { karpenterCrds } from '../../../../functions/core/install/karpenter-crds.js';
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

  it('is called for a NodePool scale write as the scale subresource with Scale objects', async () => {
    const crd = karpenterCrds().find((c) => c.metadata.name === 'nodepools.karpenter.sh');
    if (!crd) throw new Error('no nodepools.karpenter.sh CRD');
    await h.sim.store.create(crd);
    await h.sim.store.create({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'fixed' },
      spec: {
        replicas: 2,
        limits: { nodes: 5 },
        template: {
          spec: {
            nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
            requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] }],
          },
        },
      },
    });
    backend.reviews.length = 0;
    const custom = h.kc.makeApiClient(CustomObjectsApi);
    const target = { group: 'karpenter.sh', version: 'v1', plural: 'nodepools', name: 'fixed' };
    const scale = (replicas: number) => ({
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'fixed' },
      spec: { replicas },
    });
    await custom.replaceClusterCustomObjectScale({ ...target, body: scale(4) });
    // The same count again changes nothing: the match condition leaves the webhook out.
    await custom.replaceClusterCustomObjectScale({ ...target, body: scale(4) });
    expect(backend.reviews).toHaveLength(1);
    const [request] = backend.reviews as unknown as Record<string, unknown>[];
    expect(request).toMatchObject({
      operation: 'UPDATE',
      subResource: 'scale',
      kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      resource: { group: 'karpenter.sh', version: 'v1', resource: 'nodepools' },
      name: 'fixed',
      object: { apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 4 } },
      oldObject: { kind: 'Scale', spec: { replicas: 2 } },
    });
    const stored = h.sim.store.api.get(h.sim.store.api.typeOf('karpenter.sh/v1', 'NodePool'), '', 'fixed');
    expect((stored.spec as { replicas?: number }).replicas).toBe(4);
    const review = parseAdmissionReview({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request,
    });
    expect(admissionEvents(review.request)).toEqual([
      {
        detailType: 'ConfigurationChanged',
        detail: { group: 'karpenter.sh', kind: 'NodePool', name: 'fixed' },
      },
    ]);
  });
});
