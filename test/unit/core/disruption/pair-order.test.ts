import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../../../functions/core/disruption/consolidation/candidates.js';
import { pairOrder } from '../../../../functions/core/disruption/consolidation/pair-order.js';
import type { SchedulingPool } from '../../../../functions/core/scheduling/types.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';
import { instanceType } from '../scheduling/fixtures.js';

const ON_DEMAND = { key: 'karpenter.sh/capacity-type', operator: 'In' as const, values: ['on-demand'] };

function pool(onDemandOnly = true): SchedulingPool {
  return {
    pool: nodePool(onDemandOnly ? { requirements: [ON_DEMAND] } : {}),
    nodeClass: nodeClass(),
    // Allocatable: large 1900m, xlarge 3900m, 2xlarge 7900m.
    instanceTypes: [
      instanceType('c.large', 2, 4, 0.085),
      instanceType('c.xlarge', 4, 8, 0.15),
      instanceType('c.2xlarge', 8, 16, 0.34),
    ],
  };
}

/** A candidate node of `price` whose pods request `cpus` (millicores each). */
function candidate(name: string, price: number, cpus: number[], capacityType = 'on-demand'): Candidate {
  const p = nodePool({ requirements: [ON_DEMAND] });
  return {
    claim: { id: name, instance: { capacityType } },
    node: { metadata: { name } },
    pool: p,
    pods: cpus.map((m, k) => pod({ name: `${name}-${k}`, requests: { cpu: `${m}m`, memory: '128Mi' } })),
    price,
    cost: cpus.length,
  } as unknown as Candidate;
}

describe('pair order', () => {
  it('tries first the pairs whose requests fit one node cheaper than both, most saving first, wherever they stand', () => {
    const candidates = [
      candidate('full-a', 0.15, [3500]),
      candidate('full-b', 0.15, [3500]),
      candidate('small', 0.085, [600]),
      candidate('half', 0.17, [1800]),
      candidate('pricey', 0.34, [1000]),
    ];
    const order = pairOrder(candidates, [pool()], 100, 2);
    const names = order.map(
      ([i, j]) => `${candidates[i].node.metadata.name}+${candidates[j].node.metadata.name}`,
    );
    expect(names).toEqual([
      'half+pricey', // 2.8 cpus: an xlarge, 0.51 - 0.15
      'small+pricey', // 1.6 cpus: a large, 0.425 - 0.085
      'full-a+pricey', // 4.5 cpus: a 2xlarge, 0.49 - 0.34
      'full-b+pricey',
      'small+half', // 2.4 cpus: an xlarge, 0.255 - 0.15
      // Then the head pairs the arithmetic ruled out (the first two candidates here): 7 cpus need
      // a 2xlarge, dearer than both.
      'full-a+full-b',
    ]);
  });

  it('stops at the limit', () => {
    const candidates = Array.from({ length: 30 }, (_, n) => candidate(`n${n}`, 0.085, [500]));
    const order = pairOrder(candidates, [pool()], 50);
    expect(order).toHaveLength(50);
    expect(new Set(order.map(([i, j]) => `${i}:${j}`)).size).toBe(50);
    expect(order.every(([i, j]) => i < j)).toBe(true);
  });

  it('prices a replacement of spot nodes on-demand (two spot nodes never go into one spot node)', () => {
    // Spot offerings are 40% of on-demand: an xlarge on spot (0.06) is cheaper than two spot larges
    // (0.068), on-demand (0.15) is not. So the pair scores nothing and only comes as a head pair.
    const candidates = [candidate('a', 0.034, [500], 'spot'), candidate('b', 0.034, [500], 'spot')];
    expect(pairOrder(candidates, [pool(false)], 10, 0)).toEqual([]);
    expect(pairOrder(candidates, [pool(false)], 10, 2)).toEqual([[0, 1]]);
  });

  it('uses only the capacity types the NodePool allows', () => {
    // Two larges (0.085 each) whose pods need an xlarge (0.17 on-demand, 0.068 on spot).
    const candidates = [candidate('a', 0.085, [1200]), candidate('b', 0.085, [1200])];
    const types = [instanceType('c.large', 2, 4, 0.085), instanceType('c.xlarge', 4, 8, 0.17)];
    const spotAllowed = { ...pool(false), instanceTypes: types };
    const onDemandOnly = { ...pool(true), instanceTypes: types };
    expect(pairOrder(candidates, [spotAllowed], 10, 0)).toEqual([[0, 1]]);
    expect(pairOrder(candidates, [onDemandOnly], 10, 0)).toEqual([]);
  });
});
