import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import { resolveInstanceTypes } from '../../../../functions/core/catalog/resolve.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import { nodePool } from '../../../builders/config.js';
import { pod, pods } from '../../../builders/workloads.js';
import { input, pool } from './fixtures.js';

const GPU_COUNT = 'karpenter.k8s.aws/instance-gpu-count';
const types = resolveInstanceTypes(bundledCatalog, undefined);
const isGpu = (name: string) => types.find((t) => t.name === name)?.labels[GPU_COUNT] !== undefined;

describe('accelerated instance types', () => {
  it('are never the first choice of pods that do not need them while another type fits', () => {
    // A pool open to every type of the catalog (GPU families included), pods of many shapes.
    const shapes = [
      { cpu: '500m', memory: '1Gi' },
      { cpu: '3', memory: '12Gi' },
      { cpu: '7', memory: '30Gi' },
      { cpu: '15', memory: '60Gi' },
      { cpu: '30', memory: '120Gi' },
    ];
    for (const [i, requests] of shapes.entries()) {
      const plan = schedule(
        input({ pods: pods(3, `p${i}`, { requests }), pools: [pool(nodePool(), types)] }),
      );
      expect(plan.unschedulable).toEqual([]);
      for (const claim of plan.nodeClaims) {
        const first = claim.instanceTypeOptions[0].instanceType;
        expect(isGpu(first), `${JSON.stringify(requests)} -> ${first}`).toBe(false);
      }
    }
  });

  it('are chosen for a pod that asks for a GPU, with the instance-gpu labels a selector can use', () => {
    const gpuPod = pod({
      name: 'trainer',
      requests: { cpu: '4', memory: '16Gi', 'nvidia.com/gpu': '1' },
      nodeSelector: { 'karpenter.k8s.aws/instance-gpu-name': 'a10g' },
    });
    const plan = schedule(input({ pods: [gpuPod], pools: [pool(nodePool(), types)] }));
    expect(plan.unschedulable).toEqual([]);
    const options = plan.nodeClaims[0].instanceTypeOptions.map((o) => o.instanceType);
    expect(options.length).toBeGreaterThan(0);
    for (const name of options) expect(name).toMatch(/^g5\./);
  });

  it('leave a pod asking for more GPUs than any type has unschedulable, with a reason', () => {
    const plan = schedule(
      input({
        pods: [pod({ name: 'huge', requests: { 'nvidia.com/gpu': '64' } })],
        pools: [pool(nodePool(), types)],
      }),
    );
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable).toHaveLength(1);
  });
});
