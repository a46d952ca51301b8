import { describe, expect, it } from 'vitest';
import { pricePattern, valueBound } from '../../../../functions/core/scheduling/pattern-pricing.js';
import { WorkBudget } from '../../../../functions/core/scheduling/work-budget.js';
import { problem, randomProblem, seeded } from './cover-oracle.js';

/** The best value of one node of type `t` by trying every pattern. */
function bruteForce(
  p: ReturnType<typeof randomProblem>,
  t: number,
  y: Float64Array,
  left: Int32Array,
): number {
  let best = 0;
  const walk = (gi: number, room: number[], value: number) => {
    if (gi === p.groups.length) {
      best = Math.max(best, value);
      return;
    }
    for (let c = 0; c <= left[gi]; c++) {
      const rest = room.map((r, d) => r - c * p.groups[gi].vec[d]);
      if (rest.some((r) => r < 0)) break;
      walk(gi + 1, rest, value + c * y[gi]);
    }
  };
  walk(0, Array.from(p.types[t].alloc), 0);
  return best;
}

describe('pattern pricing', () => {
  it('finds the most valuable pattern of each type, within its room and the pods left', () => {
    const random = seeded(11);
    for (let n = 0; n < 150; n++) {
      const p = randomProblem(random);
      const y = Float64Array.from(p.groups, () => random());
      const left = Int32Array.from(p.groups, (g) => g.count);
      for (let t = 0; t < p.types.length; t++) {
        const want = bruteForce(p, t, y, left);
        const found = pricePattern(p, t, y, left, -1, new WorkBudget(1e6));
        expect(valueBound(p, t, y, left, -1)).toBeGreaterThanOrEqual(want - 1e-9);
        if (want <= 0) {
          expect(found).toBeUndefined();
          continue;
        }
        expect(found?.exact).toBe(true);
        expect(found!.value).toBeCloseTo(want, 9);
        const counts = Array.from(found!.counts);
        expect(counts.every((c, gi) => c <= left[gi])).toBe(true);
        for (let d = 0; d < 2; d++) {
          const used = counts.reduce((s, c, gi) => s + c * p.groups[gi].vec[d], 0);
          expect(used).toBeLessThanOrEqual(p.types[t].alloc[d]);
        }
      }
    }
  });

  it('answers the best pattern so far when it runs out of steps', () => {
    // One step: the greedy choice of the first group, no search beyond it.
    const p = problem(
      [[8, 8, 1]],
      [
        [1, 1, 5],
        [2, 2, 5],
        [3, 3, 5],
      ],
    );
    const y = Float64Array.from([1, 2.2, 3.5]);
    const left = Int32Array.from([5, 5, 5]);
    const quick = pricePattern(p, 0, y, left, -1, new WorkBudget(1e6), 1);
    expect(quick?.exact).toBe(false);
    expect(quick!.value).toBeGreaterThan(0);
    const full = pricePattern(p, 0, y, left, -1, new WorkBudget(1e6));
    expect(full?.exact).toBe(true);
    expect(full!.value).toBeGreaterThanOrEqual(quick!.value);
  });

  it('a search stopped before its first step is not taken for a proof that no pattern pays', () => {
    const p = problem([[8, 8, 1]], [[1, 1, 5]]);
    const stopped = pricePattern(p, 0, Float64Array.from([1]), Int32Array.from([5]), -1, new WorkBudget(0));
    expect(stopped).toMatchObject({ value: 0, exact: false });
  });
});
