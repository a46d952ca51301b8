/**
 * The simulated cloud's one virtual clock and seeded random source. Everything the simulation
 * models is a timer on this clock: instance boots and state changes, kubelet stages, spot notices,
 * SQS delays, visibility timeouts and batching windows, Lambda timeouts, EventBridge schedules and
 * the modeled latency of every AWS call.
 *
 * Manual mode (tests): time moves only by {@link VirtualClock.advance}.
 *
 * Auto mode ({@link VirtualClock.startAuto}) is a discrete-event clock driven by {@link Activity}:
 * while a joiner handler computes or the simulator works, virtual time stands still — joiner's
 * compute is charged by a modeled cost instead (runner/compute-ledger.ts: it waits its cost in
 * virtual time before its next call takes effect), so how busy the host is changes the wall time of
 * a run, never its virtual times or decisions; when everything waits on timers, virtual time runs
 * at `speed` x wall time towards the next timer (or jumps, at speed Infinity). So `speed` changes
 * the wall time a run takes, not what happens in it.
 */
import { seededRandom } from '../core/scheduling/seeded-random.js';
import { Activity, outsideScopes } from './activity.js';

interface Timer {
  readonly id: number;
  readonly due: number;
  readonly fn: () => void;
}

/** A handle to cancel a timer. */
export type TimerHandle = number;

/** Wall milliseconds without any change after which a frozen simulation is treated as waiting. */
const STALL_MS = 1000;
/**
 * Consecutive idle {@link STALL_MS} windows after which the same joiner scopes "computing" count
 * as waiting: longer than the wall-time waits joiner's code may still make inside an invocation
 * (a provisioning lease wait polls for at most a few wall seconds), which hold time still.
 */
const JOINER_STALL_WINDOWS = 10;

/**
 * The stall safety net's wall timings (see {@link VirtualClock}'s stall check). The defaults are
 * the simulator's; a test of the safety net itself may shorten them so it need not sit idle for
 * ten wall seconds.
 */
export interface StallTimings {
  /** Wall milliseconds of one idle window. Default 1,000. */
  readonly windowMs?: number;
  /** Idle windows in a row after which the same joiner scopes "computing" count as waiting. Default 10. */
  readonly joinerWindows?: number;
}

export class VirtualClock {
  private current: number;
  private timers: Timer[] = [];
  private nextId = 1;
  private speed?: number;
  /** Virtual ms per wall ms right now (auto mode). */
  private rate = 0;
  private anchorWall = 0;
  private wallTimer?: { cancel(): void };
  private stallTimer?: NodeJS.Timeout;
  private stalled = false;
  /** Joiner scopes seen "computing" with an idle event loop: they wait on something unseen. */
  private joinerStalled?: number;
  /** Idle stall-check windows in a row with the same joiner scopes computing. */
  private joinerIdle = { level: 0, windows: 0 };
  private state: 'joiner' | 'simulator' | 'waiting' = 'waiting';
  /** Holds of {@link quiet} callers that act at the instant they were given. */
  private holds = 0;
  private quietWaiters: Array<(release: () => void) => void> = [];
  /** Callers of {@link whenAuto} waiting for auto mode. */
  private autoWaiters: Array<() => void> = [];
  private stateSince = 0;
  /** What the simulation is doing (drives auto mode). */
  readonly activity: Activity;
  /** Wall milliseconds auto mode spent with joiner computing, the simulator working, and waiting. */
  readonly wallSplit = { joiner: 0, simulator: 0, waiting: 0, stalls: 0 };

  private readonly stallMs: number;
  private readonly joinerStallWindows: number;

  constructor(startMs = Date.UTC(2026, 0, 1), stall: StallTimings = {}) {
    this.current = startMs;
    this.stallMs = positive(stall.windowMs ?? STALL_MS, 'stall windowMs');
    this.joinerStallWindows = positive(stall.joinerWindows ?? JOINER_STALL_WINDOWS, 'stall joinerWindows');
    this.activity = new Activity(() => this.onActivity());
  }

