/**
 * Plans from the relaxation of pattern cover by diving: solve the relaxation (column generation)
 * for the pods left, take every pattern the relaxation uses at least once as many whole times as
 * it does, or when it uses none that often, one node of the pattern it uses most; fill the room
 * those nodes leave with other pods, and repeat for the pods still left. With more branches the
 * dive becomes a search that also tries rounding up one pattern (the one with the largest
 * fractional part first) and backtracks, pruned by the relaxation's cost. The relaxation's few fractional
 * patterns leave a small rest that later rounds pack as tightly, so the plan stays close to the
 * relaxation's cost. Deterministic; the work is charged to a budget (when it runs out, the rest is
 * packed from the columns already known).
 */
import { type Column, relax } from './column-generation.js';
import {
  type CoverNode,
  type CoverPlan,
  type CoverProblem,
  cheapestHolding,
  construct,
} from './pattern-cover.js';
import type { WorkBudget } from './work-budget.js';

/** Moves a dive tries per relaxation (a search that backtracks when more than one). */
export const DIVE_BRANCHES = 3;

/** One plan of a dive and the columns its relaxations generated (to start the next dive from). */
export interface Dive {
  readonly plan: CoverPlan;
  readonly columns: Column[];
  readonly proven: boolean;
  /** The first relaxation's dual prices (feasible for every pattern of these pods when `proven`). */
  readonly duals: Float64Array;
}

/**
 * Fills the room a node of type `t` holding `counts` leaves with pods from `left` (same family,
 * allowed on `t`), most valuable per share of the room first. Updates `counts` and `left`.
 */
function fillRoom(p: CoverProblem, t: number, counts: Int32Array, left: Int32Array, y: Float64Array): void {
  const alloc = p.types[t].alloc;
  const room = Float64Array.from(alloc);
  let family = -1;
  counts.forEach((c, gi) => {
    if (c === 0) return;
    family = p.groups[gi].family;
    const v = p.groups[gi].vec;
    for (let d = 0; d < room.length; d++) room[d] -= c * v[d];
  });
  for (;;) {
    let best = -1;
    let bestScore = -1;
    for (let gi = 0; gi < p.groups.length; gi++) {
      const g = p.groups[gi];
      if (left[gi] === 0 || !g.allowed[t] || (family >= 0 && g.family !== family)) continue;
      let share = 1e-12;
      let fits = true;
      for (let d = 0; d < room.length; d++) {
        if (g.vec[d] > room[d]) fits = false;
        else if (alloc[d] > 0) share += g.vec[d] / alloc[d];
      }
      if (!fits) continue;
      const score = (y[gi] + 1e-9) / share;
      if (score > bestScore) {
        best = gi;
        bestScore = score;
      }
    }
    if (best < 0) return;
    const v = p.groups[best].vec;
    for (let d = 0; d < room.length; d++) room[d] -= v[d];
    counts[best]++;
    left[best]--;
    family = p.groups[best].family;
  }
}

/** Adds a node for `column` (capped to the pods left, its room filled), or false when it holds none. */
function take(
  p: CoverProblem,
  column: Column,
  left: Int32Array,
  y: Float64Array,
  nodes: CoverNode[],
): boolean {
  const counts = Int32Array.from(column.counts, (n, gi) => Math.min(n, left[gi]));
  if (counts.every((c) => c === 0)) return false;
  counts.forEach((c, gi) => {
    left[gi] -= c;
  });
  fillRoom(p, column.type, counts, left, y);
  const type = cheapestHolding(p, counts);
  nodes.push({ type: type < 0 ? column.type : type, counts });
  return true;
}

/** How a dive searches. */
export interface DiveOptions {
  /** Pods to plan per group (default: all). */
  readonly demand?: Int32Array;
  /** Columns to start the relaxations from. */
  readonly start?: readonly Column[];
  /**
   * Moves tried per relaxation (1: a plain dive). More make it a search that backtracks, pruned
   * by the relaxation's bound, within the budget.
   */
  readonly branches?: number;
  /** Only plans cheaper than this are wanted (the search prunes against it). */
  readonly below?: number;
}

