/**
 * Handing the rest of a run over: a run that stops launching before its invocation's deadline (the
 * launch reserve, see provisioning-lease.ts) leaves Pending nodeclaims, or planned ones it did not
 * write. Without a hand-over their pods wait for the one-minute sweep (it resumes a Pending claim
 * once it is a minute old). With it the run, once its lease is released, publishes a
 * PodUnschedulable hint for a few of those pods: a fresh invocation, with its own deadline, plans
 * every pending pod and resumes the Pending claims under the lease, so a duplicate hint launches
 * nothing twice.
 *
 * Bounded: only a run that launched at least one nodeclaim hands over, so every invocation of a
 * chain of hand-overs launches something, and a run that cannot launch (EC2 throttles it, the
 * lease was lost) leaves the rest to the sweep and its batch's redelivery.
 */
import type { PodRefDetail } from '../events/joiner-events.js';
import { podUnschedulableHints } from '../events/pod-unschedulable-hints.js';
import type { EventPublisher } from '../ports/event-publisher.js';
import type { Log } from '../ports/log.js';
import type { ProvisionResult } from './types.js';

/** Pods named in a hand-over (one PutEvents call): any one wakes a run that plans them all. */
export const MAX_HANDOVER_PODS = 10;

/** What a hand-over needs. */
export interface HandoverDeps {
  readonly log: Log;
  readonly clock: { now(): number };
  /** joiner's bus; without it nothing is handed over (the sweep resumes the claims). */
  readonly events?: EventPublisher;
}

/**
 * Publishes the hand-over of `result` when its run stopped launching (`stopReason`) with pods left
 * and launched something; returns whether it did. Never throws.
 */
export async function handOver(
  deps: HandoverDeps,
  result: ProvisionResult,
  stopReason: string | undefined,
): Promise<boolean> {
  const left = distinct(result.leftForNextRun ?? []);
  if (!deps.events || stopReason === undefined || left.length === 0) return false;
  if (result.launched.length === 0) {
    deps.log.info('provisioning run launched nothing before it stopped, the sweep resumes its pods', {
      reason: stopReason,
      pods: left.length,
    });
    return false;
  }
  const now = deps.clock.now();
  try {
    await deps.events.publish(podUnschedulableHints(left.slice(0, MAX_HANDOVER_PODS), now));
  } catch (error) {
    deps.log.warn('could not hand the rest of the run over, the sweep resumes it', {
      error: (error as Error).message,
    });
    return false;
  }
  deps.log.info('handed the rest of the provisioning run over to a new invocation', {
    reason: stopReason,
    pods: left.length,
  });
  return true;
}

function distinct(pods: readonly PodRefDetail[]): PodRefDetail[] {
  const seen = new Map<string, PodRefDetail>();
  for (const p of pods) if (!seen.has(p.uid)) seen.set(p.uid, p);
  return [...seen.values()];
}
