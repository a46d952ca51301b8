/**
 * The simulated API server serves RuntimeClasses and admits pods as the real RuntimeClass
 * admission plugin does: overhead, node selector and tolerations from the class; a missing class,
 * a different overhead or a conflicting selector refused with 403. Without it a pod's RuntimeClass
 * overhead was silently left out of `joiner simulate`, while `joiner plan` counted it.
 */
import { describe, expect, it } from 'vitest';
import { SeededRandom, VirtualClock } from '../../../../functions/simulator/clock.js';
import { ApiError } from '../../../../functions/simulator/kube/api/api-error.js';
import { KubeApi } from '../../../../functions/simulator/kube/api/kube-api.js';
import { ObjectStore } from '../../../../functions/simulator/kube/api/object-store.js';
import { ResourceRegistry } from '../../../../functions/simulator/kube/api/resource-registry.js';

async function cluster() {
  const registry = new ResourceRegistry();
  const api = new KubeApi(registry, new ObjectStore(), new VirtualClock(0), new SeededRandom(1));
  await api.create(registry.byKind('v1', 'Namespace')!, undefined, { metadata: { name: 'default' } });
  const podType = registry.byKind('v1', 'Pod')!;
  const rcType = registry.byKind('node.k8s.io/v1', 'RuntimeClass');
  return { api, podType, rcType };
}

const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: {
    runtimeClassName: 'kata',
    containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '1' } } }],
    ...spec,
  },
});

const KATA = {
  apiVersion: 'node.k8s.io/v1',
  kind: 'RuntimeClass',
  metadata: { name: 'kata' },
  handler: 'kata',
  overhead: { podFixed: { cpu: '3', memory: '120Mi' } },
  scheduling: {
    nodeSelector: { 'kubernetes.io/arch': 'amd64' },
    tolerations: [{ key: 'kata', operator: 'Exists', effect: 'NoSchedule' }],
  },
};

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('RuntimeClass admission in the simulated API server', () => {
  it('serves node.k8s.io/v1 runtimeclasses', async () => {
    const { api, rcType } = await cluster();
    expect(rcType).toBeDefined();
    await api.create(rcType!, undefined, KATA);
    expect(api.get(rcType!, undefined, 'kata').metadata.name).toBe('kata');
  });

  it('a pod of the class gets its overhead, node selector and tolerations', async () => {
    const { api, podType, rcType } = await cluster();
    await api.create(rcType!, undefined, KATA);
    const created = await api.create(podType, 'default', pod('p', { nodeSelector: { app: 'x' } }));
    const spec = created.spec as Record<string, unknown>;
    expect(spec.overhead).toEqual({ cpu: '3', memory: '120Mi' });
    expect(spec.nodeSelector).toEqual({ app: 'x', 'kubernetes.io/arch': 'amd64' });
    expect(spec.tolerations).toContainEqual({ key: 'kata', operator: 'Exists', effect: 'NoSchedule' });
  });

  it('a pod naming a RuntimeClass that does not exist is refused with 403', async () => {
    const { api, podType } = await cluster();
    const error = await refusal(api.create(podType, 'default', pod('p')));
    expect(error.code).toBe(403);
    expect(error.message).toBe('pods "p" is forbidden: pod rejected: RuntimeClass "kata" not found');
  });

  it("a pod's own different overhead or a conflicting node selector is refused with 403", async () => {
    const { api, podType, rcType } = await cluster();
    await api.create(rcType!, undefined, KATA);
    const overhead = await refusal(api.create(podType, 'default', pod('a', { overhead: { cpu: '1' } })));
    expect(overhead.code).toBe(403);
    expect(overhead.message).toMatch(/Overhead doesn't match RuntimeClass's defined Overhead/);
    const selector = await refusal(
      api.create(podType, 'default', pod('b', { nodeSelector: { 'kubernetes.io/arch': 'arm64' } })),
    );
    expect(selector.code).toBe(403);
    expect(selector.message).toMatch(/kubernetes.io\/arch=arm64 conflicts with RuntimeClass "kata"/);
  });

  it('a pod without runtimeClassName is not touched', async () => {
    const { api, podType } = await cluster();
    const created = await api.create(podType, 'default', pod('p', { runtimeClassName: undefined }));
    expect((created.spec as Record<string, unknown>).overhead).toBeUndefined();
  });
});
