/**
 * The provisioning lease: one provisioning run at a time per cluster. A run that finds the lease
 * taken waits for it (runs take well under a second), then plans with the first run's nodeclaims
 * in flight, so it never plans the same pods again. A crashed run frees the lease when it expires.
 */
import type { Clock } from '../ports/clock.js';
import type { Log } from '../ports/log.js';
import type { Lease, StateStore } from '../ports/state-store.js';

/** Name of the lease item. */
export const PROVISIONING_LEASE = 'provisioner';

/** How a run waits for the lease. */
export interface LeaseWait {
  readonly holder: string;
  readonly ttlMs: number;
  readonly waitMs: number;
  readonly retryMs: number;
}

/** Takes the lease, waiting up to `waitMs` (in `retryMs` steps); undefined when it stays taken. */
export async function acquireProvisioningLease(
  deps: { store: StateStore; clock: Clock; log: Log; sleep: (ms: number) => Promise<void> },
  wait: LeaseWait,
): Promise<Lease | undefined> {
  const tries = Math.max(1, Math.ceil(wait.waitMs / wait.retryMs) + 1);
  for (let n = 1; n <= tries; n++) {
    const lease = await deps.store.acquireLease(
      PROVISIONING_LEASE,
      wait.holder,
      deps.clock.now(),
      wait.ttlMs,
    );
    if (lease) return lease;
    if (n === 1) deps.log.debug('waiting for the provisioning run in progress', { holder: wait.holder });
    if (n < tries) await deps.sleep(wait.retryMs);
  }
  return undefined;
}

/** Releases the lease; a failure is logged (the lease expires on its own). */
export async function releaseProvisioningLease(
  deps: { store: StateStore; log: Log },
  lease: Lease,
): Promise<void> {
  try {
    await deps.store.releaseLease(lease);
  } catch (error) {
    deps.log.warn('could not release the provisioning lease, it expires on its own', {
      error: (error as Error).message,
    });
  }
}
