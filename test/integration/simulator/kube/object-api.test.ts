import { KubernetesObjectApi } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './fixtures.js';

describe('KubernetesObjectApi against the simulated API server (discovery)', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.sim.close();
  });

  it('creates, reads and deletes built-in and custom objects by apiVersion and kind', async () => {
    const objects = KubernetesObjectApi.makeApiClient(h.kc);
    await objects.create({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'nodeclasses.joiner.sh' },
      spec: {
        group: 'joiner.sh',
        scope: 'Cluster',
        names: { plural: 'nodeclasses', singular: 'nodeclass', kind: 'NodeClass' },
        versions: [{ name: 'v1', served: true, storage: true }],
      },
    } as never);
    await objects.create({
      apiVersion: 'joiner.sh/v1',
      kind: 'NodeClass',
      metadata: { name: 'multus' },
      spec: { amiFamily: 'AL2023' },
    } as never);
    const read = (await objects.read({
      apiVersion: 'joiner.sh/v1',
      kind: 'NodeClass',
      metadata: { name: 'multus' },
    })) as unknown as {
      spec: { amiFamily: string };
    };
    expect(read.spec.amiFamily).toBe('AL2023');
    await objects.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'kube-system' },
      data: { a: '1' },
    } as never);
    const list = await objects.list('v1', 'ConfigMap', 'kube-system');
    expect(list.items.map((i) => i.metadata?.name)).toEqual(['c']);
    await objects.delete({ apiVersion: 'joiner.sh/v1', kind: 'NodeClass', metadata: { name: 'multus' } });
    expect(h.sim.store.list('joiner.sh/v1', 'NodeClass')).toEqual([]);
  });
});