  /** Current virtual time in epoch milliseconds. */
  now(): number {
    if (this.rate === 0 || !Number.isFinite(this.rate)) return this.current;
    const moved = this.current + (performance.now() - this.anchorWall) * this.rate;
    // Never past a timer that has not fired yet: what it starts happens at its due time.
    const due = this.timers[0]?.due;
    return Math.floor(due === undefined ? moved : Math.min(moved, due));
  }

  /** Runs `fn` once the virtual time reaches now + `delayMs`. */
  setTimeout(fn: () => void, delayMs: number): TimerHandle {
    const timer = { id: this.nextId++, due: this.now() + Math.max(0, delayMs), fn };
    const at = this.timers.findIndex((t) => t.due > timer.due);
    if (at === -1) this.timers.push(timer);
    else this.timers.splice(at, 0, timer);
    if (this.timers[0] === timer) this.reschedule();
    return timer.id;
  }

  /** Resolves after `ms` of virtual time (the current activity scope counts as waiting meanwhile). */
  sleep(ms: number): Promise<void> {
    return this.activity.outside(new Promise<void>((resolve) => this.setTimeout(resolve, ms)));
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /**
   * Resolves once nothing computes or works (everything waits on timers), with virtual time held at
   * that instant until the returned `release` is called: a scenario step starts its action there
   * and releases, so it acts at the same virtual time, on the same state, on an idle or a busy
   * host. Call it when time stands still (after a timer of this clock fired, or after a release);
   * manual mode resolves at once.
   */
  quiet(): Promise<() => void> {
    if (this.speed === undefined) return Promise.resolve(() => undefined);
    return new Promise((resolve) => {
      this.quietWaiters.push(resolve);
      this.activity.poke();
    });
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
      outsideScopes(timer.fn);
      await yieldToEventLoop();
    }
    this.current = target;
    await yieldToEventLoop();
  }

  /**
   * Auto mode: virtual time runs by itself, as described above; `speed` is the rate of virtual to
   * wall time while everything waits (Infinity: jump straight to the next timer).
   */
  startAuto(speed: number): void {
    if (!(speed > 0)) throw new Error(`clock speed must be positive, got ${speed}`);
    this.stopAuto();
    this.speed = speed;
    this.anchorWall = performance.now();
    this.stateSince = this.anchorWall;
    // Time holds until what the switch wakes (see whenAuto) has settled, so it starts at this instant.
    for (const resolve of this.autoWaiters.splice(0)) resolve();
    this.activity.poke();
  }

  /**
   * Resolves when auto mode starts (at once if it runs): work begun on wall time before the
   * simulation started (a batching window opened while the scenario was being set up) moves onto
   * the virtual clock there, at the instant the simulation starts, whatever the host's load.
   */
  whenAuto(): Promise<void> {
    if (this.speed !== undefined) return Promise.resolve();
    return new Promise((resolve) => this.autoWaiters.push(resolve));
  }

  stopAuto(): void {
    for (const resolve of this.quietWaiters.splice(0)) resolve(() => undefined);
    this.holds = 0;
    this.joinerStalled = undefined;
    this.setRate(0);
    this.speed = undefined;
    this.wallTimer?.cancel();
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.wallTimer = undefined;
    this.stallTimer = undefined;
  }

  /** The speed of auto mode, undefined in manual mode. */
  get autoSpeed(): number | undefined {
    return this.speed;
  }

  private onActivity(): void {
    if (this.speed === undefined) return;
    const { joinerBusy: busy, simBusy, joinerLevel } = this.activity;
    // A joiner stall lasts while the same scopes compute: one starting, ending or waiting ends it.
    if (this.joinerStalled !== undefined && this.joinerStalled !== joinerLevel)
      this.joinerStalled = undefined;
    const joinerBusy = busy && this.joinerStalled === undefined;
    this.stalled = this.stalled && simBusy && !joinerBusy;
    if (joinerBusy || (simBusy && !this.stalled)) {
      if (!this.stallTimer) this.armStallCheck();
    } else {
      if (this.stallTimer) clearTimeout(this.stallTimer);
      this.stallTimer = undefined;
    }
    let state: typeof this.state = joinerBusy ? 'joiner' : simBusy && !this.stalled ? 'simulator' : 'waiting';
    if (state === 'waiting' && this.quietWaiters.length > 0) this.serveQuiet();
    if (this.holds > 0 && state === 'waiting') state = 'simulator';
    const wall = performance.now();
    this.wallSplit[this.state] += wall - this.stateSince;
    this.state = state;
    this.stateSince = wall;
    this.setRate(state === 'waiting' ? this.speed : 0);
  }

