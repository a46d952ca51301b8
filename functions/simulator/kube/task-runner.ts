/**
 * Runs the simulated control plane's asynchronous writes one after another, so that timers and
 * watch reactions never interleave their read-modify-write cycles, and so that `close()` can wait
 * for the work in progress. Failures are kept (for tests and diagnostics), never thrown at a timer.
 */
import type { Activity } from '../activity.js';

export class TaskRunner {
  private tail: Promise<void> = Promise.resolve();
  private closed = false;
  private queued = 0;
  /** Errors of failed tasks, newest last (bounded). */
  readonly errors: string[] = [];

  /** With `activity`, a running task counts as the simulator's work (virtual time holds). */
  constructor(private readonly activity?: Activity) {}

  /** Queues `task`; it runs after the tasks queued before it. */
  run(name: string, task: () => Promise<void>): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.queued++;
    const activity = this.activity;
    const body = async (): Promise<void> => {
      if (!this.closed) await task();
    };
    this.tail = this.tail.then(async () => {
      try {
        // A running task is the simulator's work (not while it waits, e.g. on an admission webhook).
        await (activity ? activity.run('sim', body, true) : body());
      } catch (err) {
        this.errors.push(`${name}: ${(err as Error)?.message ?? String(err)}`);
        if (this.errors.length > 100) this.errors.shift();
      } finally {
        this.queued--;
      }
    });
    return this.tail;
  }

  /** Resolves when every queued task has finished. */
  idle(): Promise<void> {
    return this.tail;
  }

  /** Stops accepting tasks and waits for the running one. */
  async close(): Promise<void> {
    this.closed = true;
    await this.tail;
  }

  /** Whether tasks are queued or running. */
  get busy(): boolean {
    return this.queued > 0;
  }

  get isClosed(): boolean {
    return this.closed;
  }
}
