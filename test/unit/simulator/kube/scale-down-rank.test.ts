import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../functions/core/model/kube-objects.js';
import { podsToDelete } from '../../../../functions/simulator/kube/controllers/scale-down-rank.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

interface PodOpts {
  readyAgoS?: number;
  createdAgoS?: number | null;
  phase?: string;
  cost?: string;
  restarts?: number;
  deleting?: boolean;
}

function pod(uid: string, node: string, opts: PodOpts = {}): Pod {
  const ready = opts.readyAgoS !== undefined;
  const annotations =
    opts.cost === undefined
      ? {}
      : { annotations: { 'controller.kubernetes.io/pod-deletion-cost': opts.cost } };
  return {
    metadata: {
      name: `p-${uid}`,
      namespace: 'default',
      uid,
      ...(opts.createdAgoS === null
        ? {}
        : { creationTimestamp: iso(NOW - (opts.createdAgoS ?? 120) * 1000) }),
      ...(opts.deleting ? { deletionTimestamp: iso(NOW) } : {}),
      ...annotations,
    },
    spec: { ...(node ? { nodeName: node } : {}), containers: [] },
    status: {
      phase: opts.phase ?? (node ? 'Running' : 'Pending'),
      conditions: [
        {
          type: 'Ready',
          status: ready ? 'True' : 'False',
          ...(ready ? { lastTransitionTime: iso(NOW - (opts.readyAgoS ?? 0) * 1000) } : {}),
        },
      ],
      containerStatuses: [{ name: 'c', restartCount: opts.restarts ?? 0 }],
    },
  } as unknown as Pod;
}

const uids = (pods: readonly Pod[]) => pods.map((p) => p.metadata.uid);
const order = (pods: readonly Pod[], related?: readonly Pod[]) =>
  uids(podsToDelete(pods, pods.length, NOW, related));

describe('podsToDelete: the ReplicaSet controller scale-down order', () => {
  it('takes pods that started together from every node, not the newest node first', () => {
    // Node c got its pods last (ready 40 s ago, a and b 50 s ago): all in the same power-of-two
    // band of age, so the uid decides, not which node is newest.
    const pods = [
      pod('u1', 'a', { readyAgoS: 50 }),
      pod('u4', 'a', { readyAgoS: 50 }),
      pod('u2', 'b', { readyAgoS: 50 }),
      pod('u5', 'b', { readyAgoS: 50 }),
      pod('u3', 'c', { readyAgoS: 40 }),
      pod('u6', 'c', { readyAgoS: 40 }),
    ];
    const deleted = podsToDelete(pods, 3, NOW);
    expect(uids(deleted)).toEqual(['u1', 'u2', 'u3']);
    expect(new Set(deleted.map((p) => p.spec?.nodeName))).toEqual(new Set(['a', 'b', 'c']));
  });

  it('1: an unassigned pod goes before an assigned one, whatever else', () => {
    const pods = [pod('a1', 'a', { phase: 'Pending', cost: '-100' }), pod('z9', '', { cost: '100' })];
    expect(order(pods)).toEqual(['z9', 'a1']);
  });

  it('2: Pending, then Unknown, then Running', () => {
    const pods = [
      pod('a1', 'a', { phase: 'Running' }),
      pod('a2', 'a', { phase: 'Unknown' }),
      pod('a3', 'a', { phase: 'Pending' }),
    ];
    expect(order(pods)).toEqual(['a3', 'a2', 'a1']);
  });

  it('3: not Ready before Ready', () => {
    const pods = [pod('a1', 'a', { readyAgoS: 5 }), pod('a2', 'a', { phase: 'Running' })];
    expect(order(pods)).toEqual(['a2', 'a1']);
  });

  it('4: a lower pod-deletion-cost first; a value that is not an int32 counts as 0', () => {
    const pods = [
      pod('a1', 'a', { readyAgoS: 60, cost: '5' }),
      pod('a2', 'a', { readyAgoS: 60, cost: '-5' }),
      pod('a3', 'a', { readyAgoS: 60, cost: '1.5' }),
      pod('a4', 'a', { readyAgoS: 60, cost: '3000000000' }),
      pod('a5', 'a', { readyAgoS: 60, cost: '+2' }),
    ];
    // a3 and a4 are 0 (a bad value), then +2, then 5.
    expect(order(pods)).toEqual(['a2', 'a3', 'a4', 'a5', 'a1']);
  });

  it('5: a pod on a node with more of the related pods first, related pods counted with sibling ReplicaSets', () => {
    const pods = [
      pod('u1', 'a', { readyAgoS: 60 }),
      pod('u2', 'b', { readyAgoS: 60 }),
      pod('u3', 'b', { readyAgoS: 60 }),
    ];
    expect(uids(podsToDelete(pods, 1, NOW))).toEqual(['u2']);
    // An old ReplicaSet of the same Deployment has two pods on a: a now has three related pods.
    const old = [pod('o1', 'a', { readyAgoS: 600 }), pod('o2', 'a', { readyAgoS: 600 })];
    expect(uids(podsToDelete(pods, 1, NOW, [...pods, ...old]))).toEqual(['u1']);
    // A terminating related pod does not count.
    const gone = [0, 1].map((i) => pod(`g${i}`, 'a', { readyAgoS: 600, deleting: true }));
    expect(uids(podsToDelete(pods, 1, NOW, [...pods, ...gone]))).toEqual(['u2']);
  });

  it('6: both Ready, the one Ready for less time by power-of-two bands; in one band the uid decides before restarts and age', () => {
    const younger = [pod('u1', 'a', { readyAgoS: 100 }), pod('u9', 'a', { readyAgoS: 3 })];
    expect(order(younger)).toEqual(['u9', 'u1']);
    // 40 s and 50 s are in the same band (2^35 ns = 34.4 s to 68.7 s): u1 first although u2 restarted more
    // and was created later.
    const band = [
      pod('u1', 'a', { readyAgoS: 50, createdAgoS: 500 }),
      pod('u2', 'a', { readyAgoS: 40, createdAgoS: 45, restarts: 3 }),
    ];
    expect(order(band)).toEqual(['u1', 'u2']);
  });

  it('7: with equal ready times, more container restarts first', () => {
    const pods = [
      pod('u1', 'a', { readyAgoS: 60, restarts: 0 }),
      pod('u2', 'a', { readyAgoS: 60, restarts: 2 }),
    ];
    expect(order(pods)).toEqual(['u2', 'u1']);
  });

  it('8: then the newer creation band, then the uid; a missing creation time first', () => {
    const pods = [
      pod('u1', 'a', { readyAgoS: 60, createdAgoS: 500 }),
      pod('u2', 'a', { readyAgoS: 60, createdAgoS: 70 }),
      pod('u0', 'a', { readyAgoS: 60, createdAgoS: 71 }),
      pod('u3', 'a', { readyAgoS: 60, createdAgoS: null }),
    ];
    expect(order(pods)).toEqual(['u3', 'u0', 'u2', 'u1']);
  });

  it('deletes nothing for no surplus', () => {
    expect(podsToDelete([pod('u1', 'a', { readyAgoS: 5 })], 0, NOW)).toEqual([]);
  });
});
