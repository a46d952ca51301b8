import { describe, expect, it } from 'vitest';
import { measureCase } from '../../../bench/consolidation.js';

describe('consolidation benchmark', () => {
  it('runs its tiniest size: moves found, none leaves a pod without a place', async () => {
    // The MILP stops once optimal (well under a second here); 10 s of wall time leaves room for a
    // loaded machine, where a 1 s limit ended it with no bound.
    const r = await measureCase(20, 0.75, 1, 10);
    expect(r.milpCost).toBeGreaterThan(0);
    expect(r.nodes).toBeGreaterThan(5);
    expect(r.moveNodes).toBeGreaterThan(0);
    for (const loop of r.loops) {
      expect(loop.badDecisions).toBe(0);
      expect(loop.capped).toBe(false);
      expect(loop.cutSearches).toBe(0);
      expect(loop.cpuSeconds).toBeGreaterThan(0);
      expect(Object.values(loop.kinds).reduce((a, b) => a + b, 0)).toBe(loop.moves);
      expect(loop.nodesAfter).toBeLessThan(loop.nodesBefore);
      expect(loop.costAfter).toBeLessThanOrEqual(loop.costBefore);
    }
  }, 60_000);
});
