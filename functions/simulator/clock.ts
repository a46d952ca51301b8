/**
 * The simulated cloud's virtual clock and seeded random source. Every simulated delay (instance
 * boot, node registration, spot interruption notice, EventBridge schedules) is a timer on this
 * clock, so tests can run minutes of cloud time in milliseconds, repeatably.
 */
import { seededRandom } from '../core/scheduling/seeded-random.js';

interface Timer {
  readonly id: number;
  readonly due: number;
  readonly fn: () => void;
}

/** A handle to cancel a timer. */
export type TimerHandle = number;

export class VirtualClock {
  private current: number;
  private timers: Timer[] = [];
  private nextId = 1;
  private auto?: NodeJS.Timeout;

  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.current = startMs;
  }

  /** Current virtual time in epoch milliseconds. */
  now(): number {
    return this.current;
  }

  /** Runs `fn` once the virtual time reaches now + `delayMs`. */
  setTimeout(fn: () => void, delayMs: number): TimerHandle {
    const timer = { id: this.nextId++, due: this.current + Math.max(0, delayMs), fn };
    const at = this.timers.findIndex((t) => t.due > timer.due);
    if (at === -1) this.timers.push(timer);
    else this.timers.splice(at, 0, timer);
    return timer.id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** Number of timers waiting. */
  pending(): number {
    return this.timers.length;
  }

  /** Due time of the next timer, if any. */
  nextDue(): number | undefined {
    return this.timers[0]?.due;
  }

  /**
   * Moves virtual time forward by `ms`, firing due timers in order. Between timers it yields to
   * the event loop so that real I/O (HTTP calls on loopback) triggered by a timer can progress.
   */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    while (this.timers.length > 0 && this.timers[0].due <= target) {
      const timer = this.timers.shift()!;
      this.current = Math.max(this.current, timer.due);
      timer.fn();
      await yieldToEventLoop();
    }
    this.current = target;
    await yieldToEventLoop();
  }

  /**
   * Lets virtual time follow wall time at `speed` x (e.g. 20 = twenty virtual seconds per real
   * second), ticking every `tickMs` of wall time. Used by `joiner simulate` and `joiner sim up`.
   */
  startAuto(speed: number, tickMs = 10): void {
    this.stopAuto();
    let running = false;
    this.auto = setInterval(() => {
      if (running) return;
      running = true;
      void this.advance(tickMs * speed).finally(() => {
        running = false;
      });
    }, tickMs);
    this.auto.unref();
  }

  stopAuto(): void {
    if (this.auto) clearInterval(this.auto);
    this.auto = undefined;
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A small, fast, seeded PRNG (mulberry32): the same seed gives the same simulated cloud. */
export class SeededRandom {
  /** A float in [0, 1). */
  readonly next: () => number;

  constructor(seed = 1) {
    this.next = seededRandom(seed);
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A delay with jitter: `base` plus a uniform random part in [0, jitter]. */
  delay(base: number, jitter: number): number {
    return base + this.next() * jitter;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
}
