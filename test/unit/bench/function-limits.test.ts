import { describe, expect, it } from 'vitest';
import { estimatedMemoryMiB, HELD_PER_BYTE_READ, RESTING_MIB } from '../../../bench/lib/memory-estimate.js';
import { type FunctionRow, limitBreaches } from '../../../bench/lib/scale-row.js';
import { ComputeLedger } from '../../../functions/simulator/runner/compute-ledger.js';
import { InvocationLog } from '../../../functions/simulator/runner/invocation-log.js';

const row = (over: Partial<FunctionRow>): FunctionRow => ({
  name: 'provisioner',
  invocations: 3,
  failed: 0,
  timedOut: 0,
  maxDurationMs: 900_000,
  maxVirtualMs: 12_000,
  timeoutMs: 60_000,
  maxBytesRead: 0,
  maxMemoryMiB: 100,
  memoryMiB: 1024,
  maxHeapMiB: 2048,
  ...over,
});

describe("a function's limits in the scale table", () => {
  it('keeps the longest virtual duration and the most bytes one invocation read', () => {
    const log = new InvocationLog();
    for (const [ms, bytes] of [
      [4_000, 10_000],
      [9_000, 2_000],
      [1_000, 50_000],
    ]) {
      const ledger = new ComputeLedger();
      ledger.chargeBytes(bytes);
      ledger.durationMs = ms;
      log.record('provisioner', 'provisioning', { records: 1, failed: 0 }, Date.now(), undefined, 0, ledger);
    }
    const totals = log.totals().get('provisioner');
    expect(totals).toMatchObject({ invocations: 3, maxVirtualMs: 9_000, maxBytesRead: 50_000 });
  });

  it('estimates memory as the resting footprint plus what was read, held several times over', () => {
    expect(estimatedMemoryMiB(0)).toBe(RESTING_MIB);
    expect(estimatedMemoryMiB(2 ** 20)).toBe(RESTING_MIB + HELD_PER_BYTE_READ);
    expect(() => estimatedMemoryMiB(-1)).toThrow(
      'estimatedMemoryMiB: bytesRead must be a number >= 0, got -1',
    );
  });

  it("judges by virtual time and the estimate, not the host's wall time or the shared process heap", () => {
    expect(limitBreaches([row({})])).toEqual([]);
    expect(limitBreaches([row({ maxVirtualMs: 61_000 })])).toEqual([
      'provisioner: an invocation ran 61000 virtual ms, its timeout is 60000 ms',
    ]);
    expect(limitBreaches([row({ name: 'webhook', maxMemoryMiB: 300.4, memoryMiB: 256 })])).toEqual([
      'webhook: an invocation needed about 300 MiB, it has 256 MiB',
    ]);
    expect(limitBreaches([row({ timedOut: 1, maxVirtualMs: 60_000 })])).toHaveLength(1);
  });
});
