import { describe, expect, it } from 'vitest';
import { type CoverProblem, coverPlan } from '../../../../functions/core/scheduling/pattern-cover.js';
import { dualPrices } from '../../../../functions/core/scheduling/pattern-lp.js';

describe('pattern cover: dual prices', () => {
  it('solves the dual of a small covering relaxation', () => {
    // min x1 + x2 + 1.5 x3 with x1 + x3 >= 2, x2 + x3 >= 3: optimum 4, duals (0.5, 1).
    const y = dualPrices(Int32Array.from([2, 3]), [
      { counts: Int32Array.from([1, 0]), price: 1 },
      { counts: Int32Array.from([0, 1]), price: 1 },
      { counts: Int32Array.from([1, 1]), price: 1.5 },
    ]);
    expect(y).toBeDefined();
    expect(y![0]).toBeCloseTo(0.5, 9);
    expect(y![1]).toBeCloseTo(1, 9);
  });

  it('reports an unbounded relaxation when a group has no pattern', () => {
    expect(
      dualPrices(Int32Array.from([1, 1]), [{ counts: Int32Array.from([1, 0]), price: 1 }]),
    ).toBeUndefined();
  });
});

describe('pattern cover: plans', () => {
  // Resources: cpu, memory. A cpu-heavy and a memory-heavy node type, and a larger general one.
  const types = [
    { alloc: Float64Array.from([1, 16]), price: 0.5 },
    { alloc: Float64Array.from([4, 4]), price: 0.6 },
    { alloc: Float64Array.from([4, 16]), price: 1 },
  ];
  const all = Uint8Array.from([1, 1, 1]);
  const problem: CoverProblem = {
    types,
    groups: [
      { vec: Float64Array.from([2, 1]), count: 4, family: 0, allowed: all },
      { vec: Float64Array.from([0.5, 7]), count: 4, family: 0, allowed: all },
    ],
  };

  it('covers every pod once, within each node type, no dearer than one type per shape', () => {
    const plan = coverPlan(problem, 10);
    expect(plan).toBeDefined();
    const placed = [0, 0];
    for (const node of plan!.nodes) {
      const alloc = types[node.type].alloc;
      for (let d = 0; d < 2; d++) {
        const used = problem.groups.reduce((sum, g, gi) => sum + g.vec[d] * node.counts[gi], 0);
        expect(used).toBeLessThanOrEqual(alloc[d]);
      }
      placed[0] += node.counts[0];
      placed[1] += node.counts[1];
    }
    expect(placed).toEqual([4, 4]);
    // Two cpu nodes for the cpu pods and two memory nodes for the memory pods: 2.2.
    expect(plan!.cost).toBeLessThanOrEqual(2.2 + 1e-9);
    expect(plan!.cost).toBeCloseTo(
      plan!.nodes.reduce((sum, n) => sum + types[n.type].price, 0),
      9,
    );
  });

  it('is deterministic', () => {
    expect(coverPlan(problem, 10)).toEqual(coverPlan(problem, 10));
  });
});
