import { describe, expect, it } from 'vitest';
import { withinPrice } from '../../../../functions/core/disruption/consolidation/within-price.js';
import type { PlannedNodeClaim } from '../../../../functions/core/scheduling/types.js';

/** A planned claim whose options cost `prices` (one type each). */
function claim(name: string, prices: number[]): PlannedNodeClaim {
  return {
    name,
    nodePool: 'default',
    pods: [],
    requirements: [],
    labels: {},
    taints: [],
    startupTaints: [],
    instanceTypeOptions: prices.map((price, i) => ({
      instanceType: `${name}.t${i}`,
      zone: 'zone-a',
      capacityType: 'on-demand' as const,
      price,
    })),
    requests: {},
  };
}

const prices = (claims: PlannedNodeClaim[] | undefined) =>
  claims?.map((c) => c.instanceTypeOptions.map((o) => o.price));
const dearest = (claims: PlannedNodeClaim[] | undefined) =>
  (claims ?? []).reduce((sum, c) => sum + Math.max(...c.instanceTypeOptions.map((o) => o.price)), 0);

describe('new nodes cut to cost less than what they replace', () => {
  it('one node keeps the options cheaper than the price', () => {
    expect(prices(withinPrice([claim('a', [0.1, 0.2, 0.3])], 0.25))).toEqual([[0.1, 0.2]]);
    expect(withinPrice([claim('a', [0.3])], 0.25)).toBeUndefined();
  });

  it('two nodes keep the most options whose dearest pair stays below the price', () => {
    const cut = withinPrice([claim('a', [0.1, 0.2, 0.3]), claim('b', [0.1, 0.15])], 0.36);
    expect(prices(cut)).toEqual([
      [0.1, 0.2],
      [0.1, 0.15],
    ]);
    expect(dearest(cut)).toBeLessThan(0.36);
  });

  it('three or more nodes share what their cheapest options leave below the price', () => {
    // 0.1 + 0.1 + 0.1 leaves 0.06: each keeps what costs less than its cheapest plus 0.02.
    const cut = withinPrice(
      [claim('a', [0.1, 0.11, 0.13]), claim('b', [0.1, 0.119]), claim('c', [0.1, 0.2])],
      0.36,
    );
    expect(prices(cut)).toEqual([[0.1, 0.11], [0.1, 0.119], [0.1]]);
    expect(dearest(cut)).toBeLessThan(0.36);
  });

  it('gives nothing when even the cheapest options do not save, or there are no nodes', () => {
    expect(withinPrice([claim('a', [0.1]), claim('b', [0.1]), claim('c', [0.1])], 0.3)).toBeUndefined();
    expect(withinPrice([], 1)).toBeUndefined();
  });
});
