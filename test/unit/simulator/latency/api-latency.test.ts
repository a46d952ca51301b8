import { describe, expect, it } from 'vitest';
import { type Billing, currentScope } from '../../../../functions/simulator/activity.js';
import { VirtualClock } from '../../../../functions/simulator/clock.js';
import { ApiLatency } from '../../../../functions/simulator/latency/api-latency.js';
import { ComputeLedger } from '../../../../functions/simulator/runner/compute-ledger.js';

/** A call as a service serves it: in a scope carrying the caller's billing (or none). */
interface Served {
  readonly caller?: string;
  readonly call?: number;
}

/** The latencies drawn for `calls` (CreateFleet each), served in the order given. */
async function drawn(calls: readonly Served[]): Promise<number[]> {
  const clock = new VirtualClock();
  const latency = new ApiLatency(clock, 7, undefined, () => true);
  for (const served of calls) {
    await clock.activity.run('sim', async () => {
      const scope = currentScope();
      if (scope && served.caller !== undefined) {
        const billing: Billing = {
          ledger: new ComputeLedger(undefined, served.caller),
          call: served.call ?? 0,
          computeMs: 0,
        };
        scope.billing = billing;
      }
      // The draw is taken before the wait starts; the wait itself is not needed here.
      void latency.wait('ec2', 'CreateFleet');
    });
  }
  return latency.draws().map((d) => d.ms);
}

describe('ApiLatency', () => {
  it("draws a joiner call's latency by its invocation and rank, whatever order the service reads the calls in", async () => {
    const a = { caller: 'provisioner@1000#0', call: 4 };
    const b = { caller: 'provisioner@1000#0', call: 5 };
    const c = { caller: 'disruption@1000#0', call: 4 };
    const [fa, fb, fc] = await drawn([a, b, c]);
    const [rc, ra, rb] = await drawn([c, a, b]);
    expect([ra, rb, rc]).toEqual([fa, fb, fc]);
    // Different calls draw differently (not one shared value).
    expect(new Set([fa, fb, fc]).size).toBe(3);
  });

  it("draws the simulator's own calls from one stream per service and call, in arrival order", async () => {
    const first = await drawn([{}, {}, {}]);
    const again = await drawn([{}, {}, {}]);
    expect(again).toEqual(first);
    expect(new Set(first).size).toBe(3);
  });
});
