/**
 * The disruption function's sweep (every minute) and its timer wake-ups (timers queue): due
 * timers first, then the orphan GC, then the safety net, so pods a timeout released are offered
 * to the provisioner in the same minute.
 */
import type { PodRefDetail } from '../events/joiner-events.js';
import type { TimerOutcome } from './due-timers.js';
import { actOnDueTimers } from './due-timers.js';
import type { OrphanOutcome } from './orphans.js';
import { collectOrphans } from './orphans.js';
import { republishUnschedulable } from './safety-net.js';
import type { SweepDeps } from './sweep-deps.js';
import { sweepSettings } from './sweep-deps.js';

/** What one sweep did. */
export interface SweepOutcome {
  readonly timers: readonly TimerOutcome[];
  readonly orphans: OrphanOutcome;
  readonly republished: readonly PodRefDetail[];
}

/** A timers-queue message: wake up `nodeClaimId` at `dueAt`. */
export interface TimerMessage {
  readonly nodeClaimId: string;
  readonly dueAt: number;
}

/** Runs one sweep (see the file comment). One failing claim does not stop the others. */
export async function runSweep(deps: SweepDeps): Promise<SweepOutcome> {
  const due = await deps.store.listDueNodeClaims(deps.clock.now(), sweepSettings(deps).dueLimit);
  const timers: TimerOutcome[] = [];
  for (const claim of due) {
    try {
      timers.push(await actOnDueTimers(deps, claim.id));
    } catch (error) {
      deps.log.error('failed to act on nodeclaim timers', { nodeclaim: claim.id, error: String(error) });
    }
  }
  const orphans = await collectOrphans(deps);
  const republished = await republishUnschedulable(deps);
  return { timers, orphans, republished };
}

/**
 * Acts on the due timers of the claim a timers-queue message names. A message that arrives early
 * (clock skew) or for a claim whose timer moved finds nothing due and does nothing; the sweep
 * catches what is due later.
 */
export async function handleTimerMessage(deps: SweepDeps, message: TimerMessage): Promise<TimerOutcome> {
  return actOnDueTimers(deps, message.nodeClaimId);
}
