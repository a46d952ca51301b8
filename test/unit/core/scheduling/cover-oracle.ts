/**
 * Small pattern-cover problems and a brute-force reference for tests: every pattern enumerated,
 * the optimum by dynamic programming over the pods left per group.
 */
import type { CoverNode, CoverProblem } from '../../../../functions/core/scheduling/pattern-cover.js';

/** The generator the scheduler's neighbourhood search uses, for reproducible random problems. */
export { seededRandom as seeded } from '../../../../functions/core/scheduling/seeded-random.js';

/** A problem from plain arrays: types `[cpu, mem, price]`, groups `[cpu, mem, count]` (one family). */
export function problem(types: number[][], groups: number[][]): CoverProblem {
  const sorted = [...types].sort((a, b) => a[2] - b[2]);
  return {
    types: sorted.map(([cpu, mem, price]) => ({ alloc: Float64Array.from([cpu, mem]), price })),
    groups: groups.map(([cpu, mem, count]) => ({
      vec: Float64Array.from([cpu, mem]),
      count,
      family: 0,
      allowed: new Uint8Array(sorted.length).fill(1),
    })),
  };
}

/**
 * A random small problem: 2-4 types, 1-3 groups of 1-5 pods that each fit some type (integer
 * sizes, so sums are exact).
 */
export function randomProblem(random: () => number): CoverProblem {
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const types = Array.from({ length: int(2, 4) }, () => {
    const cpu = int(2, 8);
    const mem = int(2, 16);
    return [cpu, mem, Math.round((cpu * 10 + mem * 3) * (0.7 + 0.6 * random())) / 100];
  });
  // Each group fits some type.
  const groups = Array.from({ length: int(1, 3) }, () => {
    const [cpu, mem] = types[int(0, types.length - 1)];
    return [int(1, cpu), int(1, mem), int(1, 5)];
  });
  return problem(types, groups);
}

/** Every pattern (pods per group, at most `demand`) each type holds, with its price. */
function patterns(p: CoverProblem, demand: readonly number[]): { counts: number[]; price: number }[] {
  const out: { counts: number[]; price: number }[] = [];
  for (const t of p.types) {
    const counts = demand.map(() => 0);
    const walk = (gi: number, room: number[]) => {
      if (gi === demand.length) {
        if (counts.some((c) => c > 0)) out.push({ counts: [...counts], price: t.price });
        return;
      }
      const v = p.groups[gi].vec;
      for (let c = 0; c <= demand[gi]; c++) {
        const left = room.map((r, d) => r - c * v[d]);
        if (left.some((r) => r < 0)) break;
        counts[gi] = c;
        walk(gi + 1, left);
      }
      counts[gi] = 0;
    };
    walk(0, Array.from(t.alloc));
  }
  return out;
}

/** The optimal cost of covering `demand` (default: every pod), Infinity when impossible. */
export function optimum(p: CoverProblem, demand?: readonly number[]): number {
  const want = demand ?? p.groups.map((g) => g.count);
  const all = patterns(p, want);
  const memo = new Map<string, number>();
  const solve = (left: number[]): number => {
    if (left.every((n) => n === 0)) return 0;
    const key = left.join(',');
    const known = memo.get(key);
    if (known !== undefined) return known;
    // The first group with pods left is in some node: try every pattern holding one of them.
    const lead = left.findIndex((n) => n > 0);
    let best = Number.POSITIVE_INFINITY;
    for (const pat of all) {
      if (pat.counts[lead] === 0) continue;
      const rest = left.map((n, gi) => Math.max(0, n - pat.counts[gi]));
      best = Math.min(best, pat.price + solve(rest));
    }
    memo.set(key, best);
    return best;
  };
  return solve([...want]);
}

/** Checks a plan: every pod of `demand` placed, no node over its type's room; returns its cost. */
export function checkPlan(p: CoverProblem, nodes: readonly CoverNode[], demand?: readonly number[]): number {
  const want = demand ?? p.groups.map((g) => g.count);
  const placed = want.map(() => 0);
  let cost = 0;
  for (const node of nodes) {
    const alloc = p.types[node.type].alloc;
    for (let d = 0; d < alloc.length; d++) {
      const used = p.groups.reduce((s, g, gi) => s + g.vec[d] * node.counts[gi], 0);
      if (used > alloc[d] + 1e-9) throw new Error(`node over its room in resource ${d}`);
    }
    node.counts.forEach((c, gi) => {
      placed[gi] += c;
    });
    cost += p.types[node.type].price;
  }
  if (placed.some((n, gi) => n !== want[gi])) throw new Error(`placed ${placed} for ${want}`);
  return cost;
}
