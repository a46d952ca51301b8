/**
 * The provisioning lease: one provisioning run at a time per cluster. A run that finds the lease
 * taken waits for it (runs take well under a second), then plans with the first run's nodeclaims
 * in flight, so it never plans the same pods again. A crashed run frees the lease when it expires.
 *
 * A run that may be absorbed (a batch of pod events: its work is "plan every pending pod") does
 * not wait: it counts a request on the held lease and returns, as a trigger of Karpenter's one
 * provisioning loop is absorbed by the loop in progress. The holder releases only when the count
 * is the one it saw before its last read of the cluster, and otherwise plans again with a fresh
 * read, so it sees the absorbed run's pods (they were pending before the request). A holder that
 * crashes leaves its own batch to be delivered again, and that delivery plans every pending pod.
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

/** A lease taken, and whether it had to be waited for (another run held it). */
export interface AcquiredLease {
  readonly lease: Lease;
  readonly waited: boolean;
}

/** The run in progress took this run's work: it plans every pending pod before it releases. */
export interface AbsorbedRun {
  readonly absorbed: true;
}

/**
 * Takes the lease, waiting up to `waitMs` (in `retryMs` steps); undefined when it stays taken.
 * With `absorb`, a run that finds the lease held asks its holder to run again and returns
 * {@link AbsorbedRun} at once.
 */
export async function acquireProvisioningLease(
  deps: { store: StateStore; clock: Clock; log: Log; sleep: (ms: number) => Promise<void> },
  wait: LeaseWait & { readonly absorb?: boolean },
): Promise<AcquiredLease | AbsorbedRun | undefined> {
  const tries = Math.max(1, Math.ceil(wait.waitMs / wait.retryMs) + 1);
  for (let n = 1; n <= tries; n++) {
    const lease = await deps.store.acquireLease(
      PROVISIONING_LEASE,
      wait.holder,
      deps.clock.now(),
      wait.ttlMs,
    );
    if (lease) return { lease, waited: n > 1 };
    if (wait.absorb) {
      // Taken a moment ago: ask the holder to plan once more; freed since: take it now.
      if (await deps.store.requestLeaseRun(PROVISIONING_LEASE, deps.clock.now())) {
        deps.log.info('the provisioning run in progress plans these pods after it', { holder: wait.holder });
        return { absorbed: true };
      }
      continue;
    }
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
  // Once more on a failure (throttling): a lease left to expire holds the next runs back.
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      await deps.store.releaseLease(lease);
      return;
    } catch (error) {
      if (attempt === 2)
        deps.log.warn('could not release the provisioning lease, it expires on its own', {
          error: (error as Error).message,
        });
    }
  }
}

/** Thrown instead of starting a launch once the run may no longer launch (see {@link LaunchFence}). */
export class LaunchStopped extends Error {
  constructor(reason: string) {
    super(`not starting launches: ${reason}`);
    this.name = 'LaunchStopped';
  }
}

/** What a {@link LaunchFence} needs. */
export interface FenceDeps {
  readonly store: StateStore;
  readonly clock: Clock;
  readonly log: Log;
  /** Wall milliseconds left before the invocation's deadline, when known. */
  readonly remainingMs?: () => number;
}

/** The limits of a {@link LaunchFence}. */
export interface FenceLimits {
  /** TTL of a renewed lease. */
  readonly ttlMs: () => number;
  /** No launch starts with less than this left of the lease or of the invocation. */
  readonly reserveMs: number;
}

/**
 * Guards the start of each launch: a run launches only while it holds the provisioning lease with
 * at least `reserveMs` left (renewing it when it runs low) and while its invocation has at least
 * `reserveMs` left. A run that lost its lease, or an invocation past its deadline that keeps
 * running (a timed-out Lambda), therefore never starts a CreateFleet that another run may repeat:
 * another run can take the lease only after it expired, `reserveMs` after the last launch started.
 * Once it refuses, it keeps refusing.
 */
export class LaunchFence {
  private stopped?: string;

  constructor(
    private readonly deps: FenceDeps,
    private current: Lease,
    private readonly limits: FenceLimits,
  ) {}

  /** The lease as last acquired or renewed (release this one). */
  get lease(): Lease {
    return this.current;
  }

  /** Why launches stopped, if they did. */
  get stopReason(): string | undefined {
    return this.stopped;
  }

  /** Resolves when a launch may start; throws {@link LaunchStopped} otherwise. */
  async check(): Promise<void> {
    if (!this.stopped) this.stopped = await this.refusal();
    if (this.stopped) throw new LaunchStopped(this.stopped);
  }

  private async refusal(): Promise<string | undefined> {
    const { reserveMs } = this.limits;
    const remaining = this.deps.remainingMs?.();
    if (remaining !== undefined && remaining <= reserveMs)
      return `the invocation has ${Math.round(remaining)} ms left`;
    if (this.current.expiresAt - this.deps.clock.now() > reserveMs) return undefined;
    const renewed = await this.deps.store.renewLease(
      this.current,
      this.deps.clock.now(),
      this.limits.ttlMs(),
    );
    if (!renewed) return 'the provisioning lease was taken or released since';
    this.current = renewed;
    return undefined;
  }
}
