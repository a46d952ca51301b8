/**
 * The chaos run's waits on the virtual clock: each check happens at a virtual instant (every
 * {@link POLL_MS} of virtual time), so a run's moments (when the records are deleted, when each spot
 * instance is interrupted, when a condition is seen to hold) are the same at any clock speed and
 * on any host load, and the clock may jump from timer to timer (speed Infinity) between them.
 */
import type { SimulatedCloud } from '../../../functions/simulator/cloud.js';
import { conditionCheck, HOLD_MS, type WaitTarget } from '../../../functions/simulator/scenario/waits.js';

/** Virtual milliseconds between two checks of a condition. */
export const POLL_MS = 250;

/** Waits exactly `ms` of virtual time. */
export function sleepVirtual(cloud: SimulatedCloud, ms: number): Promise<void> {
  return ms > 0 ? cloud.clock.sleep(ms) : Promise.resolve();
}

/**
 * Waits until `target` has held for its hold time (HOLD_MS) or `timeoutMs` of virtual time has
 * passed; resolves true when it held.
 */
export async function holdsWithin(
  cloud: SimulatedCloud,
  target: WaitTarget,
  timeoutMs: number,
): Promise<boolean> {
  const check = conditionCheck(target);
  const deadline = cloud.clock.now() + timeoutMs;
  let since: number | undefined;
  for (;;) {
    const now = cloud.clock.now();
    if (check(cloud)) {
      since ??= now;
      if (now - since >= HOLD_MS[target.for]) return true;
    } else since = undefined;
    if (now >= deadline) return false;
    await cloud.clock.sleep(POLL_MS);
  }
}
