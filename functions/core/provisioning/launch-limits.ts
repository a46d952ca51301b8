/**
 * NodePool limits checked again at launch: a claim may launch only the options that keep its pool
 * within its limits, given what the pool's nodes and other live claims count (each claim its
 * launched type, or its largest option while it may still launch any). The plan already keeps
 * within the limits; this catches a claim resumed after the pool filled up or its limits shrank.
 */
import type { NodeClaim, NodeClaimOption } from '../nodeclaim/nodeclaim.js';
import type { ExistingNode, SchedulingPool } from '../scheduling/types.js';
import { limitCapacity } from './in-flight.js';

/** What a claim may launch under its pool's limits. */
export interface LaunchLimits {
  /** Whether launching `option` keeps the pool within its limits. */
  readonly allows: (option: NodeClaimOption) => boolean;
  /** Why an option is refused (the limit and what the pool counts). */
  readonly reason: string;
}

/** Per pool, the resources (and `nodes`) its nodes count toward its limits. */
export function nodeUsage(nodes: readonly ExistingNode[]): Map<string, Record<string, number>> {
  const used = new Map<string, Record<string, number>>();
  for (const n of nodes) {
    if (!n.nodePool) continue;
    const u = used.get(n.nodePool) ?? {};
    addInto(u, n.capacity ?? n.allocatable);
    used.set(n.nodePool, u);
  }
  return used;
}

/**
 * The limits `claim` launches under, or undefined when its pool sets none. `nodes` is what the
 * pool's nodes count ({@link nodeUsage}); `live` the live claims without a node, in launch order:
 * the launched ones and those before `claim` count against it (the first claims get the room).
 */
export function launchLimits(
  claim: NodeClaim,
  pools: readonly SchedulingPool[],
  nodes: ReadonlyMap<string, Readonly<Record<string, number>>>,
  live: readonly NodeClaim[],
): LaunchLimits | undefined {
  const sp = pools.find((p) => p.pool.name === claim.nodePool);
  const limits = Object.entries(sp?.pool.limits ?? {}).filter(
    (e): e is [string, number] => typeof e[1] === 'number',
  );
  if (!sp || limits.length === 0) return undefined;
  const used: Record<string, number> = { ...(nodes.get(claim.nodePool) ?? {}) };
  const mine = live.findIndex((c) => c.id === claim.id);
  live.forEach((c, i) => {
    if (c.id === claim.id || c.nodePool !== claim.nodePool) return;
    if (c.instance || mine < 0 || i < mine) addInto(used, limitCapacity(c, pools));
  });
  const capacity = new Map(sp.instanceTypes.map((t) => [t.name, t.capacity]));
  const counted = limits.map(([res, limit]) => `${res} ${used[res] ?? 0} of ${limit}`).join(', ');
  return {
    allows: (option) => {
      const cap = capacity.get(option.instanceType);
      if (!cap) return false;
      return limits.every(
        ([res, limit]) => (used[res] ?? 0) + (res === 'nodes' ? 1 : (cap[res] ?? 0)) <= limit,
      );
    },
    reason: `nodepool ${claim.nodePool} limits reached (counted: ${counted})`,
  };
}

function addInto(target: Record<string, number>, add: Readonly<Record<string, number>>): void {
  for (const [k, v] of Object.entries(add)) target[k] = (target[k] ?? 0) + v;
  target.nodes = (target.nodes ?? 0) + 1;
}
