/**
 * A counting semaphore: at most `limit` holders at once, the rest wait in arrival order. The
 * runner uses it for a function's reserved concurrency (Lambda would throttle; the simulator
 * queues the invocation instead, which delays it the same way a retry after throttling would).
 */
export class Semaphore {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`semaphore limit must be >= 1, got ${limit}`);
  }

  /** Runs `fn` once a slot is free and releases the slot when it settles. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.held >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.held++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.held--;
    }
  }
}
