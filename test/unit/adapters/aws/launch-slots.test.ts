import { describe, expect, it } from 'vitest';
import { LaunchSlots } from '../../../../functions/adapters/aws/launch-slots.js';
import { backoffMs } from '../../../../functions/adapters/aws/retry-strategy.js';

describe('LaunchSlots', () => {
  it('runs at most its size at once and the rest in the order they came, a failure freeing its slot', async () => {
    const slots = new LaunchSlots(3);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const releases: Array<() => void> = [];
    const jobs = Array.from({ length: 8 }, (_, i) =>
      slots.run(async () => {
        started.push(i);
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        if (i === 1) throw new Error('launch failed');
        return i;
      }),
    );
    const settled = Promise.allSettled(jobs);
    while (started.length < 8) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(slots.inFlight).toBeLessThanOrEqual(3);
      releases.shift()?.();
    }
    for (const release of releases) release();
    const outcomes = await settled;
    expect(most).toBe(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(outcomes.filter((s) => s.status === 'rejected')).toHaveLength(1);
    expect(slots.inFlight).toBe(0);
    expect(slots.queued).toBe(0);
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new LaunchSlots(0)).toThrow(/launch concurrency must be an integer >= 1, got 0/);
  });
});

describe('retry backoff', () => {
  it("follows the SDK's standard mode: full jitter under 1 s x 2^n for throttling, 50 ms x 2^n otherwise, at most 20 s", () => {
    expect(backoffMs('THROTTLING', 0, 0.5)).toBe(500);
    expect(backoffMs('THROTTLING', 3, 0.5)).toBe(4000);
    expect(backoffMs('THROTTLING', 10, 0.999)).toBe(19_980);
    expect(backoffMs('TRANSIENT', 2, 0.5)).toBe(100);
    expect(backoffMs('THROTTLING', 4, 0)).toBe(0);
  });
});
