/**
 * Waking the drains that wait for a replacement: a drain whose pods wait for nodeclaims still
 * booting steps rarely (a long safety re-check, see DisruptionSettings.replacementRecheckMs) and
 * writes its id on those nodeclaims (`wakesDrains`, disruption/replacements.ts). When the
 * lifecycle initializes one of them, it moves each such drain's `drainStep` timer to now with a
 * conditional write and sends its wake-up, so the drain evicts within moments of its last
 * replacement coming up instead of at its next re-check.
 *
 * Idempotent: only the invocation whose write moved a claim to Initialized wakes (a duplicate
 * NodeReady finds it Initialized already), a drain already due is not written again, and the
 * drain's own step takes its timer with a conditional write, so of two wake-ups one step acts. A
 * wake lost to a crash is made good by the drain's re-check.
 */
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { withTimer } from '../nodeclaim/state-machine.js';
import type { LifecycleDeps } from './lifecycle-deps.js';
import { updateClaim } from './update-claim.js';

/**
 * Wakes the drains `replacement` lists as waiting for it; called by the caller whose write just
 * moved it to Initialized.
 */
export async function wakeWaitingDrains(
  deps: Pick<LifecycleDeps, 'clock' | 'log' | 'store' | 'timers'>,
  replacement: NodeClaim,
): Promise<string[]> {
  const woken: string[] = [];
  for (const id of replacement.wakesDrains ?? []) {
    if (await wakeDrain(deps, id)) woken.push(id);
  }
  if (woken.length > 0)
    deps.log.debug('woke drains waiting for their replacement', {
      nodeclaim: replacement.id,
      state: replacement.state,
      drains: woken,
    });
  return woken;
}

/**
 * Moves the drainStep timer of the drain `id` to now when it waits for its replacements and is
 * not due yet, and sends its wake-up; false when there was nothing to wake (not draining any
 * more, evicting already, or due already: a step is on its way).
 */
export async function wakeDrain(
  deps: Pick<LifecycleDeps, 'clock' | 'store' | 'timers'>,
  id: string,
): Promise<boolean> {
  const now = deps.clock.now();
  let moved = false;
  await updateClaim(deps.store, id, (c) => {
    const due = c.timers.drainStep;
    moved = c.state === 'Draining' && c.disruption?.phase === 'replacing' && due !== undefined && due > now;
    return moved ? withTimer(c, 'drainStep', now) : undefined;
  });
  if (moved) await deps.timers.schedule(id, now);
  return moved;
}
