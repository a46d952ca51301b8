import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../functions/core/model/kube-objects.js';
import { type KubeObject, ObjectStore } from '../../../../functions/simulator/kube/api/object-store.js';
import { BoundPods } from '../../../../functions/simulator/kube/scheduler/bound-pods.js';

function pod(name: string, nodeName?: string, phase = 'Running'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { ...(nodeName ? { nodeName } : {}), containers: [] },
    status: { phase },
  };
}

const names = (pods: readonly Pod[]): string[] => pods.map((p) => p.metadata.name);

describe('BoundPods', () => {
  it("keeps each node's bound, unfinished pods in store order as pods are bound, finish, move and go", () => {
    const store = new ObjectStore();
    store.put('/pods', pod('b', 'n1'));
    store.put('/pods', pod('pending'));
    const bound = new BoundPods(store.view('/pods') as unknown as Pod[]);
    store.subscribe((e) => bound.onEvent(e));
    expect(names(bound.on('n1'))).toEqual(['b']);
    store.put('/pods', pod('a', 'n1'));
    store.put('/pods', pod('pending', 'n2'));
    store.put('/nodes', { ...pod('ignored', 'n1'), kind: 'Node' } as KubeObject);
    expect(names(bound.on('n1'))).toEqual(['a', 'b']);
    expect(names(bound.on('n2'))).toEqual(['pending']);
    // The same array while nothing on the node changed; the stored objects themselves.
    expect(bound.on('n1')).toBe(bound.on('n1'));
    expect(bound.on('n1')[0]).toBe(store.peek('/pods', 'default', 'a'));
    store.put('/pods', pod('a', 'n1', 'Succeeded'));
    expect(names(bound.on('n1'))).toEqual(['b']);
    store.put('/pods', pod('b', 'n2'));
    store.remove('/pods', 'default', 'pending');
    expect(names(bound.on('n1'))).toEqual([]);
    expect(names(bound.on('n2'))).toEqual(['b']);
    expect(names(bound.on('elsewhere'))).toEqual([]);
  });

  it('agrees with a pass over every pod after any sequence of changes', () => {
    const store = new ObjectStore();
    const bound = new BoundPods([]);
    store.subscribe((e) => bound.onEvent(e));
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 400; i++) {
      const name = `p${next(30)}`;
      const what = next(4);
      if (what === 0) store.remove('/pods', 'default', name);
      else
        store.put(
          '/pods',
          pod(name, what === 1 ? undefined : `n${next(3)}`, next(5) === 0 ? 'Failed' : 'Running'),
        );
      for (const node of ['n0', 'n1', 'n2']) {
        const expected = (store.view('/pods') as unknown as Pod[]).filter(
          (p) => p.spec.nodeName === node && p.status?.phase === 'Running',
        );
        expect(bound.on(node)).toEqual(expected);
      }
    }
  });
});
