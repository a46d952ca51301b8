import { describe, expect, it } from 'vitest';
import type { NodePool } from '../../../../functions/core/model/node-pool.js';
import { wakeStaticPools } from '../../../../functions/core/sweep/static-wake.js';
import { nodePool } from '../../../builders/config.js';
import { harness, runningClaim } from '../lifecycle/harness.js';

/** The sweep's deps with `pools` as the cluster's NodePools. */
function sweepWith(h: ReturnType<typeof harness>, pools: NodePool[]) {
  return {
    ...h.sweep,
    config: async () => ({
      nodePools: pools,
      nodeClasses: [],
      nodePoolNames: new Set(pools.map((p) => p.name)),
    }),
  } as typeof h.sweep;
}

describe('the sweep wakes the provisioner for static NodePools that lack nodes', () => {
  it('publishes ConfigurationChanged for a static pool below its replicas', async () => {
    const h = harness();
    runningClaim(h, 'default-a', 'ip-a');
    const woken = await wakeStaticPools(sweepWith(h, [nodePool({ replicas: 2 })]));
    expect(woken).toEqual(['default']);
    expect(h.events.published.map((e) => [e.detailType, e.detail])).toEqual([
      ['ConfigurationChanged', { group: 'karpenter.sh', kind: 'NodePool', name: 'default' }],
    ]);
  });

  it('stays quiet for a full static pool, one at limits.nodes, and dynamic pools', async () => {
    const h = harness();
    runningClaim(h, 'default-a', 'ip-a');
    expect(await wakeStaticPools(sweepWith(h, [nodePool({ replicas: 1 })]))).toEqual([]);
    expect(await wakeStaticPools(sweepWith(h, [nodePool({ replicas: 3, limits: { nodes: 1 } })]))).toEqual(
      [],
    );
    expect(await wakeStaticPools(sweepWith(h, [nodePool()]))).toEqual([]);
    expect(h.events.published).toEqual([]);
  });
});
