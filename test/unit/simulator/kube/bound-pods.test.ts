import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../functions/core/model/kube-objects.js';
import { type KubeObject, ObjectStore } from '../../../../functions/simulator/kube/api/object-store.js';
import { BoundPods } from '../../../../functions/simulator/kube/scheduler/bound-pods.js';
import { schedulerNode } from '../../../../functions/simulator/kube/scheduler/kube-scheduler.js';

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

describe('the scheduler view of a node', () => {
  const node = (name: string, extra: Record<string, unknown> = {}): Node =>
    ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { zone: 'a' } },
      spec: {},
      status: {
        allocatable: { cpu: '2', memory: '4Gi', pods: '20' },
        conditions: [{ type: 'Ready', status: 'True' }],
      },
      ...extra,
    }) as unknown as Node;

  it('is the same view for the same node object and list of pods, and a new one when either changes', () => {
    const n1 = node('n1');
    const pods = [pod('a', 'n1') as unknown as Pod];
    const view = schedulerNode(n1, pods);
    expect(schedulerNode(n1, pods)).toBe(view);
    expect(view).toMatchObject({ name: 'n1', unschedulable: false, pods });
    expect(view.labels).toEqual({ 'kubernetes.io/hostname': 'n1', zone: 'a' });
    // The node's pods changed: a new list, a new view with it.
    const more = [...pods, pod('b', 'n1') as unknown as Pod];
    expect(schedulerNode(n1, more).pods).toBe(more);
    // The node was written (cordoned, not ready): a new stored object, a new view.
    const cordoned = node('n1', { spec: { unschedulable: true }, status: { conditions: [] } });
    const after = schedulerNode(cordoned, more);
    expect(after.unschedulable).toBe(true);
    expect(after.taints).toEqual([{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
  });
});
