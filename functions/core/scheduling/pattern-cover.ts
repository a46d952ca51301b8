/**
 * Greedy set cover with value correction for variable-size vector bin packing: pods are grouped by
 * identical requests (and requirements), every node type offers patterns (how many pods of each
 * group one node holds), and the plan is built by repeatedly taking the pattern with the lowest
 * price per value covered, the value of a pod being its group's weight. After each plan the weights
 * are corrected towards what the group's pods actually cost in it (their share of their node's
 * price), so pods that ended up in expensive leftover nodes are packed earlier next time; the
 * cheapest plan wins. Pure and deterministic; abstract (no claims): the caller turns nodes into claims.
 */
import { covers } from './node-shapes.js';
import { valueBound } from './pattern-pricing.js';
import type { WorkBudget } from './work-budget.js';

/** Pods with identical requests and requirements. */
export interface CoverGroup {
  readonly vec: Float64Array;
  readonly count: number;
  /** Groups of one family may share a node (same requirements). */
  readonly family: number;
  /** Per candidate type (position in `CoverProblem.types`), whether a pod of the group may use it. */
  readonly allowed: Uint8Array;
}

/** A node type a pattern may use. */
export interface CoverType {
  readonly alloc: Float64Array;
  readonly price: number;
}

/** The groups to cover and the candidate types, cheapest first. */
export interface CoverProblem {
  readonly groups: readonly CoverGroup[];
  readonly types: readonly CoverType[];
}

/** One node of a plan: its type (a position in `types`) and how many pods of each group it holds. */
export interface CoverNode {
  readonly type: number;
  readonly counts: Int32Array;
}

/** A plan and its price. */
export interface CoverPlan {
  readonly nodes: CoverNode[];
  readonly cost: number;
}

interface Pattern {
  readonly counts: Int32Array;
  readonly type: number;
  readonly ratio: number;
}

/** Sum over resources of the share of `alloc` that `v` needs. */
function shareSum(v: Float64Array, alloc: Float64Array): number {
  let s = 0;
  for (let d = 0; d < v.length; d++) if (v[d] > 0) s += alloc[d] > 0 ? v[d] / alloc[d] : 1;
  return s;
}

/** Initial weights: the cheapest fractional price of one pod (price x largest share it needs). */
function initialWeights(p: CoverProblem): Float64Array {
  return Float64Array.from(p.groups, (g) => {
    let best = Number.POSITIVE_INFINITY;
    p.types.forEach((t, i) => {
      if (!g.allowed[i] || !covers(t.alloc, g.vec)) return;
      let share = 0;
      for (let d = 0; d < g.vec.length; d++)
        if (t.alloc[d] > 0) share = Math.max(share, g.vec[d] / t.alloc[d]);
      best = Math.min(best, t.price * share);
    });
    return Number.isFinite(best) ? best : 0;
  });
}

/** Whether `v` fits in `room`, and its weight per share of the room it takes (-1 when it does not fit). */
function density(v: Float64Array, room: Float64Array, weight: number): number {
  let share = 1e-12;
  for (let d = 0; d < v.length; d++) {
    if (v[d] <= 0) continue;
    if (v[d] > room[d]) return -1;
    share += room[d] > 0 ? v[d] / room[d] : 1;
  }
  return weight / share;
}

