/**
 * The plan for a pattern-cover problem within a work budget: exactly (branch and bound, or dynamic
 * programming for one group) when the pods are few; else two starts — a branching dive from the
 * linear relaxation and the greedy cover (from the relaxation's dual prices, then from size-based
 * weights) — each improved by neighbourhood search on half of what is left,
 * the cheaper result winning. The starts fail in different ways (the dive where the relaxation
 * rounds badly, the greedy cover where leftovers pile up), so together they are more robust than
 * twice the search from one. Pure and deterministic for a given budget.
 */
import { EXACT_PODS, exactCover } from './cover-exact.js';
import { diveNeighbourhoods } from './dive-neighbourhood.js';
import { DIVE_BRANCHES, lpDive } from './lp-dive.js';
import { type CoverPlan, type CoverProblem, greedyCover } from './pattern-cover.js';
import type { WorkBudget } from './work-budget.js';

/** Share of the budget the exact search may use before the other steps take over. */
const EXACT_SHARE = 0.5;
/** Shares of the budget left for the dive and for the greedy cover. */
const DIVE_SHARE = 0.3;
const GREEDY_SHARE = 0.3;
/** Value-correction rounds of the greedy cover per start. */
const GREEDY_ROUNDS = 1;

function cheaper(a: CoverPlan | undefined, b: CoverPlan | undefined): CoverPlan | undefined {
  if (!a) return b;
  return b && b.cost < a.cost - 1e-9 ? b : a;
}

/** The cheapest plan found within the budget, or undefined when some pod fits no type. */
export function planCover(p: CoverProblem, budget: WorkBudget): CoverPlan | undefined {
  const demand = Int32Array.from(p.groups, (g) => g.count);
  const pods = demand.reduce((s, n) => s + n, 0);
  const groups = demand.filter((n) => n > 0).length;
  let exact: CoverPlan | undefined;
  if (pods <= EXACT_PODS || groups === 1) {
    const found = exactCover(p, demand, budget.share(budget.remaining * EXACT_SHARE));
    if (found.complete && found.plan) return found.plan;
    exact = found.plan;
  }
  const dive = lpDive(p, budget.share(budget.remaining * DIVE_SHARE), { branches: DIVE_BRANCHES });
  if (!dive) return exact;
  const greedy = greedyCover(p, GREEDY_ROUNDS, budget.share(budget.remaining * GREEDY_SHARE), dive.duals);
  let best = cheaper(exact, diveNeighbourhoods(p, dive, budget.share(budget.remaining / 2)));
  if (greedy) best = cheaper(best, diveNeighbourhoods(p, { ...dive, plan: greedy }, budget));
  return best;
}
