/**
 * Pricing for column generation: the pattern of one node type worth the most under per-group
 * values `y` (a bounded multi-resource knapsack: at most `left[g]` pods of group g, one family per
 * node), by depth-first search over the groups in order of value per size, with pruning by a
 * per-resource bound (fractional knapsack over each resource alone). Its first pattern is the
 * greedy one; exact unless the search runs out of its step allowance, when it answers the best
 * pattern found so far. Pure and deterministic.
 */
import type { CoverProblem } from './pattern-cover.js';
import type { WorkBudget } from './work-budget.js';

/** The best pattern found for a type, its value, and whether the search was complete. */
export interface Priced {
  readonly counts: Int32Array;
  readonly value: number;
  readonly exact: boolean;
}

/** Search steps allowed per type and family by default. */
const STEPS_PER_SEARCH = 4000;

/** How many of `size` fit in `room` (exact comparisons, as claims check them). */
export function fitting(room: number, size: number): number {
  let n = Math.floor(room / size);
  while (n > 0 && n * size > room) n--;
  while ((n + 1) * size <= room) n++;
  return Math.max(0, n);
}

/**
 * An upper bound of the value one node of type `t` can hold (its room in each resource at the
 * best value per unit of that resource, and the value of all pods left): a type whose bound does
 * not exceed its price needs no search.
 */
export function valueBound(
  p: CoverProblem,
  t: number,
  y: Float64Array,
  left: Int32Array,
  family: number,
): number {
  const alloc = p.types[t].alloc;
  let total = 0;
  let bound = Number.POSITIVE_INFINITY;
  for (let d = 0; d < alloc.length; d++) {
    let ratio = 0;
    for (let gi = 0; gi < p.groups.length; gi++) {
      const g = p.groups[gi];
      if (left[gi] <= 0 || y[gi] <= 0 || !g.allowed[t] || (family >= 0 && g.family !== family)) continue;
      if (d === 0) total += y[gi] * left[gi];
      const v = g.vec[d];
      ratio = Math.max(ratio, v > 0 ? y[gi] / v : Number.POSITIVE_INFINITY);
    }
    if (ratio < Number.POSITIVE_INFINITY) bound = Math.min(bound, ratio * alloc[d]);
  }
  return Math.min(bound, total);
}

/** The state of one pricing search. */
class Search {
  readonly room: Float64Array;
  readonly counts: Int32Array;
  readonly best: Int32Array;
  bestValue = 0;
  steps = 0;
  complete = true;

  constructor(
    readonly p: CoverProblem,
    readonly y: Float64Array,
    readonly left: Int32Array,
    readonly order: readonly number[],
    /** Per resource, positions in `order` by value per unit of that resource, best first. */
    readonly byRatio: readonly Int32Array[],
    /** Value of all pods left of the groups from position k on. */
    readonly total: Float64Array,
    alloc: Float64Array,
    readonly maxSteps: number,
    readonly budget: WorkBudget,
  ) {
    this.room = Float64Array.from(alloc);
    this.counts = new Int32Array(p.groups.length);
    this.best = new Int32Array(p.groups.length);
  }

  bound(k: number): number {
    let b = this.total[k];
    const { room, order, p, y, left } = this;
    for (let d = 0; d < room.length && b > 0; d++) {
      let cap = room[d];
      let sum = 0;
      for (const j of this.byRatio[d]) {
        if (j < k) continue;
        const gi = order[j];
        const v = p.groups[gi].vec[d];
        const most = left[gi];
        if (v <= 0) sum += y[gi] * most;
        else if (v * most <= cap) {
          cap -= v * most;
          sum += y[gi] * most;
        } else {
          sum += (y[gi] * cap) / v;
          break;
        }
        if (sum >= b) break;
      }
      if (sum < b) b = sum;
    }
    return b;
  }

  walk(k: number, value: number): void {
    if (value > this.bestValue + 1e-12) {
      this.bestValue = value;
      this.best.set(this.counts);
    }
    const n = this.order.length;
    if (k === n || value + this.bound(k) <= this.bestValue + 1e-12) return;
    if (++this.steps > this.maxSteps || !this.budget.spend()) {
      this.complete = false;
      return;
    }
    const gi = this.order[k];
    const v = this.p.groups[gi].vec;
    const room = this.room;
    let most = this.left[gi];
    for (let d = 0; d < room.length; d++) if (v[d] > 0) most = Math.min(most, fitting(room[d], v[d]));
    // The last group takes all that fits: fewer pods of it are never worth more.
    const fewest = k === n - 1 ? most : 0;
    const w = this.y[gi];
    for (let c = most; c >= fewest && this.complete; c--) {
      this.counts[gi] = c;
      for (let d = 0; d < room.length; d++) room[d] -= c * v[d];
      this.walk(k + 1, value + c * w);
      for (let d = 0; d < room.length; d++) room[d] += c * v[d];
    }
    this.counts[gi] = 0;
  }
}

/**
 * The most valuable pattern of type `t` with pods of family `family` (all families when -1, for
 * problems with one family), at most `left` pods per group. Every search step is charged to `budget`.
 * Undefined only when the search proves that no pattern has value.
 */
export function pricePattern(
  p: CoverProblem,
  t: number,
  y: Float64Array,
  left: Int32Array,
  family: number,
  budget: WorkBudget,
  maxSteps = STEPS_PER_SEARCH,
): Priced | undefined {
  const alloc = p.types[t].alloc;
  const dims = alloc.length;
  const order: number[] = [];
  const density = new Float64Array(p.groups.length);
  for (let gi = 0; gi < p.groups.length; gi++) {
    const g = p.groups[gi];
    if (left[gi] <= 0 || y[gi] <= 1e-12 || !g.allowed[t] || (family >= 0 && g.family !== family)) continue;
    let share = 0;
    let fits = true;
    for (let d = 0; d < dims; d++) {
      if (g.vec[d] > alloc[d]) fits = false;
      else if (alloc[d] > 0) share += g.vec[d] / alloc[d];
    }
    if (!fits) continue;
    order.push(gi);
    density[gi] = y[gi] / Math.max(share, 1e-12);
  }
  if (order.length === 0) return undefined;
  order.sort((a, b) => density[b] - density[a] || a - b);
  const n = order.length;
  const byRatio: Int32Array[] = [];
  const ratio = new Float64Array(n);
  for (let d = 0; d < dims; d++) {
    for (let k = 0; k < n; k++) {
      const v = p.groups[order[k]].vec[d];
      ratio[k] = v > 0 ? y[order[k]] / v : Number.POSITIVE_INFINITY;
    }
    byRatio.push(Int32Array.from({ length: n }, (_, k) => k).sort((a, b) => ratio[b] - ratio[a] || a - b));
  }
  const total = new Float64Array(n + 1);
  for (let k = n - 1; k >= 0; k--) total[k] = total[k + 1] + y[order[k]] * left[order[k]];
  const search = new Search(p, y, left, order, byRatio, total, alloc, maxSteps, budget);
  search.walk(0, 0);
  // No pattern of value, found by a search that ended early, proves nothing about this type.
  if (search.bestValue <= 0 && search.complete) return undefined;
  return { counts: search.best, value: search.bestValue, exact: search.complete };
}
