/**
 * The pattern model's linear relaxation by column generation (Gilmore and Gomory), for packing
 * problems whose maximal patterns are too many to enumerate. A restricted master LP over a few
 * patterns gives the demand rows' duals; for each instance type a bounded knapsack then finds the
 * pattern of most dual value that one node holds, and a pattern worth more than its node's price
 * joins the master. When no type has such a pattern the master's value is the relaxation's optimum,
 * a lower bound of every packing that is usually within a few percent of the optimum (far tighter
 * than the aggregate relaxation). When the time runs out first, Farley's bound still holds: with
 * `theta` the least price / best-pattern-value ratio over the types, `theta * duals` is feasible
 * for the dual of the whole model, so `theta * master value` is a lower bound.
 *
 * Memory is the patterns generated (a few per type and iteration), not nodes x types x shapes.
 * Benchmark only.
 */
import { gridKnapsackBound } from './knapsack-bound.js';
import type { MilpPattern, MilpShape, MilpType } from './milp-optimum.js';

/** How many of shape `s` one node of type `t` holds (0 when the shape may not use the type). */
export function fitsOne(t: MilpType, s: MilpShape): number {
  if (s.allowed && !s.allowed.has(t.name)) return 0;
  let n = Number.POSITIVE_INFINITY;
  for (let d = 0; d < t.alloc.length; d++)
    if (s.requests[d] > 0) n = Math.min(n, Math.floor(t.alloc[d] / s.requests[d] + 1e-9));
  return Math.min(n, s.count);
}

/** An LP solve: the optimum and the rows' duals in the order the rows were written. */
export type LpSolver = (lp: string) => Promise<{ readonly value: number; readonly rowDual: Float64Array }>;

/** The relaxation's result. */
export interface ColumnGeneration {
  /** A proven lower bound of every packing. */
  readonly bound: number;
  /** True when pricing proved no better pattern exists: `bound` is the relaxation's optimum. */
  readonly converged: boolean;
  /** The patterns generated (usable for an integer solve over them: a feasible packing). */
  readonly patterns: readonly MilpPattern[];
  readonly iterations: number;
}

/** Knapsack search steps per pricing at most; past them the surrogate bound is used. */
const PRICING_STEPS = 10_000;
/** Grid step of the surrogate weights (per resource, summing to 1). */
const SURROGATE_STEP = 0.05;

/**
 * The pattern of type `t` with the most dual value, and an upper bound of that value (equal to it
 * when the search finished). Branch and bound over the shapes, most value per room first, bounded
 * per resource by the room left times the best value-per-unit ratio of the shapes left.
 */
export function pricePattern(
  t: MilpType,
  shapes: readonly MilpShape[],
  duals: readonly number[],
  maxSteps = PRICING_STEPS,
): { counts: number[]; value: number; upper: number } {
  const dims = t.alloc.length;
  const order = shapes
    .map((_, si) => si)
    .filter((si) => duals[si] > 1e-12 && fitsOne(t, shapes[si]) > 0)
    .sort((a, b) => density(t, shapes[b], duals[b]) - density(t, shapes[a], duals[a]) || a - b);
  // suffix[k][d]: the best value per unit of resource d among order[k..] (Infinity: one uses none).
  const suffix = Array.from({ length: order.length + 1 }, () => new Array<number>(dims).fill(0));
  for (let k = order.length - 1; k >= 0; k--) {
    const s = shapes[order[k]];
    for (let d = 0; d < dims; d++) {
      const ratio = s.requests[d] > 0 ? duals[order[k]] / s.requests[d] : Number.POSITIVE_INFINITY;
      suffix[k][d] = Math.max(suffix[k + 1][d], ratio);
    }
  }
  const room = [...t.alloc];
  const counts = new Array<number>(shapes.length).fill(0);
  const bestCounts = [...counts];
  const root = surrogate(t, shapes, duals);
  const bound = (k: number) => {
    let b = Number.POSITIVE_INFINITY;
    for (let d = 0; d < dims; d++) b = Math.min(b, Math.max(0, room[d]) * suffix[k][d]);
    if (b <= best) return b;
    const rest = order
      .slice(k)
      .map((si) => ({ s: shapes[si], dual: duals[si], most: fitsOne(t, shapes[si]) }));
    return Math.min(b, fractional(room, rest, root.weights));
  };
  let best = 0;
  let steps = 0;
  let cut = false;
  const walk = (k: number, value: number): void => {
    if (value > best + 1e-12) {
      best = value;
      bestCounts.splice(0, bestCounts.length, ...counts);
    }
    if (k === order.length || value + bound(k) <= best + 1e-12) return;
    if (++steps > maxSteps) {
      cut = true;
      return;
    }
    const si = order[k];
    const s = shapes[si];
    let most = fitsOne(t, s);
    for (let d = 0; d < dims; d++)
      if (s.requests[d] > 0) most = Math.min(most, Math.floor(room[d] / s.requests[d] + 1e-9));
    for (let n = Math.max(0, most); n >= 0 && !cut; n--) {
      for (let d = 0; d < dims; d++) room[d] -= n * s.requests[d];
      counts[si] = n;
      walk(k + 1, value + n * duals[si]);
      counts[si] = 0;
      for (let d = 0; d < dims; d++) room[d] += n * s.requests[d];
    }
  };
  walk(0, 0);
  if (!cut) return { counts: bestCounts, value: best, upper: best };
  return { counts: bestCounts, value: best, upper: Math.max(best, root.value) };
}

