import { afterEach, describe, expect, it } from 'vitest';
import { type StallTimings, VirtualClock } from '../../../functions/simulator/clock.js';

const clocks: VirtualClock[] = [];
const autoClock = (speed: number, stall?: StallTimings): VirtualClock => {
  const clock = new VirtualClock(0, stall);
  clock.startAuto(speed);
  clocks.push(clock);
  return clock;
};
afterEach(() => {
  for (const clock of clocks.splice(0)) clock.stopAuto();
});

const spin = (ms: number): void => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // joiner computing
  }
};
const wall = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('VirtualClock in auto mode', () => {
  it('runs at its speed while everything waits, firing timers at their due time in order', async () => {
    const clock = autoClock(10_000);
    const fired: Array<[string, number]> = [];
    // Held still (the simulator "works") while the timers are set, so that they share one now.
    const setup = clock.activity.open('sim');
    const t0 = clock.now();
    clock.setTimeout(() => fired.push(['b', clock.now()]), 120_000);
    clock.setTimeout(() => fired.push(['a', clock.now()]), 60_000);
    const done = clock.sleep(150_000);
    setup.end();
    const started = performance.now();
    await done;
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(fired).toEqual([
      ['a', t0 + 60_000],
      ['b', t0 + 120_000],
    ]);
  });

  it('holds still while joiner computes: its compute is charged by the model, not the wall clock', async () => {
    const clock = autoClock(1_000);
    clock.setTimeout(() => undefined, 3_600_000);
    await clock.activity.run('joiner', async () => {
      const before = clock.now();
      spin(50);
      expect(clock.now()).toBe(before);
    });
  });

  it('holds still while the simulator works, and lets a joiner scope that waits for it count as waiting', async () => {
    const clock = autoClock(1_000);
    clock.setTimeout(() => undefined, 3_600_000);
    const work = clock.activity.open('sim');
    await wall(5);
    const frozen = clock.now();
    await wall(60);
    expect(clock.now()).toBe(frozen);
    work.end();
    // A joiner scope waiting on a modeled latency (clock.sleep) lets time run at speed.
    await clock.activity.run('joiner', async () => {
      const before = clock.now();
      await clock.sleep(30_000);
      const waited = clock.now() - before;
      expect(waited).toBeGreaterThanOrEqual(30_000);
      expect(waited).toBeLessThan(30_050);
    });
  });

  it('lets time run when a joiner scope "computes" with an idle event loop: it waits on something the clock does not see', async () => {
    // The simulator's stall windows are 1 s (ten of them for a joiner scope); shortened here to
    // 100 ms so that the safety net fires after one idle wall second instead of ten.
    const clock = autoClock(Number.POSITIVE_INFINITY, { windowMs: 100 });
    // A joiner scope awaiting a virtual timer without suspending would freeze time forever
    // (joiner's function timeouts are virtual too); after ten idle windows it counts as waiting.
    const waited = await clock.activity.run('joiner', async () => {
      const before = clock.now();
      await new Promise<void>((resolve) => clock.setTimeout(resolve, 10_000));
      return clock.now() - before;
    });
    expect(waited).toBe(10_000);
    expect(clock.wallSplit.stalls).toBeGreaterThanOrEqual(1);
    // A scope that computes (a busy event loop) still holds time still, for longer than ten windows.
    await clock.activity.run('joiner', async () => {
      clock.setTimeout(() => undefined, 60_000);
      const before = clock.now();
      for (let i = 0; i < 15; i++) {
        spin(100);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(clock.now()).toBe(before);
    });
  }, 15_000);

  it('refuses stall timings that are not positive, naming them', () => {
    expect(() => new VirtualClock(0, { windowMs: 0 })).toThrow(
      /stall windowMs must be a positive number, got 0/,
    );
    expect(() => new VirtualClock(0, { joinerWindows: Number.NaN })).toThrow(/stall joinerWindows/);
    expect(() => new VirtualClock(0, { windowMs: Number.POSITIVE_INFINITY })).toThrow(/stall windowMs/);
  });

  it('keeps manual mode manual: time moves only by advance()', async () => {
    const clock = new VirtualClock(0);
    let fired = false;
    clock.setTimeout(() => {
      fired = true;
    }, 1_000);
    await wall(20);
    expect(clock.now()).toBe(0);
    await clock.advance(1_000);
    expect(fired).toBe(true);
    expect(() => clock.startAuto(0)).toThrow(/speed must be positive/);
  });
});