/** The group that best fills the room left (weight per share of the room it takes), or -1. */
function bestFiller(
  p: CoverProblem,
  t: number,
  room: Float64Array,
  left: Int32Array,
  w: Float64Array,
  family: number,
): number {
  let best = -1;
  let bestScore = 0;
  for (let gi = 0; gi < p.groups.length; gi++) {
    const g = p.groups[gi];
    if (left[gi] === 0 || !g.allowed[t] || (family >= 0 && g.family !== family)) continue;
    const score = density(g.vec, room, w[gi]);
    if (score > bestScore) {
      best = gi;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Fills one node of type `t` from the pods left: with `lead` >= 0 first as many pods of that group
 * as fit, then greedily the best filler while any fits.
 */
function fill(
  p: CoverProblem,
  t: number,
  remaining: Int32Array,
  w: Float64Array,
  lead: number,
  budget?: WorkBudget,
): Int32Array | undefined {
  const room = Float64Array.from(p.types[t].alloc);
  const left = Int32Array.from(remaining);
  const counts = new Int32Array(p.groups.length);
  let family = -1;
  const take = (gi: number) => {
    const v = p.groups[gi].vec;
    for (let d = 0; d < v.length; d++) room[d] -= v[d];
    left[gi]--;
    counts[gi]++;
    family = p.groups[gi].family;
  };
  if (lead >= 0) {
    const g = p.groups[lead];
    if (left[lead] === 0 || !g.allowed[t] || !covers(room, g.vec)) return undefined;
    while (left[lead] > 0 && covers(room, g.vec)) take(lead);
  }
  // A unit per pod chosen (per eight groups scanned for it).
  const step = Math.ceil(p.groups.length / 8);
  for (;;) {
    if (budget && !budget.spend(step)) return undefined;
    const gi = bestFiller(p, t, room, left, w, family);
    if (gi < 0) break;
    take(gi);
  }
  return family < 0 ? undefined : counts;
}

/** The cheapest candidate type that holds a pattern, or -1. */
export function cheapestHolding(p: CoverProblem, counts: Int32Array): number {
  const n = p.groups[0]?.vec.length ?? 0;
  const sum = new Float64Array(n);
  const used: number[] = [];
  for (let gi = 0; gi < counts.length; gi++) {
    if (counts[gi] === 0) continue;
    used.push(gi);
    const v = p.groups[gi].vec;
    for (let d = 0; d < n; d++) sum[d] += counts[gi] * v[d];
  }
  for (let t = 0; t < p.types.length; t++) {
    if (!covers(p.types[t].alloc, sum)) continue;
    let ok = true;
    for (const gi of used) if (p.groups[gi].allowed[t] !== 1) ok = false;
    if (ok) return t;
  }
  return -1;
}

function value(counts: Int32Array, w: Float64Array): number {
  let v = 0;
  for (let gi = 0; gi < counts.length; gi++) v += counts[gi] * w[gi];
  return v;
}

/**
 * The pattern with the lowest price per value covered, over the candidate types in order of their
 * price per most value they could hold, until that exceeds the best ratio found.
 */
function bestPattern(
  p: CoverProblem,
  remaining: Int32Array,
  w: Float64Array,
  budget?: WorkBudget,
): Pattern | undefined {
  const bound = p.types.map((t, ti) => t.price / Math.max(valueBound(p, ti, w, remaining, -1), 1e-12));
  const order = p.types.map((_, ti) => ti).sort((a, b) => bound[a] - bound[b] || a - b);
  budget?.spend(p.types.length);
  let best: Pattern | undefined;
  for (const t of order) {
    if (best && bound[t] >= best.ratio - 1e-12) break;
    for (let lead = -1; lead < p.groups.length; lead++) {
      if (lead >= 0 && remaining[lead] === 0) continue;
      const counts = fill(p, t, remaining, w, lead, budget);
      if (!counts) continue;
      const type = cheapestHolding(p, counts);
      if (type < 0) continue;
      const ratio = p.types[type].price / Math.max(value(counts, w), 1e-12);
      if (!best || ratio < best.ratio - 1e-12) best = { counts, type, ratio };
    }
  }
  return best;
}

/** How many times a pattern fits in the pods left. */
function repeats(counts: Int32Array, remaining: Int32Array): number {
  let k = Number.POSITIVE_INFINITY;
  counts.forEach((c, gi) => {
    if (c > 0) k = Math.min(k, Math.floor(remaining[gi] / c));
  });
  return Number.isFinite(k) ? k : 0;
}

/**
 * One greedy plan under weights `w` for the pods of `counts` (default: all), undefined when some pod
 * fits no candidate type or the budget (when given) runs out first.
 */
export function construct(
  p: CoverProblem,
  w: Float64Array,
  counts?: Int32Array,
  budget?: WorkBudget,
): CoverPlan | undefined {
  const remaining = counts ? Int32Array.from(counts) : Int32Array.from(p.groups, (g) => g.count);
  const nodes: CoverNode[] = [];
  let cost = 0;
  while (remaining.some((r) => r > 0)) {
    const best = bestPattern(p, remaining, w, budget);
    if (!best || (budget && !budget.open)) return undefined;
    const k = repeats(best.counts, remaining);
    for (let i = 0; i < k; i++) nodes.push({ type: best.type, counts: best.counts });
    best.counts.forEach((c, gi) => {
      remaining[gi] -= k * c;
    });
    cost += k * p.types[best.type].price;
  }
  return { nodes, cost };
}

/** Weights moved halfway towards each group's average share of its nodes' prices in `plan`. */
function corrected(p: CoverProblem, plan: CoverPlan, w: Float64Array): Float64Array {
  const paid = new Float64Array(p.groups.length);
  for (const node of plan.nodes) {
    const t = p.types[node.type];
    let total = 0;
    node.counts.forEach((c, gi) => {
      total += c * shareSum(p.groups[gi].vec, t.alloc);
    });
    node.counts.forEach((c, gi) => {
      if (c > 0) paid[gi] += (t.price * c * shareSum(p.groups[gi].vec, t.alloc)) / total;
    });
  }
  return Float64Array.from(w, (x, gi) => 0.5 * x + (0.5 * paid[gi]) / p.groups[gi].count);
}

/** The cheapest plan of `rounds` rounds of greedy cover with value correction from weights `w`. */
function corrections(
  p: CoverProblem,
  w0: Float64Array,
  rounds: number,
  budget: WorkBudget,
): CoverPlan | undefined {
  let w = w0;
  let best: CoverPlan | undefined;
  for (let round = 0; round < rounds && budget.open; round++) {
    const plan = construct(p, w, undefined, budget);
    if (!plan) return best;
    if (!best || plan.cost < best.cost - 1e-9) best = plan;
    if (round + 1 < rounds) w = corrected(p, plan, w);
  }
  return best;
}

/**
 * The cheapest plan of `rounds` rounds of greedy cover with value correction, starting once from
 * `duals` (when given) and once from size-based weights, or undefined when some pod fits no type.
 * The greedy steps are charged to `budget`; a plan not finished when it runs out is dropped.
 */
export function greedyCover(
  p: CoverProblem,
  rounds: number,
  budget: WorkBudget,
  duals?: Float64Array,
): CoverPlan | undefined {
  const initial = initialWeights(p);
  const starts = [initial];
  if (duals) starts.unshift(Float64Array.from(duals, (v, gi) => Math.max(v, 1e-3 * initial[gi])));
  let best: CoverPlan | undefined;
  for (const w of starts) {
    const plan = corrections(p, w, rounds, budget);
    if (plan && (!best || plan.cost < best.cost - 1e-9)) best = plan;
  }
  return best;
}
