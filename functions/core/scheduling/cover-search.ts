/**
 * Local search on a pattern-cover plan, ruin and recreate: take a few nodes out (the most wasteful
 * ones, or a seeded pseudo-random pick), pack their pods again with the greedy cover and keep the
 * result when it is cheaper. Deterministic (fixed seed, no Math.random).
 */
import { type CoverNode, type CoverPlan, type CoverProblem, construct } from './pattern-cover.js';

/** A small deterministic pseudo-random generator (mulberry32). */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Money a node spends on room its pods leave unused (price x unused share of its fullest resource). */
function waste(p: CoverProblem, node: CoverNode): number {
  const t = p.types[node.type];
  let used = 0;
  for (let d = 0; d < t.alloc.length; d++) {
    if (t.alloc[d] <= 0) continue;
    let sum = 0;
    node.counts.forEach((c, gi) => {
      sum += c * p.groups[gi].vec[d];
    });
    used = Math.max(used, sum / t.alloc[d]);
  }
  return t.price * (1 - Math.min(1, used));
}

/** Which nodes to take out in iteration `it`: alternately the most wasteful and a random pick. */
function pick(p: CoverProblem, nodes: readonly CoverNode[], it: number, random: () => number): number[] {
  const k = Math.min(nodes.length, 2 + (it % 3));
  if (it % 2 === 0) {
    const order = nodes.map((n, i) => ({ i, w: waste(p, n) })).sort((a, b) => b.w - a.w || a.i - b.i);
    const first = order[(it >> 1) % Math.max(1, order.length)].i;
    const rest = order.filter((o) => o.i !== first).slice(0, k - 1);
    return [first, ...rest.map((o) => o.i)];
  }
  const chosen = new Set<number>();
  while (chosen.size < k) chosen.add(Math.floor(random() * nodes.length));
  return [...chosen];
}

/** Improves `plan` by `iterations` rounds of ruin and recreate under weights `w`. */
export function ruinAndRecreate(
  p: CoverProblem,
  plan: CoverPlan,
  w: Float64Array,
  iterations: number,
): CoverPlan {
  const random = generator(0x5eed);
  let nodes = plan.nodes;
  let cost = plan.cost;
  for (let it = 0; it < iterations && nodes.length > 1; it++) {
    const out = new Set(pick(p, nodes, it, random));
    const freed = new Int32Array(p.groups.length);
    let removed = 0;
    for (const i of out) {
      nodes[i].counts.forEach((c, gi) => {
        freed[gi] += c;
      });
      removed += p.types[nodes[i].type].price;
    }
    const again = construct(p, w, freed);
    if (!again || again.cost >= removed - 1e-9) continue;
    nodes = [...nodes.filter((_, i) => !out.has(i)), ...again.nodes];
    cost += again.cost - removed;
  }
  return { nodes, cost };
}
