/**
 * Exact pattern cover for a few pods, by branch and bound: the next node is the one holding a pod
 * of the first group with pods left (groups largest first), its candidates are every pattern that
 * holds such a pod, leaves no pod left that would still fit, and is priced at its own type (the
 * cheapest holding it). Any plan can be rewritten into this form at no extra cost (pull pods that
 * fit into the node, move it to the cheapest type holding it), so the search is exact when it
 * finishes. Bounds: the cheapest price per unit of each resource, and dual prices of the
 * relaxation when the caller has proven ones. Candidates are tried by their bound, and the whole
 * search is charged to the budget. Pods of a single group are planned by dynamic programming over
 * their number instead. Pure and deterministic.
 */

import { covers } from './node-shapes.js';
import { type CoverNode, type CoverPlan, type CoverProblem, cheapestHolding } from './pattern-cover.js';
import { fitting } from './pattern-pricing.js';
import type { WorkBudget } from './work-budget.js';

/** Problems (and neighbourhoods) of at most this many pods, or of one group, are solved exactly. */
export const EXACT_PODS = 24;

/** The outcome: the best plan cheaper than the limit (if any), and whether the search finished. */
export interface ExactResult {
  readonly plan?: CoverPlan;
  /** True when no cheaper plan exists than the one found (or than the limit, without a plan). */
  readonly complete: boolean;
}

interface Candidate {
  readonly counts: Int32Array;
  readonly type: number;
  readonly bound: number;
}

/**
 * The cheapest plan for the pods of one group, by dynamic programming over the number of pods
 * (each type holds as many as fit of them).
 */
function singleGroup(p: CoverProblem, gi: number, n: number, budget: WorkBudget, below: number): ExactResult {
  const g = p.groups[gi];
  const per = p.types.map((t, ti) => {
    if (!g.allowed[ti]) return 0;
    let k = n;
    for (let d = 0; d < g.vec.length; d++) if (g.vec[d] > 0) k = Math.min(k, fitting(t.alloc[d], g.vec[d]));
    return k;
  });
  const cost = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
  const choice = new Int32Array(n + 1).fill(-1);
  cost[0] = 0;
  for (let m = 1; m <= n; m++) {
    if (!budget.spend(p.types.length)) return { complete: false };
    for (let t = 0; t < p.types.length; t++) {
      if (per[t] === 0) continue;
      const c = p.types[t].price + cost[Math.max(0, m - per[t])];
      if (c < cost[m] - 1e-12) {
        cost[m] = c;
        choice[m] = t;
      }
    }
  }
  if (!(cost[n] < below - 1e-9)) return { complete: true };
  const nodes: CoverNode[] = [];
  for (let m = n; m > 0; ) {
    const t = choice[m];
    const counts = new Int32Array(p.groups.length);
    counts[gi] = Math.min(m, per[t]);
    m -= counts[gi];
    const type = cheapestHolding(p, counts);
    nodes.push({ type: type < 0 ? t : type, counts });
  }
  return { plan: { nodes, cost: nodes.reduce((s, x) => s + p.types[x.type].price, 0) }, complete: true };
}

/**
 * The cheapest plan for the pods of `demand` that costs less than `below` (Infinity: any), or
 * none. `duals`, when given, must be feasible for every pattern (a proven relaxation's).
 */
