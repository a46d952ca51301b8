/**
 * Local search on a pattern-cover plan by re-planning small neighbourhoods: take a few nodes out
 * (the most wasteful ones together, a wasteful one with the nodes sharing its pod groups, a seeded
 * pseudo-random pick, the nodes of one group, or a wasteful node with the cheapest nodes sharing
 * its groups), plan their pods again — exactly when they are few, else with a branching dive —
 * looking only for plans cheaper than the nodes they replace (bounds prune the rest), and keep the
 * result when it is cheaper. Deterministic (fixed seed, work counted by the budget).
 */
import { EXACT_PODS, exactCover } from './cover-exact.js';
import { DIVE_BRANCHES, type Dive, lpDive } from './lp-dive.js';
import type { CoverNode, CoverPlan, CoverProblem } from './pattern-cover.js';
import { seededRandom } from './seeded-random.js';
import type { WorkBudget } from './work-budget.js';

/** The most nodes a neighbourhood takes out. */
const MAX_NODES = 6;
/** Neighbourhoods of at most EXACT_PODS pods are re-planned exactly, within this share of the budget. */
const EXACT_UNITS = 20_000;
/** Ways to choose a neighbourhood, taken in turn. */
const STRATEGIES = 5;
/**
 * Consecutive neighbourhoods (not tried before) without an improvement before the search stops:
 * this many, or twice the nodes of the plan.
 */
const PATIENCE = 24;

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

function byWaste(p: CoverProblem, nodes: readonly CoverNode[]): number[] {
  const w = nodes.map((n) => waste(p, n));
  return nodes.map((_, i) => i).sort((a, b) => w[b] - w[a] || a - b);
}

/** Nodes sharing a pod group with node `i`, most shared pods first. */
function related(nodes: readonly CoverNode[], i: number): number[] {
  const mine = nodes[i].counts;
  const shared = nodes.map((n, j) => {
    if (j === i) return -1;
    let s = 0;
    n.counts.forEach((c, gi) => {
      if (c > 0 && mine[gi] > 0) s += c;
    });
    return s;
  });
  return nodes
    .map((_, j) => j)
    .filter((j) => shared[j] > 0)
    .sort((a, b) => shared[b] - shared[a] || a - b);
}

/** The nodes holding pods of group `g`, most wasteful first. */
function holding(order: readonly number[], nodes: readonly CoverNode[], g: number): number[] {
  return order.filter((j) => nodes[j].counts[g] > 0);
}

/** The nodes to take out in iteration `it` (indices into `nodes`). */
function neighbourhood(
  p: CoverProblem,
  nodes: readonly CoverNode[],
  order: readonly number[],
  it: number,
  random: () => number,
): number[] {
  const k = Math.min(nodes.length, 2 + (it % (MAX_NODES - 1)));
  const lead = order[Math.floor(it / STRATEGIES) % order.length];
  switch (it % STRATEGIES) {
    case 0:
      return [lead, ...order.filter((j) => j !== lead).slice(0, k - 1)];
    case 1:
      return [lead, ...related(nodes, lead).slice(0, k - 1)];
    case 2: {
      const chosen = new Set<number>([lead]);
      while (chosen.size < k) chosen.add(Math.floor(random() * nodes.length));
      return [...chosen];
    }
    case 3: {
      // The nodes of one group (taking turns) and the most wasteful node without it.
      const g = Math.floor(it / STRATEGIES) % p.groups.length;
      const mine = holding(order, nodes, g).slice(0, MAX_NODES);
      const other = order.find((j) => nodes[j].counts[g] === 0);
      return other === undefined ? mine : [...mine, other];
    }
    default: {
      // The lead and the cheapest nodes sharing a group with it, while the pods stay few enough
      // for the exact search: small nodes that one larger node could absorb.
      const price = (j: number) => p.types[nodes[j].type].price;
      const cheap = related(nodes, lead).sort((a, b) => price(a) - price(b) || a - b);
      const out = [lead];
      let pods = podsOf(nodes[lead]);
      for (const j of cheap) {
        if (pods + podsOf(nodes[j]) > EXACT_PODS) break;
        out.push(j);
        pods += podsOf(nodes[j]);
      }
      return out;
    }
  }
}

function podsOf(node: CoverNode): number {
  return node.counts.reduce((s, n) => s + n, 0);
}

/** Improves `plan` by re-planning neighbourhoods while the budget lasts. */
export function diveNeighbourhoods(p: CoverProblem, start: Dive, budget: WorkBudget): CoverPlan {
  const { plan, columns } = start;
  const duals = start.proven ? start.duals : undefined;
  const random = seededRandom(0x5eed);
  let nodes = plan.nodes;
  let cost = plan.cost;
  const seen = new Set<string>();
  let idle = 0;
  const patience = Math.max(PATIENCE, 2 * nodes.length);
  const limit = STRATEGIES * (nodes.length + patience);
  let order = byWaste(p, nodes);
  for (let it = 0; it < limit && nodes.length > 1 && idle < patience && budget.spend(nodes.length); it++) {
    const out = [...new Set(neighbourhood(p, nodes, order, it, random))].sort((a, b) => a - b);
    const freed = new Int32Array(p.groups.length);
    let removed = 0;
    for (const i of out) {
      nodes[i].counts.forEach((c, gi) => {
        freed[gi] += c;
      });
      removed += p.types[nodes[i].type].price;
    }
    const key = `${freed.join(',')}|${removed}`;
    if (seen.has(key)) continue;
    seen.add(key);
    idle++;
    const pods = freed.reduce((s, n) => s + n, 0);
    const single = freed.filter((n) => n > 0).length === 1;
    const found =
      pods <= EXACT_PODS || single
        ? exactCover(p, freed, budget.share(EXACT_UNITS), removed, duals).plan
        : lpDive(p, budget, { demand: freed, start: columns, branches: DIVE_BRANCHES, below: removed })?.plan;
    if (!found || found.cost >= removed - 1e-9) continue;
    const kept = new Set(out);
    nodes = [...nodes.filter((_, i) => !kept.has(i)), ...found.nodes];
    cost += found.cost - removed;
    order = byWaste(p, nodes);
    idle = 0;
  }
  return { nodes, cost };
}
