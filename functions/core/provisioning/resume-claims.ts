/**
 * Pending nodeclaims an earlier run wrote but did not finish launching (it crashed, or a launch
 * threw): the run holding the provisioning lease resumes them. `launchNodeClaim` adopts an
 * instance a crashed attempt left behind (found by its nodeclaim tag) before launching anew.
 */
import type { Pod } from '../model/kube-objects.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { transition } from '../nodeclaim/state-machine.js';
import type { Clock } from '../ports/clock.js';
import type { Log } from '../ports/log.js';
import { ConflictError, type StateStore } from '../ports/state-store.js';

/** The resumable claims, and the ones cancelled because nothing waits for them any more. */
export interface ResumeDecision {
  readonly resume: NodeClaim[];
  readonly cancelled: string[];
}

/** Why a superseded claim is cancelled. */
const SUPERSEDED = {
  reason: 'Superseded',
  message: 'its pods are planned on a nodeclaim written under a newer provisioning lease',
};
/** Why a claim nothing waits for is cancelled. */
const NO_PENDING_PODS = { reason: 'NoPendingPods', message: 'none of its pods is pending any more' };

/**
 * Picks the Pending claims among `inFlight` to launch again. A claim that never made a launch
 * attempt and none of whose pods is still pending is cancelled (Gone) instead (unless a static
 * pool made it: nothing but its count waits for it), and so is every
 * `superseded` claim (see superseded-claims.ts).
 */
export async function claimsToResume(
  deps: { store: StateStore; clock: Clock; log: Log },
  inFlight: readonly NodeClaim[],
  pending: readonly Pod[],
  superseded: readonly NodeClaim[] = [],
): Promise<ResumeDecision> {
  const pendingUids = new Set(pending.map((p) => p.metadata.uid ?? ''));
  const resume: NodeClaim[] = [];
  const cancelled: string[] = [];
  for (const claim of superseded) if (await cancel(deps, claim, SUPERSEDED)) cancelled.push(claim.id);
  for (const claim of inFlight) {
    if (claim.state !== 'Pending') continue;
    const waitedFor = claim.pods.some((p) => pendingUids.has(p.uid));
    if (claim.launchAttempts > 0 || waitedFor || claim.static) {
      deps.log.info('resuming launch of nodeclaim', {
        nodeclaim: claim.id,
        'launch-attempts': claim.launchAttempts,
      });
      resume.push(claim);
      continue;
    }
    if (await cancel(deps, claim, NO_PENDING_PODS)) cancelled.push(claim.id);
  }
  return { resume, cancelled };
}

async function cancel(
  deps: { store: StateStore; clock: Clock; log: Log },
  claim: NodeClaim,
  failure: { readonly reason: string; readonly message: string },
): Promise<boolean> {
  try {
    await deps.store.updateNodeClaim(transition(claim, 'Gone', deps.clock.now(), { failure }));
    deps.log.info(`cancelled nodeclaim: ${failure.message}`, { nodeclaim: claim.id, reason: failure.reason });
    return true;
  } catch (error) {
    if (error instanceof ConflictError) return false;
    throw error;
  }
}
