/**
 * Writes planned nodeclaims: a conditional create per claim, then a conditional claim on each of
 * its pods. A pod another live claim holds is left to that claim, so two runs that planned the
 * same pods launch one set of instances.
 */
import type { Pod } from '../model/kube-objects.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { DEFAULT_TIMEOUTS, isActive, type NodeClaimTimeouts } from '../nodeclaim/state-machine.js';
import type { Clock } from '../ports/clock.js';
import type { Log } from '../ports/log.js';
import type { StateStore } from '../ports/state-store.js';
import type { PlannedNodeClaim, SchedulingPool } from '../scheduling/types.js';
import { claimFromPlan } from './planned-claims.js';

/** Fresh ids tried for pods whose earlier claim with the same id failed. */
const MAX_SALTS = 3;

/** The ports writing claims uses. */
export interface WriteClaimsDeps {
  readonly store: StateStore;
  readonly clock: Clock;
  readonly log: Log;
}

/** What writing one planned claim gave. */
export type WrittenClaim =
  | { readonly status: 'created'; readonly claim: NodeClaim }
  | { readonly status: 'exists'; readonly id: string }
  | { readonly status: 'taken'; readonly id: string; readonly holders: readonly string[] };

/** How long a pod stays claimed: until its claim launched and registered (or timed out). */
export function podClaimTtlMs(timeouts: NodeClaimTimeouts = DEFAULT_TIMEOUTS): number {
  return timeouts.launchMs + timeouts.registrationMs;
}

/** Writes one planned claim (see the module comment). */
export async function writeClaim(
  deps: WriteClaimsDeps,
  planned: PlannedNodeClaim,
  pools: readonly SchedulingPool[],
  podsById: ReadonlyMap<string, Pod>,
  timeouts: NodeClaimTimeouts,
): Promise<WrittenClaim> {
  const created = await createWithFreshId(deps, planned, pools, podsById, timeouts);
  if ('exists' in created) return { status: 'exists', id: created.exists };
  let claim = created.claim;
  const result = await deps.store.claimPods(claim.pods, claim.id, deps.clock.now(), podClaimTtlMs(timeouts));
  if (result.taken.length === 0) return { status: 'created', claim };
  const holders = [...new Set(result.taken.map((t) => t.nodeClaimId))];
  if (result.claimed.length === 0) {
    await deps.store.deleteNodeClaim(claim);
    deps.log.info('dropped nodeclaim: its pods are claimed by other nodeclaims', {
      nodeclaim: claim.id,
      holders,
    });
    return { status: 'taken', id: claim.id, holders };
  }
  claim = await deps.store.updateNodeClaim({ ...claim, pods: result.claimed });
  deps.log.info('nodeclaim keeps the pods no other nodeclaim holds', {
    nodeclaim: claim.id,
    pods: result.claimed.length,
    taken: result.taken.length,
    holders,
  });
  return { status: 'created', claim };
}

async function createWithFreshId(
  deps: WriteClaimsDeps,
  planned: PlannedNodeClaim,
  pools: readonly SchedulingPool[],
  podsById: ReadonlyMap<string, Pod>,
  timeouts: NodeClaimTimeouts,
): Promise<{ claim: NodeClaim } | { exists: string }> {
  let id = '';
  for (let n = 0; n < MAX_SALTS; n++) {
    const claim = claimFromPlan(planned, pools, podsById, deps.clock.now(), timeouts, n === 0 ? '' : `${n}`);
    id = claim.id;
    if (await deps.store.createNodeClaim(claim)) return { claim: { ...claim, version: 1 } };
    const existing = await deps.store.getNodeClaim(claim.id);
    // A live claim with this id is the same plan made by another delivery: it is handled there.
    if (existing && isActive(existing)) return { exists: claim.id };
  }
  return { exists: id };
}
