import { describe, expect, it } from 'vitest';
import { relax } from '../../../../functions/core/scheduling/column-generation.js';
import { planCover } from '../../../../functions/core/scheduling/cover-plan.js';
import { diveNeighbourhoods } from '../../../../functions/core/scheduling/dive-neighbourhood.js';
import { lpDive } from '../../../../functions/core/scheduling/lp-dive.js';
import { type CoverProblem, greedyCover } from '../../../../functions/core/scheduling/pattern-cover.js';
import { WorkBudget } from '../../../../functions/core/scheduling/work-budget.js';
import { checkPlan, optimum, problem, randomProblem, seeded } from './cover-oracle.js';

describe('pattern cover: plans', () => {
  // Resources: cpu, memory. A cpu-heavy and a memory-heavy node type, and a larger general one.
  const mixed: CoverProblem = problem(
    [
      [1, 16, 0.5],
      [4, 4, 0.6],
      [4, 16, 1],
    ],
    [
      [2, 1, 4],
      [0.5, 7, 4],
    ],
  );

  it('covers every pod once, within each node type, no dearer than one type per shape', () => {
    for (const plan of [planCover(mixed, new WorkBudget(1e5)), greedyCover(mixed, 3, new WorkBudget(1e5))]) {
      expect(plan).toBeDefined();
      expect(checkPlan(mixed, plan!.nodes)).toBeCloseTo(plan!.cost, 9);
      // Two cpu nodes for the cpu pods and two memory nodes for the memory pods: 2.2.
      expect(plan!.cost).toBeLessThanOrEqual(2.2 + 1e-9);
    }
  });

  it('finds the optimum of small random problems', () => {
    const random = seeded(21);
    for (let n = 0; n < 100; n++) {
      const p = randomProblem(random);
      const best = optimum(p);
      const plan = planCover(p, new WorkBudget(1e5));
      if (!Number.isFinite(best)) {
        expect(plan).toBeUndefined();
        continue;
      }
      expect(checkPlan(p, plan!.nodes)).toBeCloseTo(plan!.cost, 9);
      expect(plan!.cost).toBeCloseTo(best, 9);
    }
  });

  it('drops a greedy plan the budget does not let it finish', () => {
    expect(greedyCover(mixed, 3, new WorkBudget(2))).toBeUndefined();
    const budget = new WorkBudget(1e5);
    expect(greedyCover(mixed, 3, budget)).toBeDefined();
    expect(budget.spent).toBeGreaterThan(2);
  });

  it('is deterministic', () => {
    const p = randomProblem(seeded(4));
    expect(planCover(p, new WorkBudget(1e5))).toEqual(planCover(p, new WorkBudget(1e5)));
    expect(planCover(mixed, new WorkBudget(1e5))).toEqual(planCover(mixed, new WorkBudget(1e5)));
  });
});

describe('pattern cover: relaxation, dive and neighbourhoods', () => {
  // Three sizes of one instance family, the smaller ones a little dearer per unit. 72 memory-heavy
  // pods (0.1 cpu, 12 GiB) and 24 cpu pods (1 cpu, 0.5 GiB) fill two of the largest nodes at 2.0;
  // after one of them, the relaxation prefers fractions of smaller nodes for the rest (the
  // largest would hold 37 memory pods, only 35 are left), and rounding those down, then packing
  // what remains, buys 2.004.
  const family = problem(
    [
      [15.9, 450, 1],
      [7.9, 225, 0.502],
      [3.9, 112, 0.2567],
    ],
    [
      [1, 0.5, 24],
      [0.1, 12, 72],
    ],
  );

  it('proves the relaxation when pricing searched every pattern', () => {
    const r = relax(family, Int32Array.from([24, 72]), [], new WorkBudget(1e6));
    expect(r?.proven).toBe(true);
    // The relaxation is a lower bound: no plan is cheaper.
    expect(r!.lp.cost).toBeLessThanOrEqual(2 + 1e-9);
  });

  it('dives to the optimum by rounding a pattern up where rounding down leaves a dear rest', () => {
    expect(lpDive(family, new WorkBudget(1e6), { branches: 1 })?.plan.cost).toBeCloseTo(2.004, 9);
    const dive = lpDive(family, new WorkBudget(1e6), { branches: 2 });
    expect(dive).toBeDefined();
    expect(checkPlan(family, dive!.plan.nodes)).toBeCloseTo(dive!.plan.cost, 9);
    expect(dive!.plan.cost).toBeCloseTo(2, 9);
  });

  it('re-plans neighbourhoods of a poor plan down to the optimum', () => {
    const dive = lpDive(family, new WorkBudget(1e6), { branches: 1 })!;
    // The greedy cover ends with one node of each smaller size: 2.0154.
    const poor = greedyCover(family, 1, new WorkBudget(1e6))!;
    expect(poor.cost).toBeCloseTo(2.0154, 9);
    for (const start of [poor, dive.plan]) {
      const better = diveNeighbourhoods(family, { ...dive, plan: start }, new WorkBudget(1e6));
      expect(checkPlan(family, better.nodes)).toBeCloseTo(better.cost, 9);
      expect(better.cost).toBeCloseTo(2, 9);
    }
  });

  it('returns a valid plan whatever budget is left, and spends no more than it was given', () => {
    for (const units of [0, 10, 1000, 1e5]) {
      const budget = new WorkBudget(units);
      const plan = planCover(family, budget);
      expect(plan).toBeDefined();
      checkPlan(family, plan!.nodes);
      expect(budget.spent).toBeLessThanOrEqual(units);
    }
    const big = planCover(family, new WorkBudget(1e6));
    const small = planCover(family, new WorkBudget(1000));
    expect(big!.cost).toBeLessThanOrEqual(small!.cost + 1e-9);
  });
});
