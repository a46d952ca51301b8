/**
 * The simulated API server's storage keeps its objects ordered by namespace and name, as etcd's key
 * order lists them, through any mix of creations, updates and removals; and its change history
 * keeps the newest changes only, answering older resumptions as expired.
 */
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../../functions/simulator/clock.js';
import { ObjectStore } from '../../../../functions/simulator/kube/api/object-store.js';

const obj = (namespace: string, name: string, n = 0) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace, name },
  data: { n: String(n) },
});

describe('object store order and history', () => {
  it('lists in namespace/name order after random creations, updates and removals', () => {
    const store = new ObjectStore();
    const random = new SeededRandom(3);
    const live = new Set<string>();
    for (let step = 0; step < 2000; step++) {
      const ns = `ns-${random.int(0, 3)}`;
      const name = `cm-${random.int(0, 60)}`;
      const key = `${ns}/${name}`;
      if (live.has(key) && random.int(0, 2) === 0) {
        store.remove('/configmaps', ns, name);
        live.delete(key);
      } else {
        store.put('/configmaps', obj(ns, name, step));
        live.add(key);
      }
      // Reading between changes keeps the cached order in use.
      if (step % 7 === 0) store.view('/configmaps');
    }
    const listed = store.view('/configmaps').map((o) => `${o.metadata.namespace}/${o.metadata.name}`);
    expect(listed).toEqual([...live].sort());
    expect(store.view('/configmaps', 'ns-1').every((o) => o.metadata.namespace === 'ns-1')).toBe(true);
  });

  it('lists one namespace exactly, next to namespaces whose names share its prefix', () => {
    const store = new ObjectStore();
    for (const ns of ['ns', 'ns-a', 'ns.b', 'ns0', 'ns1', 'n', 'nt'])
      for (const name of ['a', 'b']) store.put('/configmaps', obj(ns, name));
    const names = (ns: string) =>
      store.view('/configmaps', ns).map((o) => `${o.metadata.namespace}/${o.metadata.name}`);
    expect(names('ns')).toEqual(['ns/a', 'ns/b']);
    expect(names('ns0')).toEqual(['ns0/a', 'ns0/b']);
    expect(names('n')).toEqual(['n/a', 'n/b']);
    expect(names('none')).toEqual([]);
  });

  it('leaves a list already read as it was while later writes change, add and remove objects', () => {
    const store = new ObjectStore();
    for (const name of ['a', 'b', 'c']) store.put('/configmaps', obj('default', name, 1));
    const before = store.view('/configmaps');
    const inNamespace = store.view('/configmaps', 'default');
    store.put('/configmaps', obj('default', 'b', 2));
    store.put('/configmaps', obj('default', 'aa', 2));
    store.remove('/configmaps', 'default', 'c');
    const values = (list: readonly { metadata: { name: string }; data?: unknown }[]) =>
      list.map((o) => `${o.metadata.name}=${(o.data as { n: string }).n}`);
    expect(values(before)).toEqual(['a=1', 'b=1', 'c=1']);
    expect(values(inNamespace)).toEqual(['a=1', 'b=1', 'c=1']);
    expect(values(store.view('/configmaps'))).toEqual(['a=1', 'aa=2', 'b=2']);
  });

  it('keeps the last `limit` changes and answers an older resourceVersion as expired', () => {
    const store = new ObjectStore(5);
    for (let i = 0; i < 23; i++) store.put('/configmaps', obj('default', `cm-${i}`));
    expect(store.eventsSince('/configmaps', 17)).toBe('expired');
    const kept = store.eventsSince('/configmaps', 18);
    expect(kept === 'expired' ? [] : kept.map((e) => e.resourceVersion)).toEqual([19, 20, 21, 22, 23]);
    expect(store.eventsSince('/configmaps', 21)).toHaveLength(2);
  });
});
