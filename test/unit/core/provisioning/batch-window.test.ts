import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../functions/core/model/kube-objects.js';
import { silentLog } from '../../../../functions/core/ports/log.js';
import {
  batchEvents,
  type GatherDeps,
  gatherPods,
  parseBatchWindow,
} from '../../../../functions/core/provisioning/batch-window.js';

/** A fake wall clock and API server: `arrivals` are the times (ms) pods turn pending. */
function world(arrivals: readonly number[], start = 0, failList = false) {
  let now = start;
  let lists = 0;
  const deps: GatherDeps = {
    cluster: {
      listPendingPods: async () => {
        lists++;
        if (failList) throw new Error('503 from the API server');
        return arrivals
          .map((t, i) => ({ t, i }))
          .filter(({ t }) => t <= now)
          .map(({ i }) => ({ metadata: { name: `p${i}`, namespace: 'default', uid: `u${i}` } }) as Pod);
      },
    },
    log: silentLog,
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
  };
  return { deps, at: () => now, lists: () => lists };
}

const window = { idleMs: 1_000, maxMs: 10_000 };

describe('gatherPods (Karpenter-like batch window)', () => {
  it('does not wait, nor list pods, when the last event is already idle-old', async () => {
    const w = world([0], 1_500);
    const r = await gatherPods(w.deps, window, { firstMs: 0, lastMs: 500 });
    expect(r).toEqual({ waitedMs: 0, newPods: 0, closedBy: 'idle' });
    expect(w.lists()).toBe(0);
  });

  it('waits until 1 s passes without a new pod', async () => {
    // Pods arrive every 200 ms until 3 s; the run was invoked at 1 s with events of 0..0.9 s.
    const arrivals = Array.from({ length: 16 }, (_, i) => i * 200);
    const w = world(arrivals, 1_000);
    const r = await gatherPods(w.deps, window, { firstMs: 0, lastMs: 900 });
    expect(r.closedBy).toBe('idle');
    expect(r.newPods).toBe(10);
    // The last pod came at 3.0 s and was seen by a poll at most 250 ms later.
    expect(w.at()).toBeGreaterThanOrEqual(4_000);
    expect(w.at()).toBeLessThanOrEqual(4_250);
  });

  it('closes at the maximum when pods keep coming', async () => {
    const arrivals = Array.from({ length: 200 }, (_, i) => i * 100);
    const w = world(arrivals, 1_000);
    const r = await gatherPods(w.deps, window, { firstMs: 0, lastMs: 1_000 });
    expect(r.closedBy).toBe('max');
    expect(w.at()).toBe(10_000);
  });

  it('counts send times ahead of its clock as now: the window lasts idle from the start, never the whole deadline', async () => {
    // Sent at 900 s on another clock; this run's clock reads 1 s: pods arrive until 2.6 s.
    const arrivals = Array.from({ length: 9 }, (_, i) => 1_000 + i * 200);
    const w = world(arrivals, 1_000);
    const r = await gatherPods({ ...w.deps, deadline: 60_000 }, window, {
      firstMs: 900_000,
      lastMs: 900_000,
    });
    expect(r.closedBy).toBe('idle');
    expect(w.at()).toBeGreaterThanOrEqual(3_600);
    expect(w.at()).toBeLessThanOrEqual(3_850);
    const endless = world(
      Array.from({ length: 400 }, (_, i) => 1_000 + i * 100),
      1_000,
    );
    const capped = await gatherPods({ ...endless.deps, deadline: 60_000 }, window, {
      firstMs: 900_000,
      lastMs: 900_000,
    });
    expect(capped.closedBy).toBe('max');
    expect(endless.at()).toBe(11_000);
  });

  it('never outlasts the deadline', async () => {
    const arrivals = Array.from({ length: 200 }, (_, i) => i * 100);
    const w = world(arrivals, 1_000);
    const r = await gatherPods({ ...w.deps, deadline: 4_000 }, window, { firstMs: 0, lastMs: 1_000 });
    expect(r.closedBy).toBe('deadline');
    expect(w.at()).toBe(4_000);
  });

  it('does not wait when no pod is pending (the hints are stale)', async () => {
    const w = world([5_000], 100);
    const r = await gatherPods(w.deps, window, { firstMs: 0, lastMs: 100 });
    expect(r).toEqual({ waitedMs: 0, newPods: 0, closedBy: 'idle' });
    expect(w.lists()).toBe(1);
  });

  it('plans at once when the API server fails (the run reports the error)', async () => {
    const w = world([0], 100, true);
    const r = await gatherPods(w.deps, window, { firstMs: 0, lastMs: 100 });
    expect(r.closedBy).toBe('idle');
    expect(w.lists()).toBe(1);
  });

  it('is disabled by an idle time of 0', async () => {
    const w = world([0], 0);
    expect((await gatherPods(w.deps, { idleMs: 0, maxMs: 0 }, { firstMs: 0, lastMs: 0 })).waitedMs).toBe(0);
    expect(w.lists()).toBe(0);
  });
});

describe('batchEvents and parseBatchWindow', () => {
  it('spans the valid send times of a batch', () => {
    expect(batchEvents([3, 1, Number.NaN, 2])).toEqual({ firstMs: 1, lastMs: 3 });
    expect(batchEvents([Number.NaN])).toBeUndefined();
  });

  const where = { idle: 'IDLE', max: 'MAX' };
  it('defaults to 1 s / 10 s and reads seconds as text or numbers', () => {
    expect(parseBatchWindow(undefined, '', where)).toEqual({ idleMs: 1_000, maxMs: 10_000 });
    expect(parseBatchWindow(' 0.25 ', 2, where)).toEqual({ idleMs: 250, maxMs: 2_000 });
  });

  it.each([
    ['abc', undefined, /^IDLE must be seconds in 0\.\.30 \(got "abc"\)/],
    ['-5', undefined, /^IDLE must be seconds in 0\.\.30 \(got "-5"\)/],
    [undefined, '1e30', /^MAX must be seconds in 0\.\.30 \(got "1e30"\)/],
    [undefined, true, /^MAX must be seconds in 0\.\.30 \(got true\)/],
    ['5', '2', /^IDLE \(5 s\) must not exceed MAX \(2 s\)/],
  ])('rejects idle %j / max %j, naming the setting', (idle, max, message) => {
    expect(() => parseBatchWindow(idle, max, where)).toThrow(message);
  });
});
