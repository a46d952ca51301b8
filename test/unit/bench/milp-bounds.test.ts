import { describe, expect, it } from 'vitest';
import { gridKnapsackBound } from '../../../bench/lib/knapsack-bound.js';
import { columnGeneration, pricePattern, surrogate } from '../../../bench/lib/milp-colgen.js';
import {
  type MilpShape,
  type MilpType,
  maximalPatterns,
  optimumCost,
} from '../../../bench/lib/milp-optimum.js';

// Cores, GiB, pods; requests in steps of 50m and 128Mi as the benchmark's pods.
const TYPES: MilpType[] = [
  { name: 'large', alloc: [1.93, 3.04, 29], price: 0.0765 },
  { name: 'xlarge', alloc: [3.92, 6.43, 58], price: 0.153 },
  { name: 'mem-large', alloc: [1.93, 14.08, 29], price: 0.1008 },
];
const SHAPES: MilpShape[] = [
  { requests: [0.25, 0.5, 1], count: 9 },
  { requests: [1, 2, 1], count: 4 },
  { requests: [0.25, 6, 1], count: 2 },
  { requests: [0.75, 1, 1], count: 4 },
  { requests: [1.5, 1, 1], count: 3 },
];

/** The most dual value one node holds, by trying every count of every shape. */
function bruteForce(t: MilpType, duals: readonly number[]): number {
  let best = 0;
  const walk = (si: number, room: number[], value: number): void => {
    if (si === SHAPES.length) {
      best = Math.max(best, value);
      return;
    }
    const s = SHAPES[si];
    for (let n = 0; n <= s.count; n++) {
      const left = room.map((r, d) => r - n * s.requests[d]);
      if (left.some((r) => r < -1e-9)) break;
      walk(si + 1, left, value + n * duals[si]);
    }
  };
  walk(0, [...t.alloc], 0);
  return best;
}

describe('MILP bounds of the consolidation benchmark', () => {
  const duals = [0.01, 0.04, 0.05, 0.03, 0.045];

  it('prices a node exactly: the search, the grid bound and the surrogate bound against brute force', () => {
    for (const t of TYPES) {
      const exact = bruteForce(t, duals);
      const most = SHAPES.map((s) => s.count);
      expect(pricePattern(t, SHAPES, duals).value).toBeCloseTo(exact, 9);
      expect(gridKnapsackBound(t, SHAPES, duals, most)).toBeGreaterThanOrEqual(exact - 1e-9);
      expect(surrogate(t, SHAPES, duals).value).toBeGreaterThanOrEqual(exact - 1e-9);
    }
  });

  it('a search cut short still returns a valid upper bound', () => {
    for (const t of TYPES) {
      const cut = pricePattern(t, SHAPES, duals, 3);
      expect(cut.upper).toBeGreaterThanOrEqual(bruteForce(t, duals) - 1e-9);
    }
  });

  it('refuses a grid when requests have no common unit, and a shape that fits no type', async () => {
    const odd: MilpShape[] = [{ requests: [Math.PI / 10, 0.5, 1], count: 2 }];
    expect(gridKnapsackBound(TYPES[0], odd, [1], [2])).toBeDefined(); // memory and pods still have units
    const none = [{ requests: [Math.PI / 10, Math.E / 10, 1 / 3], count: 2 }];
    expect(gridKnapsackBound(TYPES[0], none, [1], [2])).toBeUndefined();
    const solve = async () => ({ value: 0, rowDual: new Float64Array() });
    const huge: MilpShape[] = [{ requests: [64, 1, 1], count: 1 }];
    expect(await columnGeneration(TYPES, huge, solve, Number.POSITIVE_INFINITY)).toBeUndefined();
  });

  it('column generation converges to a bound at or below the exact optimum', async () => {
    expect(maximalPatterns(TYPES, SHAPES)).toBeDefined();
    const exact = await optimumCost(TYPES, SHAPES, 10, 20);
    expect(exact.exact).toBe(true);
    const highs = (await import('highs')).default as unknown as () => Promise<{
      createModel: (m: { format: string; data: string }) => {
        options: { set: (o: object) => void };
        run: () => unknown;
        getObjectiveValue: () => number;
        getSolution: () => { rowDual: Float64Array };
        dispose: () => void;
      };
    }>;
    const solver = await highs();
    const solveLp = async (lp: string) => {
      const model = solver.createModel({ format: 'lp', data: lp });
      model.options.set({ output_flag: false });
      model.run();
      const out = { value: model.getObjectiveValue(), rowDual: model.getSolution().rowDual };
      model.dispose();
      return out;
    };
    const cg = await columnGeneration(TYPES, SHAPES, solveLp, Number.POSITIVE_INFINITY);
    expect(cg?.converged).toBe(true);
    expect(cg?.bound).toBeLessThanOrEqual(exact.cost + 1e-9);
    expect(cg?.bound).toBeGreaterThan(exact.cost * 0.8);
  }, 60_000);
});
