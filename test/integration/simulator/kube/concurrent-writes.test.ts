import type { V1Node } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../functions/simulator/kube/api/api-error.js';
import { type Harness, nodeBody, startHarness } from './fixtures.js';
import { startWebhookBackend, type WebhookBackend, webhookConfiguration } from './webhook-backend.js';

const NODE_STATUS = [
  { operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['nodes/status'], scope: '*' },
];

describe('writes that land while another write is being admitted', () => {
  let h: Harness;
  let backend: WebhookBackend;
  beforeEach(async () => {
    h = await startHarness();
    backend = await startWebhookBackend();
    await h.sim.store.create(nodeBody('n1'));
    await h.sim.store.create(webhookConfiguration(backend.url, { rules: NODE_STATUS }));
    backend.behaviour = { allowed: true, delayMs: 150 };
  });
  afterEach(async () => {
    await h.sim.close();
    await backend.close();
  });

  /** A kubelet-style status update of n1 (the whole object with a new status), slowed by the webhook. */
  const slowStatusUpdate = () => {
    const api = h.sim.store.api;
    const type = api.typeOf('v1', 'Node');
    const node = api.get(type, undefined, 'n1');
    const status = { ...(node.status as object), conditions: [{ type: 'Ready', status: 'Unknown' }] };
    return api.replace(type, undefined, 'n1', { ...node, status }, 'status', { user: 'system:node' });
  };

  it('applies a status update on top of a spec change made meanwhile, so neither is lost', async () => {
    const pending = slowStatusUpdate();
    await new Promise((r) => setTimeout(r, 20));
    const taints = [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }];
    await h.sim.store.patch('v1', 'Node', 'n1', undefined, { spec: { taints } });
    await pending;
    const node = h.sim.store.get<V1Node>('v1', 'Node', 'n1');
    expect(node?.spec?.taints).toEqual(taints);
    expect(node?.status?.conditions).toEqual([{ type: 'Ready', status: 'Unknown' }]);
  });

  it('answers 404 to an update of an object deleted meanwhile instead of bringing it back', async () => {
    const pending = slowStatusUpdate().catch((error: unknown) => error);
    await new Promise((r) => setTimeout(r, 20));
    await h.core.deleteNode({ name: 'n1' });
    const error = await pending;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(404);
    expect(h.sim.store.list('v1', 'Node')).toEqual([]);
  });
});
