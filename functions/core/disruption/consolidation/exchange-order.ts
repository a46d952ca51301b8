/**
 * Which pairs of candidates the exchange search tries (two nodes re-packed into two cheaper new
 * ones), and in what order, within a fixed number of trials. After a scale-in the surviving nodes
 * are often full by cpu but shaped wrong: a memory-optimized node whose remaining pods no longer
 * need its memory sits beside a compute node that lacks memory. Neither fits a cheaper node
 * alone, their pods together need two nodes, so no delete, replace or two-into-one move exists;
 * re-packed together (memory-heavy and cpu-heavy pods mixed) they fit two cheaper nodes.
 *
 * Every pair is scored by arithmetic alone: the two nodes' price less the cheapest two instance
 * types of their NodePool whose summed allocatable holds both nodes' summed pod requests (cpu,
 * memory, pod count). That ignores how the pods split between the two nodes, so it only orders the
 * trials: each pair tried is planned by the scheduler with every placement rule. Only pairs that
 * could save are kept, most saving first; pairs with a spot node are left out (Karpenter never
 * replaces several spot nodes at once).
 */
import type { SchedulingPool } from '../../scheduling/types.js';
import type { Candidate } from './candidates.js';
import { type Fit, fitsOf, type Need, needOf } from './pair-order.js';
import { TopPairs } from './top-pairs.js';

/**
 * New nodes an exchange may launch at most: its two nodes re-packed into two, or into up to four
 * smaller ones where those cost less (instance sizes of a family are priced by their size, so four
 * xlarge nodes of the right families can undercut two 2xlarge nodes of the wrong ones).
 */
export const EXCHANGE_NODES = 4;

/** Pairs tried at most in one search (as many as the two-into-one pair search). */
export const EXCHANGE_TRIALS = (48 * 47) / 2;

/** Index pairs `[i, j]` (i < j) into `candidates`, at most `limit`, in the order to try them. */
export function exchangeOrder(
  candidates: readonly Candidate[],
  pools: readonly SchedulingPool[],
  limit = EXCHANGE_TRIALS,
): [number, number][] {
  if (!Number.isInteger(limit) || limit < 0)
    throw new Error(`exchange trials must be an integer >= 0, got ${limit}`);
  const needs = candidates.map(needOf);
  const combos = new Map(pools.map((p) => [p.pool.name, twoNodeCovers(fitsOf(p).any)] as const));
  const top = new TopPairs(limit, 1e-9);
  for (let i = 0; i < candidates.length; i++) {
    const a = needs[i];
    if (a.spot) continue;
    for (let j = i + 1; j < candidates.length; j++) {
      const b = needs[j];
      if (b.spot) continue;
      const price = candidates[i].price + candidates[j].price;
      let cover = cheapestCover(a, b, combos.get(a.pool), price);
      if (b.pool !== a.pool) cover = Math.min(cover, cheapestCover(a, b, combos.get(b.pool), price));
      top.offer(i, j, price - cover);
    }
  }
  return top.pairs();
}

/**
 * Every two types (a type twice included) as one summed allocatable and price, cheapest first,
 * less the combinations a no dearer one holds as much of every resource as.
 */
function twoNodeCovers(types: readonly Fit[]): Fit[] {
  const all: Fit[] = [];
  for (let x = 0; x < types.length; x++)
    for (let y = x; y < types.length; y++)
      all.push({
        cpu: types[x].cpu + types[y].cpu,
        memory: types[x].memory + types[y].memory,
        pods: types[x].pods + types[y].pods,
        price: types[x].price + types[y].price,
      });
  all.sort((p, q) => p.price - q.price);
  const kept: Fit[] = [];
  for (const c of all)
    if (!kept.some((k) => k.cpu >= c.cpu && k.memory >= c.memory && k.pods >= c.pods)) kept.push(c);
  return kept;
}

/** The price of the cheapest two nodes holding both needs, if below `below` (else Infinity). */
function cheapestCover(a: Need, b: Need, covers: readonly Fit[] | undefined, below: number): number {
  const cpu = a.cpu + b.cpu;
  const memory = a.memory + b.memory;
  const pods = a.pods + b.pods;
  for (const c of covers ?? []) {
    if (c.price >= below) break;
    if (c.cpu >= cpu && c.memory >= memory && c.pods >= pods) return c.price;
  }
  return Number.POSITIVE_INFINITY;
}