/**
 * An upper bound of the knapsack's value, and the weights that gave it: for weights w (w >= 0,
 * summing to 1) over the resources, every pattern also meets the one constraint
 * sum_d w_d * load_d / alloc_d <= 1, whose fractional knapsack (best value per weight first, each
 * shape up to what one node holds) bounds the value. The least of these over a grid of weights.
 */
export function surrogate(
  t: MilpType,
  shapes: readonly MilpShape[],
  duals: readonly number[],
): { value: number; weights: number[] } {
  const dims = t.alloc.length;
  let least = { value: Number.POSITIVE_INFINITY, weights: new Array<number>(dims).fill(1 / dims) };
  const steps = Math.round(1 / SURROGATE_STEP);
  const w = new Array<number>(dims).fill(0);
  const items = shapes
    .map((s, si) => ({ s, dual: duals[si], most: fitsOne(t, s) }))
    .filter((x) => x.dual > 0 && x.most > 0);
  const visit = (d: number, left: number): void => {
    if (d === dims - 1) {
      w[d] = left / steps;
      const value = fractional(t.alloc, items, w);
      if (value < least.value) least = { value, weights: [...w] };
      return;
    }
    for (let k = 0; k <= left; k++) {
      w[d] = k / steps;
      visit(d + 1, left - k);
    }
  };
  visit(0, steps);
  return least;
}

/** The fractional knapsack of `items` in `room` under the surrogate constraint of weights `w`. */
function fractional(
  room: readonly number[],
  items: readonly { s: MilpShape; dual: number; most: number }[],
  w: readonly number[],
): number {
  const weighted: { dual: number; most: number; weight: number }[] = [];
  for (const x of items) {
    if (x.dual <= 0 || x.most <= 0) continue;
    let weight = 0;
    let fits = true;
    for (let d = 0; d < w.length && fits; d++) {
      if (x.s.requests[d] <= 0) continue;
      if (room[d] < x.s.requests[d] - 1e-9) fits = false;
      else weight += (w[d] * x.s.requests[d]) / room[d];
    }
    if (!fits) continue;
    if (weight <= 0) return Number.POSITIVE_INFINITY;
    weighted.push({ dual: x.dual, most: x.most, weight });
  }
  weighted.sort((a, b) => b.dual / b.weight - a.dual / a.weight);
  let left = 1;
  let value = 0;
  for (const x of weighted) {
    const n = Math.min(x.most, left / x.weight);
    value += n * x.dual;
    left -= n * x.weight;
    if (left <= 0) break;
  }
  return value;
}

/** Dual value per share of the node a pod of the shape takes (its largest resource share). */
function density(t: MilpType, s: MilpShape, dual: number): number {
  let share = 0;
  for (let d = 0; d < t.alloc.length; d++) share = Math.max(share, s.requests[d] / t.alloc[d]);
  return share > 0 ? dual / share : Number.POSITIVE_INFINITY;
}

