/**
 * Which pairs of candidates the pair search tries, and in what order, within a fixed number of
 * trials. Every pair of the cluster is scored by arithmetic alone: the two nodes' price less the
 * cheapest instance type their NodePools could launch that holds both nodes' pod requests (cpu,
 * memory, pod count), on an offering the replacement could use (the NodePool's capacity types;
 * on-demand only when a node of the pair is spot, as two spot nodes never go into one spot node).
 * The pairs that could save are tried first, the most promising first, wherever they stand in the
 * disruption-cost order; then the pairs of the cheapest-to-disrupt candidates that the arithmetic
 * ruled out (their pods may still fit partly on other nodes with a smaller replacement). The
 * score only orders the trials: every pair tried is still planned by the scheduler with every
 * placement rule, so a pair whose pods only fit by requests (anti-affinity, spread) is rejected
 * there. A cluster packed tight (no pair fits one node) costs no trial beyond those head pairs.
 */
import type { Pod } from '../../model/kube-objects.js';
import { podRequests } from '../../scheduling/pod-requests.js';
import { intersectSets, type ValueSet, valueAllowed, valueSetOf } from '../../scheduling/requirement-set.js';
import type { SchedulingPool } from '../../scheduling/types.js';
import { CAPACITY_TYPE } from '../../scheduling/well-known.js';
import type { Candidate } from './candidates.js';
import { TopPairs } from './top-pairs.js';

/** Pairs tried at most in one search (all pairs of 48 candidates). */
export const PAIR_TRIALS = (48 * 47) / 2;
/** The candidates whose pairs are tried after the scored ones: the cheapest to disrupt. */
export const PAIR_HEAD = 48;

/** One type a replacement could be: what it holds and its cheapest usable price. */
export interface Fit {
  readonly cpu: number;
  readonly memory: number;
  readonly pods: number;
  readonly price: number;
}

/** What a candidate's pods request in all, and where a replacement would come from. */
export interface Need {
  readonly cpu: number;
  readonly memory: number;
  readonly pods: number;
  readonly spot: boolean;
  readonly pool: string;
}

/** Index pairs `[i, j]` (i < j) into `candidates`, at most `limit`, in the order to try them. */
export function pairOrder(
  candidates: readonly Candidate[],
  pools: readonly SchedulingPool[],
  limit = PAIR_TRIALS,
  head = PAIR_HEAD,
): [number, number][] {
  const needs = candidates.map(needOf);
  const fits = new Map(pools.map((p) => [p.pool.name, fitsOf(p)] as const));
  const best = new TopPairs(limit);
  for (let i = 0; i < candidates.length; i++) {
    const a = needs[i];
    const own = fits.get(a.pool);
    for (let j = i + 1; j < candidates.length; j++) {
      const b = needs[j];
      const price = candidates[i].price + candidates[j].price;
      let fit = cheapestFit(a, b, own, price);
      if (b.pool !== a.pool) fit = Math.min(fit, cheapestFit(a, b, fits.get(b.pool), price));
      best.offer(i, j, price - fit);
    }
  }
  const order = best.pairs();
  const taken = new Set(order.map(([i, j]) => i * candidates.length + j));
  const top = Math.min(head, candidates.length);
  for (let i = 0; i < top && order.length < limit; i++)
    for (let j = i + 1; j < top && order.length < limit; j++)
      if (!taken.has(i * candidates.length + j)) order.push([i, j]);
  return order;
}

/** The summed pod requests of a candidate. */
export function needOf(c: Candidate): Need {
  let cpu = 0;
  let memory = 0;
  for (const pod of c.pods) {
    const r = requestsOf(pod);
    cpu += r.cpu ?? 0;
    memory += r.memory ?? 0;
  }
  return {
    cpu,
    memory,
    pods: c.pods.length,
    spot: c.claim.instance?.capacityType === 'spot',
    pool: c.pool.name,
  };
}

/** A pod's requests; a pod whose requests do not parse counts as none here (its trial reports it). */
function requestsOf(pod: Pod): Record<string, number> {
  try {
    return podRequests(pod);
  } catch {
    return {};
  }
}

/** A pool's instance types as replacements: cheapest first, dominated ones left out. */
export interface PoolFits {
  readonly any: Fit[];
  readonly onDemand: Fit[];
  /** The most of each resource one type of the pool holds. */
  readonly most: { cpu: number; memory: number; pods: number };
}

/** The pool's types by price: cheapest usable offering overall, and without spot. */
export function fitsOf(p: SchedulingPool): PoolFits {
  const allowed = capacityTypesOf(p);
  const any: Fit[] = [];
  const onDemand: Fit[] = [];
  for (const t of p.instanceTypes) {
    const usable = t.offerings.filter(
      (o) => o.available && (!allowed || valueAllowed(allowed, o.capacityType)),
    );
    const shape = {
      cpu: t.allocatable.cpu ?? 0,
      memory: t.allocatable.memory ?? 0,
      pods: t.allocatable.pods ?? 0,
    };
    const cheapest = (list: typeof usable) => Math.min(...list.map((o) => o.price));
    if (usable.length > 0) any.push({ ...shape, price: cheapest(usable) });
    const noSpot = usable.filter((o) => o.capacityType !== 'spot');
    if (noSpot.length > 0) onDemand.push({ ...shape, price: cheapest(noSpot) });
  }
  const most = { cpu: 0, memory: 0, pods: 0 };
  for (const t of any) {
    most.cpu = Math.max(most.cpu, t.cpu);
    most.memory = Math.max(most.memory, t.memory);
    most.pods = Math.max(most.pods, t.pods);
  }
  return { any: frontier(any), onDemand: frontier(onDemand), most };
}

/**
 * The types by price, less those a type at most as dear holds as much of every resource as: the
 * cheapest type that holds a need is always among the rest.
 */
function frontier(types: Fit[]): Fit[] {
  const kept: Fit[] = [];
  for (const t of [...types].sort((a, b) => a.price - b.price))
    if (!kept.some((k) => k.cpu >= t.cpu && k.memory >= t.memory && k.pods >= t.pods)) kept.push(t);
  return kept;
}

/** The capacity types the pool's requirements allow (undefined: any). */
function capacityTypesOf(p: SchedulingPool): ValueSet | undefined {
  let allowed: ValueSet | undefined;
  for (const r of p.pool.requirements ?? [])
    if (r.key === CAPACITY_TYPE) allowed = allowed ? intersectSets(allowed, valueSetOf(r)) : valueSetOf(r);
  return allowed;
}

/** The cheapest price of one node of the pool holding both needs, if below `below` (else Infinity). */
function cheapestFit(a: Need, b: Need, f: PoolFits | undefined, below: number): number {
  const cpu = a.cpu + b.cpu;
  const memory = a.memory + b.memory;
  const pods = a.pods + b.pods;
  if (!f || cpu > f.most.cpu || memory > f.most.memory || pods > f.most.pods) return Number.POSITIVE_INFINITY;
  for (const t of a.spot || b.spot ? f.onDemand : f.any) {
    if (t.price >= below) break;
    if (t.cpu >= cpu && t.memory >= memory && t.pods >= pods) return t.price;
  }
  return Number.POSITIVE_INFINITY;
}
