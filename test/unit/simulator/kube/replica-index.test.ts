/**
 * The ReplicaSet controller's pod index follows the store through any mix of creations, status
 * changes, deletions (graceful and not) and finished pods: per owner its active pods and Ready
 * count equal what a scan of every pod gives, and pods without an owner are listed by namespace.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../functions/core/model/kube-objects.js';
import { SeededRandom, VirtualClock } from '../../../../functions/simulator/clock.js';
import { KubeApi } from '../../../../functions/simulator/kube/api/kube-api.js';
import { ObjectStore } from '../../../../functions/simulator/kube/api/object-store.js';
import { ResourceRegistry } from '../../../../functions/simulator/kube/api/resource-registry.js';
import {
  isActive,
  isReady,
  ReplicaIndex,
} from '../../../../functions/simulator/kube/controllers/replica-index.js';

const OWNERS = ['rs-a', 'rs-b', 'rs-c'];

function podObject(name: string, owner: string | undefined, random: SeededRandom) {
  const phase = ['Pending', 'Running', 'Running', 'Succeeded', 'Failed'][random.int(0, 4)];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: random.int(0, 1) === 0 ? 'default' : 'other',
      ...(owner
        ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner, uid: owner }] }
        : {}),
      ...(random.int(0, 5) === 0 ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: { containers: [{ name: 'app', image: 'pause' }] },
    status: {
      phase,
      conditions: [{ type: 'Ready', status: random.int(0, 1) === 0 ? 'True' : 'False' }],
    },
  };
}

describe('ReplicaSet pod index', () => {
  it('matches a scan of every pod after random changes', () => {
    const store = new ObjectStore();
    const api = new KubeApi(new ResourceRegistry(), store, new VirtualClock(0), new SeededRandom(1));
    const random = new SeededRandom(7);
    // Some pods exist before the index is built; the rest come after.
    for (let i = 0; i < 20; i++) store.put('/pods', podObject(`p${i}`, OWNERS[i % 3], random));
    const index = new ReplicaIndex(api);
    const owners = new Map<string, string | undefined>();
    for (let i = 0; i < 20; i++) owners.set(`p${i}`, OWNERS[i % 3]);
    for (let step = 0; step < 3000; step++) {
      const name = `p${random.int(0, 80)}`;
      const live = store.view('/pods').find((p) => p.metadata.name === name);
      if (live && random.int(0, 3) === 0) {
        store.remove('/pods', live.metadata.namespace, name);
        owners.delete(name);
        continue;
      }
      // A pod keeps its owner while it lives, as a pod's controller reference does.
      const owner = owners.has(name)
        ? owners.get(name)
        : [undefined, ...OWNERS][random.int(0, OWNERS.length)];
      if (live) store.remove('/pods', live.metadata.namespace, name);
      store.put('/pods', podObject(name, owner, random));
      owners.set(name, owner);
    }
    const pods = store.view('/pods') as unknown as Pod[];
    for (const owner of OWNERS) {
      const mine = pods.filter((p) => p.metadata.ownerReferences?.[0]?.uid === owner && isActive(p));
      expect(index.activeCount(owner)).toBe(mine.length);
      expect(index.readyCount(owner)).toBe(mine.filter(isReady).length);
      expect(
        index
          .activePods(owner)
          .map((p) => p.metadata.name)
          .sort(),
      ).toEqual(mine.map((p) => p.metadata.name).sort());
    }
    for (const namespace of ['default', 'other'])
      expect(
        index
          .unownedPods(namespace)
          .map((p) => p.metadata.name)
          .sort(),
      ).toEqual(
        pods
          .filter((p) => !p.metadata.ownerReferences?.length && p.metadata.namespace === namespace)
          .map((p) => p.metadata.name)
          .sort(),
      );
    index.stop();
    store.put('/pods', podObject('late', 'rs-a', random));
    expect(index.activePods('rs-a').some((p) => p.metadata.name === 'late')).toBe(false);
  });

  it('counts a pod that turns Ready, then finishes, then goes', () => {
    const store = new ObjectStore();
    const api = new KubeApi(new ResourceRegistry(), store, new VirtualClock(0), new SeededRandom(1));
    const index = new ReplicaIndex(api);
    const base = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web-1',
        namespace: 'default',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'web' }],
      },
      spec: { containers: [] },
    };
    store.put('/pods', { ...base, status: { phase: 'Pending' } });
    expect([index.activeCount('web'), index.readyCount('web')]).toEqual([1, 0]);
    store.put('/pods', {
      ...base,
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    });
    expect([index.activeCount('web'), index.readyCount('web')]).toEqual([1, 1]);
    store.put('/pods', {
      ...base,
      status: { phase: 'Failed', conditions: [{ type: 'Ready', status: 'True' }] },
    });
    expect([index.activeCount('web'), index.readyCount('web')]).toEqual([0, 0]);
    store.remove('/pods', 'default', 'web-1');
    expect([index.activeCount('web'), index.readyCount('web'), index.activePods('web')]).toEqual([0, 0, []]);
  });
});