  /** Gives the waiting {@link quiet} callers the instant, holding time until each releases. */
  private serveQuiet(): void {
    for (const resolve of this.quietWaiters.splice(0)) {
      this.holds++;
      let released = false;
      resolve(() => {
        if (released) return;
        released = true;
        this.holds--;
        // What the caller started is work to settle before time may run on.
        this.activity.poke();
      });
    }
  }

  /**
   * A safety net: the simulator "working" for one stall window of wall time ({@link StallTimings}),
   * or the same joiner scopes "computing" for a number of them, with an idle event loop are waiting on something
   * this clock does not see (a joiner scope awaiting a virtual timer without suspending, say);
   * then time runs (and the stall is counted) rather than hang. Joiner's function timeouts are
   * virtual, so nothing else would end such a wait.
   */
  private armStallCheck(): void {
    const before = performance.eventLoopUtilization();
    this.stallTimer = setTimeout(() => {
      this.stallTimer = undefined;
      const { utilization } = performance.eventLoopUtilization(before);
      const { joinerBusy, joinerLevel } = this.activity;
      const idle = this.joinerIdle;
      if (utilization > 0.2 || !joinerBusy || joinerLevel !== idle.level) idle.windows = 0;
      idle.level = joinerLevel;
      if (utilization > 0.2) {
        this.onActivity();
        return;
      }
      if (joinerBusy && this.joinerStalled === undefined) {
        if (++idle.windows < this.joinerStallWindows) {
          this.onActivity();
          return;
        }
        this.joinerStalled = joinerLevel;
      } else this.stalled = true;
      this.wallSplit.stalls++;
      this.onActivity();
    }, this.stallMs);
    this.stallTimer.unref();
  }

  private setRate(rate: number): void {
    if (rate === this.rate) return;
    this.current = this.now();
    this.anchorWall = performance.now();
    this.rate = rate;
    this.reschedule();
  }

  private reschedule(): void {
    if (this.speed === undefined) return;
    this.wallTimer?.cancel();
    this.wallTimer = undefined;
    const next = this.timers[0];
    if (!next || this.rate === 0) return;
    const wait = Number.isFinite(this.rate) ? Math.max(0, (next.due - this.now()) / this.rate) : 0;
    // Node's timers wait at least 1 ms: a sooner timer fires on the next turn of the event loop.
    this.wallTimer = outsideScopes(() => {
      if (wait < 1) {
        const immediate = setImmediate(() => this.fireDue());
        return { cancel: () => clearImmediate(immediate) };
      }
      const timeout = setTimeout(() => this.fireDue(), wait);
      return { cancel: () => clearTimeout(timeout) };
    });
  }

  private fireDue(): void {
    this.wallTimer = undefined;
    const next = this.timers[0];
    if (!next || this.speed === undefined) return;
    const moved = this.current + (performance.now() - this.anchorWall) * this.rate;
    if (moved < next.due && Number.isFinite(this.rate) && this.rate > 0) {
      this.reschedule();
      return;
    }
    this.current = next.due;
    this.anchorWall = performance.now();
    // What the timers start is the simulator's until it settles: time holds at their due time.
    this.rate = 0;
    this.activity.poke();
    while (this.timers.length > 0 && this.timers[0].due <= this.current) {
      const timer = this.timers.shift()!;
      try {
        outsideScopes(timer.fn);
      } catch {
        // A timer's failure is its owner's business; the clock goes on.
      }
    }
    this.reschedule();
  }
}

function positive(value: number, what: string): number {
  if (!(value > 0) || !Number.isFinite(value))
    throw new Error(`clock ${what} must be a positive number, got ${value}`);
  return value;
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
