import { describe, expect, it } from 'vitest';
import { poolContexts } from '../../../../functions/core/scheduling/pool-context.js';
import { Dims } from '../../../../functions/core/scheduling/resource-vector.js';
import { nodePool } from '../../../builders/config.js';
import { daemonSet } from '../../../builders/workloads.js';
import { pool } from './fixtures.js';

const dims = new Dims(['cpu', 'memory', 'pods']);

/** The daemonset cpu overhead of each instance type of a pool, as the scheduler counts it. */
function overheads(p: ReturnType<typeof nodePool>, ds: ReturnType<typeof daemonSet>): number[] {
  const [ctx] = poolContexts([pool(p)], [ds], dims, () => ({}));
  return ctx.types.map((t) => t.overhead.cpu ?? 0);
}

describe('daemonset overhead (as Karpenter counts it)', () => {
  it('a daemonset selecting a custom label no node of the pool carries is no overhead', () => {
    const gpuOnly = daemonSet({
      name: 'gpu-agent',
      requests: { cpu: '500m' },
      nodeSelector: { team: 'gpu' },
    });
    expect(new Set(overheads(nodePool(), gpuOnly))).toEqual(new Set([0]));
    // The pool's own label makes it run there.
    expect(new Set(overheads(nodePool({ labels: { team: 'gpu' } }), gpuOnly))).toEqual(new Set([500]));
  });

  it("a daemonset whose selection the pool's requirements exclude is no overhead; a compatible one is", () => {
    const spotOnly = daemonSet({
      name: 'spot-agent',
      requests: { cpu: '200m' },
      nodeSelector: { 'karpenter.sh/capacity-type': 'spot' },
    });
    const onDemand = nodePool({
      requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }],
    });
    expect(new Set(overheads(onDemand, spotOnly))).toEqual(new Set([0]));
    expect(new Set(overheads(nodePool(), spotOnly))).toEqual(new Set([200]));
  });

  it('a selection satisfied by the absence of a label still counts', () => {
    const notGpu = daemonSet({
      name: 'cpu-agent',
      requests: { cpu: '100m' },
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['gpu'] }] }],
          },
        },
      },
    });
    expect(new Set(overheads(nodePool(), notGpu))).toEqual(new Set([100]));
  });
});
