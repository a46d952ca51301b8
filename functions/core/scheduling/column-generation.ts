/**
 * Column generation for the relaxation of pattern cover: solve the relaxation over the patterns
 * known so far, price every node type (and family) under the groups' dual prices, add the
 * patterns worth more than their node, repeat until none is (a quick, shallow search first, the
 * full one when that finds nothing). Each pattern is priced at the cheapest
 * candidate type that holds it. When every pricing search was complete, the duals are feasible for
 * all patterns and the relaxation's cost is a lower bound of any plan. Pure and deterministic.
 */
import { type LpColumn, type LpSolution, solveCoverLp } from './cover-lp.js';
import { type CoverProblem, cheapestHolding } from './pattern-cover.js';
import { pricePattern, valueBound } from './pattern-pricing.js';
import type { WorkBudget } from './work-budget.js';

/** A pattern column with the type it is priced at. */
export interface Column extends LpColumn {
  readonly type: number;
}

/** The relaxation's solution over `columns`, and whether it is proven optimal over all patterns. */
export interface Relaxation {
  readonly columns: Column[];
  readonly lp: LpSolution;
  readonly proven: boolean;
}

/** Rounds of pricing at most. */
const MAX_ROUNDS = 60;
/** Search steps per type in a quick pricing pass, and in the exact one that follows when it finds nothing. */
const QUICK_STEPS = 48;
const EXACT_STEPS = 600;

/** Work units of a relaxation solve: about a unit per thousand operations of its iterations. */
function lpWork(lp: LpSolution, columns: number, groups: number): number {
  return Math.ceil((lp.iterations * (columns + groups) * groups) / 1000);
}

function key(counts: Int32Array): string {
  return counts.join(',');
}

/** The column for `counts` at its cheapest holding type, or undefined when no type holds it. */
export function columnOf(p: CoverProblem, counts: Int32Array): Column | undefined {
  const type = cheapestHolding(p, counts);
  return type < 0 ? undefined : { counts, type, price: p.types[type].price };
}

/** For each group, the pattern of as many of its pods as fit on the type holding them most cheaply. */
export function singleGroupColumns(p: CoverProblem, demand: Int32Array): Column[] {
  const out: Column[] = [];
  p.groups.forEach((g, gi) => {
    if (demand[gi] <= 0) return;
    let best: Column | undefined;
    p.types.forEach((t, ti) => {
      if (!g.allowed[ti]) return;
      let n = demand[gi];
      for (let d = 0; d < g.vec.length; d++) {
        if (g.vec[d] <= 0) continue;
        let k = Math.floor(t.alloc[d] / g.vec[d]);
        while (k > 0 && k * g.vec[d] > t.alloc[d]) k--;
        n = Math.min(n, k);
      }
      if (n <= 0) return;
      if (best && t.price / n >= best.price / best.counts[gi]) return;
      const counts = new Int32Array(p.groups.length);
      counts[gi] = n;
      best = { counts, type: ti, price: t.price };
    });
    if (best) out.push(best);
  });
  return out;
}

/** Columns capped to `demand` (no more pods of a group than it has), re-priced, without duplicates. */
export function cappedColumns(p: CoverProblem, columns: readonly Column[], demand: Int32Array): Column[] {
  const seen = new Set<string>();
  const out: Column[] = [];
  for (const c of columns) {
    let changed = false;
    let any = false;
    const counts = Int32Array.from(c.counts, (n, gi) => {
      const m = Math.min(n, demand[gi]);
      if (m !== n) changed = true;
      if (m > 0) any = true;
      return m;
    });
    if (!any) continue;
    const k = key(counts);
    if (seen.has(k)) continue;
    seen.add(k);
    const col = changed ? columnOf(p, counts) : c;
    if (col) out.push(col);
  }
  return out;
}

/**
 * Column generation from `start` (capped to `demand`; single-group patterns are added), or
 * undefined when some pod with demand fits no type. Without budget left it only solves the
 * relaxation over the columns it starts from.
 */
export function relax(
  p: CoverProblem,
  demand: Int32Array,
  start: readonly Column[],
  budget: WorkBudget,
): Relaxation | undefined {
  const columns = cappedColumns(p, [...singleGroupColumns(p, demand), ...start], demand);
  const seen = new Set(columns.map((c) => key(c.counts)));
  const families = [...new Set(p.groups.map((g) => g.family))];
  const perFamily = families.length > 1;
  let lp = solveCoverLp(demand, columns);
  if (!lp) return undefined;
  budget.spend(lpWork(lp, columns.length, demand.length));
  const price = (steps: number) => {
    let added = 0;
    let exact = true;
    for (let t = 0; t < p.types.length; t++) {
      for (const family of perFamily ? families : [-1]) {
        if (!budget.spend()) return undefined;
        const y = lp!.y;
        if (valueBound(p, t, y, demand, family) <= p.types[t].price * (1 + 1e-9) + 1e-12) continue;
        const priced = pricePattern(p, t, y, demand, family, budget, steps);
        if (!priced) continue;
        exact &&= priced.exact;
        if (priced.value <= p.types[t].price * (1 + 1e-9) + 1e-12) continue;
        const k = key(priced.counts);
        if (seen.has(k)) continue;
        const col = columnOf(p, priced.counts);
        if (!col) continue;
        seen.add(k);
        columns.push(col);
        added++;
      }
    }
    return { added, exact };
  };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let priced = price(QUICK_STEPS);
    if (priced && priced.added === 0 && !priced.exact) priced = price(EXACT_STEPS);
    if (!priced) return { columns, lp, proven: false };
    if (priced.added === 0) return { columns, lp, proven: priced.exact };
    const next = solveCoverLp(demand, columns);
    if (!next) return { columns, lp, proven: false };
    lp = next;
    budget.spend(lpWork(lp, columns.length, demand.length));
  }
  return { columns, lp, proven: false };
}
