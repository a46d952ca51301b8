import { describe, expect, it } from 'vitest';
import { classKey } from '../../../../functions/core/scheduling/pod-class.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import { pod } from '../../../builders/workloads.js';
import { existing, input } from './fixtures.js';

// The simulated kube-scheduler hands every pass the API server's stored objects and each node's
// same list of bound pods until one changes; what a run derives from them is kept per object.
// These runs reuse the same objects the way it does and must decide as if each were new.

const GPU = 'example.com/gpu';

describe('scheduling the same pod and node objects again', () => {
  const bound = [pod({ name: 'trainer', nodeName: 'n1', requests: { cpu: '100m', [GPU]: 1 } })];
  const nodes = [
    existing('n1', { allocatable: { cpu: 4000, memory: 16 << 30, pods: 110, [GPU]: 1 }, pods: bound }),
  ];

  it('counts what the bound pods take in every resource a later run asks for', () => {
    // The first run asks only for CPU and memory: its vectors have no GPU slot.
    const web = pod({ name: 'web', requests: { cpu: '100m' } });
    expect(schedule(input({ pods: [web], nodes })).existingPlacements).toEqual([
      { node: 'n1', pods: ['default/web'] },
    ]);
    // The second asks for a GPU: the bound pod's GPU must be counted on the same list of pods.
    const gpu = pod({ name: 'gpu', requests: { cpu: '100m', [GPU]: 1 } });
    const plan = schedule(input({ pods: [gpu], nodes }));
    expect(plan.existingPlacements).toEqual([]);
    expect(plan.unschedulable.map((u) => u.pod)).toEqual(['default/gpu']);
    expect(plan.unschedulable[0].reason).toContain(`Insufficient ${GPU}`);
    // With the bound pod gone (a new list), the GPU is free again.
    const freed = [{ ...nodes[0], pods: [] }];
    expect(schedule(input({ pods: [gpu], nodes: freed })).existingPlacements).toEqual([
      { node: 'n1', pods: ['default/gpu'] },
    ]);
  });

  it('gives a pod object the same class key every time, and a changed pod its own', () => {
    const a = pod({ name: 'a', labels: { app: 'x' }, requests: { cpu: '1' } });
    const key = classKey(a);
    expect(classKey(a)).toBe(key);
    expect(classKey({ ...a })).toBe(key);
    const relabelled = { ...a, metadata: { ...a.metadata, labels: { app: 'y' } } };
    expect(classKey(relabelled)).not.toBe(key);
    expect(classKey(a)).toBe(key);
  });

  it('counts the zones of nodes added in the same run for topology spread, as before', () => {
    const spread = (name: string) =>
      pod({
        name,
        labels: { app: 's' },
        requests: { cpu: '100m' },
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: 'topology.kubernetes.io/zone',
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: { app: 's' } },
          },
        ],
      });
    const zoned = ['zone-a', 'zone-b'].map((z) =>
      existing(`n-${z}`, { labels: { 'topology.kubernetes.io/zone': z } }),
    );
    for (let round = 0; round < 2; round++) {
      const plan = schedule(input({ pods: [spread('s1'), spread('s2')], nodes: zoned }));
      expect(plan.existingPlacements.map((p) => p.node).sort()).toEqual(['n-zone-a', 'n-zone-b']);
    }
  });
});