/** The restricted master LP in CPLEX LP format: demand rows first, in shape order. */
function masterLp(
  types: readonly MilpType[],
  shapes: readonly MilpShape[],
  patterns: readonly MilpPattern[],
) {
  const obj: string[] = [];
  const demand: string[][] = shapes.map(() => []);
  patterns.forEach((p, pi) => {
    obj.push(`${types[p.type].price} x_${pi}`);
    p.counts.forEach((c, si) => {
      if (c > 0) demand[si].push(`${c} x_${pi}`);
    });
  });
  const rows = shapes.map((s, si) => ` d_${si}: ${demand[si].join(' + ')} >= ${s.count}`);
  return ['Minimize', ` cost: ${obj.join(' + ')}`, 'Subject To', ...rows, 'End'].join('\n');
}

/** One pattern per shape: as many of its pods as the cheapest type holding it takes. */
function startingPatterns(
  types: readonly MilpType[],
  shapes: readonly MilpShape[],
): MilpPattern[] | undefined {
  const out: MilpPattern[] = [];
  for (const [si, s] of shapes.entries()) {
    let pick = -1;
    for (const [ti, t] of types.entries())
      if (fitsOne(t, s) > 0 && (pick < 0 || t.price < types[pick].price)) pick = ti;
    if (pick < 0) return undefined;
    const counts = new Array<number>(shapes.length).fill(0);
    counts[si] = fitsOne(types[pick], s);
    out.push({ type: pick, counts });
  }
  return out;
}

/**
 * Column generation until no type prices out or `deadline` (performance.now() ms) passes. Each
 * round prices every type with a short knapsack search; when that finds no pattern worth more than
 * its node, the types are priced exactly (the grid bound of knapsack-bound.ts, else the search's own
 * bound) and searched longer where a better pattern may still exist. Returns undefined when a shape
 * fits no type (no packing exists).
 */
export async function columnGeneration(
  types: readonly MilpType[],
  shapes: readonly MilpShape[],
  solveLp: LpSolver,
  deadline: number,
): Promise<ColumnGeneration | undefined> {
  const patterns = startingPatterns(types, shapes);
  if (!patterns) return undefined;
  const seen = new Set(patterns.map(key));
  const add = (type: number, counts: number[]): boolean => {
    const pattern = { type, counts };
    if (seen.has(key(pattern))) return false;
    seen.add(key(pattern));
    patterns.push(pattern);
    return true;
  };
  let iterations = 0;
  for (;;) {
    iterations++;
    const { value, rowDual } = await solveLp(masterLp(types, shapes, patterns));
    const duals = shapes.map((_, si) => Math.max(0, rowDual[si] ?? 0));
    const late = performance.now() > deadline;
    let added = 0;
    const priced = types.map((t, ti) => {
      const found = pricePattern(t, shapes, duals, late ? 0 : PRICING_STEPS);
      if (!late && found.value > t.price * (1 + 1e-9) && add(ti, found.counts)) added++;
      return found;
    });
    if (added > 0) continue;
    let theta = 1;
    for (const [ti, t] of types.entries()) {
      const found = priced[ti];
      let upper = found.upper;
      if (upper > found.value) {
        const most = shapes.map((sh) => fitsOne(t, sh));
        upper = Math.min(upper, Math.max(found.value, gridKnapsackBound(t, shapes, duals, most) ?? upper));
      }
      if (!late && upper > t.price * (1 + 1e-9)) {
        const deeper = pricePattern(t, shapes, duals, PRICING_STEPS * 50);
        if (deeper.value > t.price * (1 + 1e-9) && add(ti, deeper.counts)) added++;
        upper = Math.min(upper, deeper.upper);
      }
      if (upper > 0) theta = Math.min(theta, t.price / upper);
    }
    if (added > 0) continue;
    return { bound: value * theta * (1 - 1e-9), converged: theta >= 1 - 1e-9, patterns, iterations };
  }
}

function key(p: MilpPattern): string {
  return `${p.type}:${p.counts.join(',')}`;
}
