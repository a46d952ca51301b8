/**
 * Writes planned nodeclaims: one conditional create per claim, stamped with the fencing token of
 * the provisioning lease it is written under. Only the lease holder writes claims, and the next
 * holder lists them before planning, so it never plans their pods again; a claim that lands after
 * its writer lost the lease is superseded (see superseded-claims.ts).
 */
import type { Pod } from '../model/kube-objects.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { NodeClaimTimeouts } from '../nodeclaim/state-machine.js';
import type { Clock } from '../ports/clock.js';
import type { StateStore } from '../ports/state-store.js';
import type { PlannedNodeClaim, SchedulingPool } from '../scheduling/types.js';
import { IN_FLIGHT_STATES } from './in-flight.js';
import { claimFromPlan } from './planned-claims.js';

const inFlight = (c: NodeClaim): boolean => (IN_FLIGHT_STATES as readonly string[]).includes(c.state);

/** Fresh ids tried for pods whose earlier claim with the same id failed. */
const MAX_SALTS = 3;

/** The ports writing claims uses. */
export interface WriteClaimsDeps {
  readonly store: StateStore;
  readonly clock: Clock;
}

/** What writing one planned claim gave. */
export type WrittenClaim =
  | { readonly status: 'created'; readonly claim: NodeClaim }
  | { readonly status: 'exists'; readonly id: string };

/**
 * Writes one planned claim under the lease with fencing token `leaseToken`. A live claim with the
 * same id is the same plan written by another delivery of the batch: it is left to that one.
 */
export async function writeClaim(
  deps: WriteClaimsDeps,
  planned: PlannedNodeClaim,
  pools: readonly SchedulingPool[],
  podsById: ReadonlyMap<string, Pod>,
  timeouts: NodeClaimTimeouts,
  leaseToken: number,
): Promise<WrittenClaim> {
  let id = '';
  // The salts of the same pods' earlier claims, then one of this lease: pods whose claims failed
  // again and again (EC2 terminating every launch) still get a claim once those ids are used up.
  const salts = [
    ...Array.from({ length: MAX_SALTS }, (_, n) => (n === 0 ? '' : `${n}`)),
    `lease-${leaseToken}`,
  ];
  for (const salt of salts) {
    const claim: NodeClaim = {
      ...claimFromPlan(planned, pools, podsById, deps.clock.now(), timeouts, salt),
      leaseToken,
    };
    id = claim.id;
    if (await deps.store.createNodeClaim(claim))
      return { status: 'created', claim: { ...claim, version: 1 } };
    const existing = await deps.store.getNodeClaim(claim.id);
    // An in-flight claim with this id is this plan written by another delivery; a claim whose
    // node runs (or drains) was planned for the same pods before, and these pods need a new one.
    if (existing && inFlight(existing)) return { status: 'exists', id };
  }
  return { status: 'exists', id };
}
