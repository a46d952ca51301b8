/**
 * The passes of one provisioning run: a run that holds the lease plans again, with a fresh read of
 * the cluster, when another run asked for provisioning while it planned (see provisioning-lease.ts).
 * Its result adds up the passes.
 */
import type { ProvisionResult } from './types.js';

/** Passes a lease holder makes at most; a request left after the last one brings its batch back. */
export const MAX_PASSES = 3;

/**
 * One result for two passes of a run: what was written, launched or failed adds up; what was read
 * (pending pods, the oldest one's age, unschedulable pods, invalid documents) is the later pass's,
 * except the hints, which are the run's own; `incomplete` when either pass was.
 */
export function joinPasses(first: ProvisionResult, later: ProvisionResult): ProvisionResult {
  return {
    ...later,
    hints: first.hints,
    staleHints: first.staleHints,
    incomplete: first.incomplete || later.incomplete,
    created: [...first.created, ...later.created],
    launched: [...first.launched, ...later.launched],
    failed: [...first.failed, ...later.failed],
    resumed: [...first.resumed, ...later.resumed],
    cancelled: [...first.cancelled, ...later.cancelled],
    nominated: first.nominated + later.nominated,
    placedOnExisting: first.placedOnExisting + later.placedOnExisting,
    placedOnInFlight: first.placedOnInFlight + later.placedOnInFlight,
    markedUnavailable: [...new Set([...first.markedUnavailable, ...later.markedUnavailable])],
    schedulingMs: first.schedulingMs + later.schedulingMs,
    leftForNextRun: [...(first.leftForNextRun ?? []), ...(later.leftForNextRun ?? [])],
  };
}