interface State {
  readonly left: Int32Array;
  readonly nodes: CoverNode[];
  readonly cost: number;
}

/**
 * The cheapest plan a dive (or, with `branches` > 1, a search of dives) finds for the pods of
 * `demand`; undefined when some pod fits no type or no plan is cheaper than `below`.
 */
export function lpDive(p: CoverProblem, budget: WorkBudget, options: DiveOptions = {}): Dive | undefined {
  const branches = options.branches ?? 1;
  const demand = options.demand ?? Int32Array.from(p.groups, (g) => g.count);
  let columns: Column[] = [...(options.start ?? [])];
  let best: CoverNode[] | undefined;
  let bestCost = options.below ?? Number.POSITIVE_INFINITY;
  let proven = false;
  let duals: Float64Array = new Float64Array(p.groups.length);
  let infeasible = false;
  let first = true;
  const record = (nodes: CoverNode[], cost: number) => {
    if (cost < bestCost - 1e-9) {
      best = nodes;
      bestCost = cost;
    }
  };
  const greedyRest = (s: State) => {
    const rest = construct(
      p,
      Float64Array.from(p.groups, () => 1),
      s.left,
    );
    if (!rest) infeasible = true;
    else record([...s.nodes, ...rest.nodes], s.cost + rest.cost);
  };
  const walk = (s: State): void => {
    if (infeasible) return;
    if (!s.left.some((n) => n > 0)) {
      record(s.nodes, s.cost);
      return;
    }
    // Without budget left, the relaxation only re-solves over the columns known (no pricing).
    const relaxation = relax(p, s.left, columns, budget);
    if (!relaxation) {
      greedyRest(s);
      return;
    }
    if (first) {
      proven = relaxation.proven;
      duals = relaxation.lp.y;
      first = false;
    }
    columns = relaxation.columns;
    const { x, y } = relaxation.lp;
    if (s.cost + relaxation.lp.cost >= bestCost - 1e-9) return;
    const cols = relaxation.columns;
    // Moves: every column its whole number of times (when any is used whole), then, by largest
    // fractional part, one column rounded up (its whole number of times and once more).
    const moves: number[] = [];
    if (x.some((v) => v >= 1 - 1e-7)) moves.push(-1);
    const fractional = [...x.keys()]
      .filter((j) => x[j] - Math.floor(x[j] + 1e-7) > 1e-7)
      .sort((a, b) => frac(x[b]) - frac(x[a]) || a - b);
    moves.push(...fractional);
    for (const move of moves.slice(0, branches)) {
      if (infeasible || (best !== undefined && !budget.open)) return;
      const left = Int32Array.from(s.left);
      const nodes = [...s.nodes];
      if (move < 0) {
        for (let j = 0; j < x.length; j++) {
          const whole = Math.floor(x[j] + 1e-7);
          for (let k = 0; k < whole; k++) take(p, cols[j], left, y, nodes);
        }
      } else {
        const times = Math.floor(x[move] + 1e-7) + 1;
        for (let k = 0; k < times; k++) take(p, cols[move], left, y, nodes);
      }
      if (nodes.length === s.nodes.length) continue;
      walk({ left, nodes, cost: s.cost + costOf(p, nodes, s.nodes.length) });
    }
  };
  walk({ left: Int32Array.from(demand), nodes: [], cost: 0 });
  if (infeasible || !best) return undefined;
  return { plan: { nodes: best, cost: bestCost }, columns, proven, duals };
}

/** The fractional part of a relaxation value. */
function frac(v: number): number {
  return v - Math.floor(v + 1e-7);
}

function costOf(p: CoverProblem, nodes: readonly CoverNode[], from: number): number {
  let c = 0;
  for (let i = from; i < nodes.length; i++) c += p.types[nodes[i].type].price;
  return c;
}