export function exactCover(
  p: CoverProblem,
  demand: Int32Array,
  budget: WorkBudget,
  below = Number.POSITIVE_INFINITY,
  duals?: Float64Array,
): ExactResult {
  const groups = p.groups.length;
  const dims = p.groups[0]?.vec.length ?? 0;
  const present = [...demand.keys()].filter((gi) => demand[gi] > 0);
  if (present.length === 1) return singleGroup(p, present[0], demand[present[0]], budget, below);
  // Cheapest price per unit of each resource.
  const unit = new Float64Array(dims).fill(Number.POSITIVE_INFINITY);
  for (const t of p.types)
    for (let d = 0; d < dims; d++) if (t.alloc[d] > 0) unit[d] = Math.min(unit[d], t.price / t.alloc[d]);
  const lowerBound = (left: Int32Array) => {
    let best = 0;
    for (let d = 0; d < dims; d++) {
      if (!Number.isFinite(unit[d])) continue;
      let need = 0;
      for (let gi = 0; gi < groups; gi++) need += left[gi] * p.groups[gi].vec[d];
      best = Math.max(best, need * unit[d]);
    }
    if (duals) {
      let v = 0;
      for (let gi = 0; gi < groups; gi++) v += left[gi] * duals[gi];
      best = Math.max(best, v);
    }
    return best;
  };
  const largest = p.types[p.types.length - 1]?.alloc;
  const size = (gi: number) =>
    p.groups[gi].vec.reduce((s, v, d) => s + (largest && largest[d] > 0 ? v / largest[d] : 0), 0);
  const order = Array.from({ length: groups }, (_, gi) => gi).sort((a, b) => size(b) - size(a) || a - b);

  let best: CoverNode[] | undefined;
  let bestCost = below;
  let complete = true;

  /** Patterns of type `t` holding at least one pod of `lead`, maximal for the pods `left`. */
  const patterns = (t: number, lead: number, left: Int32Array, out: Candidate[]) => {
    const alloc = p.types[t].alloc;
    const family = p.groups[lead].family;
    const members = order.filter(
      (gi) => left[gi] > 0 && p.groups[gi].allowed[t] && p.groups[gi].family === family,
    );
    const room = Float64Array.from(alloc);
    const counts = new Int32Array(groups);
    const fits = (gi: number) => covers(room, p.groups[gi].vec);
    const walk = (k: number): boolean => {
      if (!budget.spend()) return false;
      if (k === members.length) {
        if (counts[lead] === 0) return true;
        for (const gi of members) if (counts[gi] < left[gi] && fits(gi)) return true;
        if (cheapestHolding(p, counts) !== t) return true;
        const rest = Int32Array.from(left, (n, gi) => n - counts[gi]);
        const bound = p.types[t].price + lowerBound(rest);
        out.push({ counts: Int32Array.from(counts), type: t, bound });
        return true;
      }
      const gi = members[k];
      const v = p.groups[gi].vec;
      let most = left[gi];
      for (let d = 0; d < dims; d++) if (v[d] > 0) most = Math.min(most, fitting(room[d], v[d]));
      const fewest = gi === lead ? 1 : 0;
      for (let c = most; c >= fewest; c--) {
        counts[gi] = c;
        for (let d = 0; d < dims; d++) room[d] -= c * v[d];
        const ok = walk(k + 1);
        for (let d = 0; d < dims; d++) room[d] += c * v[d];
        if (!ok) {
          counts[gi] = 0;
          return false;
        }
      }
      counts[gi] = 0;
      return true;
    };
    return walk(0);
  };

  const search = (left: Int32Array, nodes: CoverNode[], cost: number): void => {
    const lead = order.find((gi) => left[gi] > 0);
    if (lead === undefined) {
      if (cost < bestCost - 1e-9) {
        best = [...nodes];
        bestCost = cost;
      }
      return;
    }
    if (cost + lowerBound(left) >= bestCost - 1e-9) return;
    const candidates: Candidate[] = [];
    for (let t = 0; t < p.types.length; t++) {
      if (!p.groups[lead].allowed[t] || cost + p.types[t].price >= bestCost - 1e-9) continue;
      if (!patterns(t, lead, left, candidates)) {
        complete = false;
        return;
      }
    }
    candidates.sort((a, b) => a.bound - b.bound || a.type - b.type);
    for (const c of candidates) {
      if (cost + c.bound >= bestCost - 1e-9) break;
      if (!budget.spend()) {
        complete = false;
        return;
      }
      nodes.push({ type: c.type, counts: c.counts });
      search(
        Int32Array.from(left, (n, gi) => n - c.counts[gi]),
        nodes,
        cost + p.types[c.type].price,
      );
      nodes.pop();
      if (!complete) return;
    }
  };
  search(Int32Array.from(demand), [], 0);
  return { plan: best ? { nodes: best, cost: bestCost } : undefined, complete };
}
