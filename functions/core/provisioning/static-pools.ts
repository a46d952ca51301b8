/**
 * Static NodePools (Karpenter v1.8 `replicas`): how many nodes each keeps and how many it must
 * launch. Karpenter counts a static pool's nodeclaims as active (launching or running, not being
 * deleted) or deleting; it launches `replicas - active`, within `limits.nodes` counted over both
 * (a node being replaced still counts until it is gone, so a pool at its node limit waits for it).
 * Scale-down is the disruption round's (see disruption/static-scale-down.ts). Pure.
 */
import { isStatic, type NodePool } from '../model/node-pool.js';
import type { NodeClaim, NodeClaimState } from '../nodeclaim/nodeclaim.js';

/** States of a static pool's claims that count toward its replicas. */
export const ACTIVE_STATES: readonly NodeClaimState[] = ['Pending', 'Launched', 'Registered', 'Initialized'];
/** States of claims being removed: they count toward `limits.nodes` only. */
export const DELETING_STATES: readonly NodeClaimState[] = ['Draining', 'Terminating'];

/** A static pool's nodeclaims by how they count. */
export interface StaticCount {
  readonly pool: string;
  readonly replicas: number;
  readonly active: number;
  readonly deleting: number;
  /** `limits.nodes` (Infinity when the pool sets none). */
  readonly nodeLimit: number;
}

/** How a static pool's claims count (claims of other pools are ignored). */
export function staticCount(pool: NodePool, claims: readonly NodeClaim[]): StaticCount {
  let active = 0;
  let deleting = 0;
  for (const c of claims) {
    if (c.nodePool !== pool.name) continue;
    if (ACTIVE_STATES.includes(c.state)) active++;
    else if (DELETING_STATES.includes(c.state)) deleting++;
  }
  const limit = pool.limits.nodes;
  return {
    pool: pool.name,
    replicas: pool.replicas ?? 0,
    active,
    deleting,
    nodeLimit: limit === undefined ? Number.POSITIVE_INFINITY : limit,
  };
}

/** How many nodes a static pool launches now: its shortfall, within its node limit. */
export function toLaunch(count: StaticCount): number {
  const wanted = count.replicas - count.active;
  const room = count.nodeLimit - count.active - count.deleting;
  return Math.max(0, Math.min(wanted, room));
}

/** What a static pool launches, and why fewer than it lacks (its node limit). */
export interface StaticLaunch {
  readonly pool: NodePool;
  readonly count: StaticCount;
  readonly launch: number;
  /** The pool lacks nodes but `limits.nodes` leaves no room for them now. */
  readonly limited: boolean;
}

/** Per static pool (dynamic pools are left out), what it launches now. */
export function staticLaunches(pools: readonly NodePool[], claims: readonly NodeClaim[]): StaticLaunch[] {
  return pools.filter(isStatic).map((pool) => {
    const count = staticCount(pool, claims);
    const launch = toLaunch(count);
    return { pool, count, launch, limited: launch < count.replicas - count.active };
  });
}
