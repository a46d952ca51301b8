/**
 * The runner's invocation log keeps the last 10 000 invocations, oldest first, however many came,
 * and its per-function totals count every one.
 */
import { describe, expect, it } from 'vitest';
import { InvocationLog } from '../../../../functions/simulator/runner/invocation-log.js';

describe('invocation log', () => {
  it('keeps the last 10 000 invocations in order and totals all of them', () => {
    const log = new InvocationLog();
    for (let i = 0; i < 25_001; i++)
      log.record('webhook', 'url', { records: 0, failed: i % 1000 === 0 ? 1 : 0 }, Date.now(), undefined, i);
    const kept = log.invocations;
    expect(kept).toHaveLength(10_000);
    expect(kept[0].startedAt).toBe(15_001);
    expect(kept.at(-1)?.startedAt).toBe(25_000);
    log.record('provisioner', 'schedule', { records: 0, failed: 0 }, Date.now(), new Error('boom'), 25_001);
    expect(log.invocations.at(-1)).toMatchObject({ functionName: 'provisioner', error: 'boom' });
    expect(log.invocations).toHaveLength(10_000);
    expect(log.totals().get('webhook')).toMatchObject({ invocations: 25_001, failed: 26 });
    expect(log.totals().get('webhook')?.maxHeapMiB).toBeGreaterThan(0);
  });
});
