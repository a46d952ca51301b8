import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../functions/core/model/kube-objects.js';
import { podsToDelete } from '../../../../functions/simulator/kube/controllers/scale-down-rank.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

function pod(
  uid: string,
  node: string,
  opts: { readyAgoS?: number; createdAgoS?: number; phase?: string; cost?: number } = {},
): Pod {
  const ready = opts.readyAgoS !== undefined;
  return {
    metadata: {
      name: `p-${uid}`,
      namespace: 'default',
      uid,
      creationTimestamp: iso(NOW - (opts.createdAgoS ?? 120) * 1000),
      ...(opts.cost === undefined
        ? {}
        : { annotations: { 'controller.kubernetes.io/pod-deletion-cost': String(opts.cost) } }),
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
    },
  } as unknown as Pod;
}

const uids = (pods: readonly Pod[]) => pods.map((p) => p.metadata.uid);

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

  it('a pod Ready in a younger band goes first, whatever its uid', () => {
    const pods = [pod('u1', 'a', { readyAgoS: 100 }), pod('u9', 'b', { readyAgoS: 3 })];
    expect(uids(podsToDelete(pods, 1, NOW))).toEqual(['u9']);
  });

  it('unassigned, then pending, then not ready pods go before ready ones', () => {
    const pods = [
      pod('r', 'a', { readyAgoS: 60 }),
      pod('n', 'a', { phase: 'Running' }),
      pod('p', 'a', { phase: 'Pending' }),
      pod('u', ''),
    ];
    expect(uids(podsToDelete(pods, 4, NOW))).toEqual(['u', 'p', 'n', 'r']);
  });

  it('a lower pod-deletion-cost goes first, then the node with more of the pods', () => {
    const pods = [
      pod('u1', 'a', { readyAgoS: 60 }),
      pod('u2', 'b', { readyAgoS: 60 }),
      pod('u3', 'b', { readyAgoS: 60 }),
      pod('u9', 'a', { readyAgoS: 60, cost: -5 }),
    ];
    // u9 by its cost; then b's pods (two on b, while a's rank counts u9 too: two as well, so uid).
    expect(uids(podsToDelete(pods, 2, NOW))).toEqual(['u9', 'u1']);
    const doubled = [
      pod('u1', 'a', { readyAgoS: 60 }),
      pod('u2', 'b', { readyAgoS: 60 }),
      pod('u3', 'b', { readyAgoS: 60 }),
    ];
    expect(uids(podsToDelete(doubled, 1, NOW))).toEqual(['u2']);
  });

  it('with equal ready times the newer creation band goes first', () => {
    const pods = [
      pod('u1', 'a', { readyAgoS: 60, createdAgoS: 500 }),
      pod('u2', 'a', { readyAgoS: 60, createdAgoS: 70 }),
    ];
    expect(uids(podsToDelete(pods, 1, NOW))).toEqual(['u2']);
  });

  it('deletes nothing for no surplus', () => {
    expect(podsToDelete([pod('u1', 'a', { readyAgoS: 5 })], 0, NOW)).toEqual([]);
  });
});
