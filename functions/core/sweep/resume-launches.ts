/**
 * Crash recovery from the sweep: a Pending nodeclaim that no provisioning run is launching any more
 * (its run crashed, timed out or lost its lease) is resumed by a provisioning run the sweep starts,
 * under the provisioning lease: it adopts the instance a crashed attempt left (found by its
 * nodeclaim tag), else replays the recorded attempt with its ClientToken, else launches anew. So a
 * crash costs at most a minute or two, not the launch timeout plus the queue's redelivery delay,
 * and the redelivered batch finds its pods waiting for launched claims.
 */
import { provision } from '../provisioning/provision.js';
import type { SweepDeps } from './sweep-deps.js';

/** A Pending claim older than this is no longer being launched by the run that wrote it. */
export const STALLED_LAUNCH_MS = 60_000;
/** How long the sweep waits for the provisioning lease (a run holding it resumes the claims itself). */
const LEASE_WAIT_MS = 2_000;

/** What resuming stalled launches did. */
export interface ResumeOutcome {
  /** Stalled Pending claims found. */
  readonly stalled: readonly string[];
  /** Claims the sweep's provisioning run resumed. */
  readonly resumed: readonly string[];
  /** True when another run held the provisioning lease (it resumes them) or the run failed. */
  readonly deferred: boolean;
}

const NOTHING: ResumeOutcome = { stalled: [], resumed: [], deferred: false };

/** Resumes the stalled launches (see the file comment). Never throws: the next sweep tries again. */
export async function resumeStalledLaunches(deps: SweepDeps): Promise<ResumeOutcome> {
  const now = deps.clock.now();
  let stalled: string[];
  try {
    const pending = await deps.store.listNodeClaims(['Pending']);
    stalled = pending
      .filter((c) => now - (c.timestamps.Pending ?? now) >= STALLED_LAUNCH_MS)
      .map((c) => c.id);
  } catch (error) {
    deps.log.warn('could not list pending nodeclaims', { error: (error as Error).message });
    return NOTHING;
  }
  if (stalled.length === 0) return NOTHING;
  deps.log.info('resuming stalled nodeclaim launch(es)', { nodeclaims: stalled });
  try {
    const result = await provision(deps, {
      hints: [],
      options: { holder: `sweep-${now}`, leaseWaitMs: LEASE_WAIT_MS },
    });
    return { stalled, resumed: result.resumed, deferred: result.deferred };
  } catch (error) {
    deps.log.warn('resuming stalled launches failed, the next sweep tries again', {
      nodeclaims: stalled,
      error: (error as Error).message,
    });
    return { stalled, resumed: [], deferred: true };
  }
}
