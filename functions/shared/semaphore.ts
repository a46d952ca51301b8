/**
 * A FIFO counting semaphore: at most `limit` holders at once, the rest wait in arrival order. The
 * simulator's Lambda runner uses it for a function's reserved concurrency, and the EC2 cloud
 * provider for its launch slots (see adapters/aws/launch-slots.ts).
 */
export class Semaphore {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  /**
   * @param limit holders at once, an integer >= 1.
   * @param what what the limit is, for the error a bad limit gets (e.g. "launch concurrency").
   */
  constructor(
    readonly limit: number,
    what = 'semaphore limit',
  ) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`${what} must be an integer >= 1, got ${limit}`);
  }

  /** Runs `fn` once a slot is free and releases the slot when it settles. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.held >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.held++;
    try {
      return await fn();
    } finally {
      // The slot passes straight to the next in line, so the count of holders stays put.
      const next = this.waiting.shift();
      if (next) next();
      else this.held--;
    }
  }

  /** Holders now. */
  get inFlight(): number {
    return this.held;
  }

  /** Callers waiting for a slot now. */
  get queued(): number {
    return this.waiting.length;
  }
}
