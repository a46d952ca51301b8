import { describe, expect, it } from 'vitest';
import { exactCover } from '../../../../functions/core/scheduling/cover-exact.js';
import { WorkBudget } from '../../../../functions/core/scheduling/work-budget.js';
import { checkPlan, optimum, problem, randomProblem, seeded } from './cover-oracle.js';

describe('exact pattern cover', () => {
  it('finds the optimum of small random problems', () => {
    const random = seeded(5);
    for (let n = 0; n < 300; n++) {
      const p = randomProblem(random);
      const best = optimum(p);
      const found = exactCover(
        p,
        Int32Array.from(p.groups, (g) => g.count),
        new WorkBudget(1e7),
      );
      expect(found.complete).toBe(true);
      if (!Number.isFinite(best)) {
        expect(found.plan).toBeUndefined();
        continue;
      }
      expect(found.plan).toBeDefined();
      expect(checkPlan(p, found.plan!.nodes)).toBeCloseTo(found.plan!.cost, 9);
      expect(found.plan!.cost).toBeCloseTo(best, 9);
    }
  });

  it('mixes sizes where one size for all costs more', () => {
    // Sizes 4, 2 and 1 priced in proportion; pods of 3 and 1: 3 + 1 share a 4, the last 3 needs a 4.
    const p = problem(
      [
        [4, 16, 0.4],
        [2, 8, 0.2],
        [1, 4, 0.1],
      ],
      [
        [3, 1, 2],
        [1, 1, 1],
      ],
    );
    const found = exactCover(p, Int32Array.from([2, 1]), new WorkBudget(1e6));
    expect(found.plan?.cost).toBeCloseTo(0.8, 9);
  });

  it('plans one group by dynamic programming, however many pods', () => {
    // 100 pods of 1 cpu: 3-cpu nodes at 0.25 beat 8-cpu nodes at 0.7 except for the tail.
    const p = problem(
      [
        [3, 64, 0.25],
        [8, 64, 0.7],
        [1, 64, 0.1],
      ],
      [[1, 1, 100]],
    );
    const found = exactCover(p, Int32Array.from([100]), new WorkBudget(1e6));
    expect(found.complete).toBe(true);
    // 33 x 3 cpu and one 1-cpu node: 33 x 0.25 + 0.1.
    expect(found.plan?.cost).toBeCloseTo(8.35, 9);
    checkPlan(p, found.plan!.nodes);
  });

  it('only answers plans cheaper than the limit, and says when it stopped early', () => {
    const random = seeded(9);
    const p = randomProblem(random);
    const best = optimum(p);
    const demand = Int32Array.from(p.groups, (g) => g.count);
    const none = exactCover(p, demand, new WorkBudget(1e7), best);
    expect(none.plan).toBeUndefined();
    expect(none.complete).toBe(true);
    const stopped = exactCover(
      problem(
        [
          [8, 8, 1],
          [4, 4, 0.55],
          [2, 2, 0.3],
        ],
        [
          [1, 1, 9],
          [2, 1, 9],
          [1, 2, 9],
        ],
      ),
      Int32Array.from([9, 9, 9]),
      new WorkBudget(5),
    );
    expect(stopped.complete).toBe(false);
  });
});
