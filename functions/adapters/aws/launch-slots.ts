/**
 * joiner's pacing of its own launches: at most a few launches (CreateFleet and the calls that
 * follow it) are in flight from one function instance at a time, the others wait their turn in
 * order. A 500-node scale-up then neither queues hundreds of requests behind the SDK's 50 sockets
 * nor bursts through EC2's mutating-action bucket (50 requests, 5 a second) in one go: each launch
 * takes about as long as the bucket needs to refill, so the calls arrive near its sustained rate,
 * and the few that are throttled are retried by the SDK with backoff.
 */

/** Launches in flight at once per function instance, by default. */
export const DEFAULT_LAUNCH_CONCURRENCY = 10;

/** A FIFO counting semaphore. */
export class LaunchSlots {
  private busy = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number = DEFAULT_LAUNCH_CONCURRENCY) {
    if (!Number.isInteger(size) || size < 1)
      throw new Error(`launch concurrency must be an integer >= 1, got ${size}`);
  }

  /** Runs `fn` once a slot is free; the slot is freed when it settles. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.busy >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.busy++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.busy--;
    }
  }

  /** Launches in flight now. */
  get inFlight(): number {
    return this.busy;
  }

  /** Launches waiting for a slot now. */
  get queued(): number {
    return this.waiting.length;
  }
}
