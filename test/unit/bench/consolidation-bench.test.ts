import { describe, expect, it } from 'vitest';
import { measureCase } from '../../../bench/consolidation.js';

describe('consolidation benchmark', () => {
  it('runs its tiniest size: moves found, none leaves a pod without a place', async () => {
    const r = await measureCase(20, 0.75, 1, 1);
    expect(r.milpCost).toBeGreaterThan(0);
    expect(r.nodes).toBeGreaterThan(5);
    expect(r.moveNodes).toBeGreaterThan(0);
    for (const loop of r.loops) {
      expect(loop.badDecisions).toBe(0);
      expect(loop.capped).toBe(false);
      expect(loop.nodesAfter).toBeLessThan(loop.nodesBefore);
      expect(loop.costAfter).toBeLessThanOrEqual(loop.costBefore);
    }
  }, 30_000);
});
