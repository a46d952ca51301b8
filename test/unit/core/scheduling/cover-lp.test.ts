import { describe, expect, it } from 'vitest';
import { type LpColumn, solveCoverLp } from '../../../../functions/core/scheduling/cover-lp.js';
import { seeded } from './cover-oracle.js';

const column = (counts: number[], price: number): LpColumn => ({ counts: Int32Array.from(counts), price });

describe('cover relaxation: revised simplex', () => {
  it('solves a small covering relaxation with its dual prices', () => {
    // min x1 + x2 + 1.5 x3 with x1 + x3 >= 2, x2 + x3 >= 3: optimum 4 (x3 = 2, x2 = 1), duals (0.5, 1).
    const lp = solveCoverLp(Int32Array.from([2, 3]), [
      column([1, 0], 1),
      column([0, 1], 1),
      column([1, 1], 1.5),
    ]);
    expect(lp).toBeDefined();
    expect(lp!.cost).toBeCloseTo(4, 9);
    expect(Array.from(lp!.x).map((v) => Number(v.toFixed(9)))).toEqual([0, 1, 2]);
    expect(lp!.y[0]).toBeCloseTo(0.5, 9);
    expect(lp!.y[1]).toBeCloseTo(1, 9);
  });

  it('needs a column holding each group with demand alone', () => {
    expect(solveCoverLp(Int32Array.from([1, 1]), [column([1, 0], 1), column([1, 1], 3)])).toBeUndefined();
    // A group without demand needs none.
    expect(solveCoverLp(Int32Array.from([2, 0]), [column([1, 0], 1)])?.cost).toBeCloseTo(2, 9);
  });

  it('is optimal on random relaxations: feasible primal, feasible duals, equal costs', () => {
    const random = seeded(7);
    for (let n = 0; n < 200; n++) {
      const groups = 1 + Math.floor(random() * 5);
      const demand = Int32Array.from({ length: groups }, () => Math.floor(random() * 30));
      const columns: LpColumn[] = [];
      for (let g = 0; g < groups; g++) {
        const counts = new Array(groups).fill(0);
        counts[g] = 1 + Math.floor(random() * 6);
        columns.push(column(counts, 0.1 + random()));
      }
      for (let j = 0; j < 3 * groups; j++) {
        const counts = Array.from({ length: groups }, () => Math.floor(random() * 4));
        if (counts.every((c) => c === 0)) continue;
        columns.push(column(counts, 0.1 + random() * 2));
      }
      const lp = solveCoverLp(demand, columns);
      expect(lp).toBeDefined();
      const { x, y, cost } = lp!;
      for (let g = 0; g < groups; g++) {
        const covered = columns.reduce((s, c, j) => s + c.counts[g] * x[j], 0);
        expect(covered).toBeGreaterThanOrEqual(demand[g] - 1e-6);
        expect(y[g]).toBeGreaterThanOrEqual(-1e-9);
      }
      for (const c of columns) {
        const value = c.counts.reduce((s, k, g) => s + k * y[g], 0);
        expect(value).toBeLessThanOrEqual(c.price + 1e-6);
      }
      expect(columns.reduce((s, c, j) => s + c.price * x[j], 0)).toBeCloseTo(cost, 6);
      expect(demand.reduce((s, d, g) => s + d * y[g], 0)).toBeCloseTo(cost, 6);
    }
  });
});
