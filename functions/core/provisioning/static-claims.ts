/**
 * Launches what static NodePools lack (Karpenter v1.8 static provisioning): per static pool,
 * `replicas` minus its active claims, within `limits.nodes` (see static-pools.ts), each an empty
 * node of the pool's template (see scheduling/template-claim.ts). Run by the provisioning run
 * under its lease, before it plans pods, so pods are planned onto the new claims too.
 *
 * Idempotent: a claim's id comes from its pool, the ids of the pool's claims the run counted and
 * its slot, so a second run that counted the same claims computes the same ids and the
 * conditional create lets one launch happen; a run that counted a later state makes new ids.
 */

import type { DaemonSet } from '../model/kube-objects.js';
import { newNodeClaim, nodeClaimId } from '../nodeclaim/create.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { NodeClaimTimeouts } from '../nodeclaim/state-machine.js';
import type { Clock } from '../ports/clock.js';
import type { Log } from '../ports/log.js';
import type { StateStore } from '../ports/state-store.js';
import { templateClaim } from '../scheduling/template-claim.js';
import type { SchedulingPool } from '../scheduling/types.js';
import { claimFields } from './planned-claims.js';
import { ACTIVE_STATES, DELETING_STATES, type StaticLaunch } from './static-pools.js';

/** Fresh ids tried for a slot whose id an ended claim already has. */
const MAX_SALTS = 3;

/**
 * The Pending claims that give `launch.pool` what it lacks, or why it can launch none. `claims`
 * are the live claims the run counted (any pool).
 */
export function staticClaims(
  launch: StaticLaunch,
  sp: SchedulingPool,
  daemonSets: readonly DaemonSet[],
  claims: readonly NodeClaim[],
  now: number,
  timeouts: NodeClaimTimeouts,
  salt = 0,
): NodeClaim[] | string {
  if (launch.launch <= 0) return [];
  if (!sp.nodeClass) return sp.problem ?? `NodePool ${sp.pool.name} has no NodeClass`;
  const planned = templateClaim(sp, daemonSets, `${sp.pool.name}-static`);
  if (typeof planned === 'string') return planned;
  const counted = claims
    .filter((c) => c.nodePool === sp.pool.name)
    .filter((c) => ACTIVE_STATES.includes(c.state) || DELETING_STATES.includes(c.state))
    .map((c) => c.id)
    .sort();
  const out: NodeClaim[] = [];
  for (let slot = 0; slot < launch.launch; slot++) {
    const id = nodeClaimId(sp.pool.name, ['static', ...counted], `${slot}${salt === 0 ? '' : `/${salt}`}`);
    out.push(
      newNodeClaim(
        { id, ...claimFields(sp.pool, sp.nodeClass, planned, now), pods: [], static: true },
        now,
        timeouts,
      ),
    );
  }
  return out;
}

/** What writing a static pool's claims needs. */
export interface WriteStaticDeps {
  readonly store: Pick<StateStore, 'createNodeClaim' | 'getNodeClaim'>;
  readonly clock: Clock;
  readonly log: Log;
}

/**
 * Writes the claims {@link staticClaims} makes, each with one conditional create under the
 * lease's `leaseToken`. A slot whose id a live claim has was written by another run that counted
 * the same claims: it is left to that run. A slot whose id an ended claim has gets a fresh salt.
 * Returns the claims this call created.
 */
export async function writeStaticClaims(
  deps: WriteStaticDeps,
  make: (salt: number) => NodeClaim[],
  leaseToken: number,
): Promise<NodeClaim[]> {
  const created: NodeClaim[] = [];
  const slots = make(0).length;
  for (let slot = 0; slot < slots; slot++) {
    for (let salt = 0; salt < MAX_SALTS; salt++) {
      const claim: NodeClaim = { ...make(salt)[slot], leaseToken };
      if (await deps.store.createNodeClaim(claim)) {
        created.push({ ...claim, version: 1 });
        break;
      }
      const existing = await deps.store.getNodeClaim(claim.id);
      if (existing && existing.state !== 'Gone') break;
    }
  }
  if (created.length > 0)
    deps.log.info('created nodeclaim(s) to keep the replicas of a static NodePool', {
      nodepool: created[0].nodePool,
      nodeclaims: created.map((c) => c.id),
    });
  return created;
}
