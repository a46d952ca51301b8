import { describe, expect, it } from 'vitest';
import { type KubeObject, ObjectStore } from '../../../../functions/simulator/kube/api/object-store.js';
import { DisruptionRecorder } from '../../../../functions/simulator/scenario/disruption-recorder.js';
import { PodPlacements } from '../../../../functions/simulator/scenario/pod-placements.js';

const DISRUPTED = { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' };

function node(
  name: string,
  pool: string | undefined,
  opts: { tainted?: boolean; deleting?: boolean } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: pool ? { 'karpenter.sh/nodepool': pool } : {},
      ...(opts.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: { taints: opts.tainted ? [DISRUPTED] : [] },
  };
}

function pod(name: string, uid: string, nodeName: string, phase: string, deleting = false): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid,
      labels: { app: name.split('-')[0] },
      ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: { nodeName, containers: [] },
    status: { phase },
  };
}

describe('DisruptionRecorder', () => {
  it('keeps per NodePool the nodes seen, the most disrupting at once and each removal', () => {
    const store = new ObjectStore();
    let now = 1_000_000;
    const recorder = new DisruptionRecorder(store, () => now);
    for (const n of ['a1', 'a2', 'a3']) store.put('/nodes', node(n, 'a'));
    store.put('/nodes', node('b1', 'b'));
    store.put('/nodes', node('static', undefined, { tainted: true }));
    now += 1000;
    store.put('/nodes', node('a1', 'a', { tainted: true }));
    now += 1000;
    store.put('/nodes', node('a2', 'a', { deleting: true }));
    now += 1000;
    store.remove('/nodes', undefined, 'a1');
    store.put('/nodes', node('a3', 'a', { tainted: true }));
    now += 1000;
    store.put('/nodes', node('a3', 'a'));
    store.remove('/nodes', undefined, 'a2');
    store.remove('/nodes', undefined, 'b1');
    recorder.stop();
    store.put('/nodes', node('a4', 'a', { tainted: true }));

    expect(recorder.byPool()).toEqual({
      a: {
        nodes: ['a1', 'a2', 'a3'],
        maxDisrupting: 2,
        removals: [
          { node: 'a1', disruptedAt: 1_001_000, removedAt: 1_003_000 },
          { node: 'a2', disruptedAt: 1_002_000, removedAt: 1_004_000 },
        ],
      },
      b: {
        nodes: ['b1'],
        maxDisrupting: 0,
        removals: [{ node: 'b1', disruptedAt: undefined, removedAt: 1_004_000 }],
      },
    });
    expect(recorder.maxDisrupting('a')).toBe(2);
    expect(recorder.maxDisrupting('nowhere')).toBe(0);
    // Over every pool, nodes without a pool left out (what a wait for nodesRemoved counts).
    expect(recorder.removedCount()).toBe(3);
  });

  it("counts a node that reuses a removed node's name (its private IP was freed) as another node", () => {
    const store = new ObjectStore();
    const recorder = new DisruptionRecorder(store, () => 0);
    store.put('/nodes', {
      ...node('ip-10-0-0-4', 'a'),
      metadata: { ...node('ip-10-0-0-4', 'a').metadata, uid: 'u1' },
    });
    store.remove('/nodes', undefined, 'ip-10-0-0-4');
    store.put('/nodes', {
      ...node('ip-10-0-0-4', 'a'),
      metadata: { ...node('ip-10-0-0-4', 'a').metadata, uid: 'u2' },
    });
    expect(recorder.byPool().a?.nodes).toEqual(['ip-10-0-0-4', 'ip-10-0-0-4']);
  });
});

describe('PodPlacements', () => {
  it('checks that the pods Running at a mark (or ever) are still there and not terminating', () => {
    const store = new ObjectStore();
    let now = 5_000;
    const placements = new PodPlacements(store, () => now);
    store.put('/pods', pod('critical-1', 'u1', 'n1', 'Running'));
    store.put('/pods', pod('web-1', 'u2', 'n1', 'Running'));
    store.put('/pods', pod('critical-2', 'u3', 'n2', 'Pending'));
    expect(placements.mark('before')).toBe(2);
    store.put('/pods', pod('critical-2', 'u3', 'n2', 'Running'));
    expect(placements.problems({ selector: { app: 'critical' } })).toEqual([]);

    now += 10_000;
    store.put('/pods', pod('critical-2', 'u3', 'n2', 'Running', true));
    store.remove('/pods', 'default', 'web-1');
    // critical-2 was not Running at the mark: only the latest mark's pods count.
    expect(placements.problems({ selector: { app: 'critical' } })).toEqual([]);
    expect(placements.problems({ selector: { app: 'web' }, since: 'before' })).toEqual([
      'default/web-1 (on n1) removed at 10 s',
    ]);
    // Without a mark, every pod that ever ran counts.
    const fresh = new PodPlacements(store, () => now);
    store.put('/pods', pod('critical-2', 'u3', 'n2', 'Running', true));
    expect(fresh.problems({ selector: { app: 'critical' } })).toEqual([
      'default/critical-2 (on n2) terminating since 0 s',
    ]);
    expect(placements.problems({ selector: { app: 'critical' }, namespace: 'prod' })).toEqual([
      'no pod matching {"app":"critical"} was Running at mark before',
    ]);
    expect(placements.problems({ selector: { app: 'x' }, since: 'later' })).toEqual([
      'no mark named later was taken',
    ]);
    placements.stop();
    fresh.stop();
  });
});
