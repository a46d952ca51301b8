import { describe, expect, it } from 'vitest';
import { type Billing, currentScope } from '../../../../functions/simulator/activity.js';
import { VirtualClock } from '../../../../functions/simulator/clock.js';
import { ApiLatency } from '../../../../functions/simulator/latency/api-latency.js';
import { ComputeLedger } from '../../../../functions/simulator/runner/compute-ledger.js';

/** A call as a service serves it: in a scope carrying the caller's billing (or none). */
interface Served {
  readonly caller?: string;
  readonly request?: string;
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
          ...(served.request ? { request: served.request } : {}),
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

  it('draws by what the request is and its rank among the same requests, so concurrent calls of other kinds cannot shift it', async () => {
    const list = { caller: 'disruption@60000#0', request: 'GET /api/v1/nodes ', call: 0 };
    const query = { caller: 'disruption@60000#0', request: 'POST / DynamoDB_20120810.Query', call: 0 };
    const [l1, q1] = await drawn([list, query]);
    const [q2, l2] = await drawn([query, list]);
    expect([l2, q2]).toEqual([l1, q1]);
    expect(l1).not.toBe(q1);
  });

  it("draws the simulator's own calls from one stream per service and call, in arrival order", async () => {
    const first = await drawn([{}, {}, {}]);
    const again = await drawn([{}, {}, {}]);
    expect(again).toEqual(first);
    expect(new Set(first).size).toBe(3);
  });

  it("draws a retry's jitter by the invocation and the rank of its draw, whatever other invocations draw", async () => {
    /** The jitters `callers` draw, in the order given, from a fresh model of seed `seed`. */
    const jitters = async (callers: readonly string[], seed = 7): Promise<Map<string, number[]>> => {
      const clock = new VirtualClock();
      const latency = new ApiLatency(clock, seed, undefined, () => true);
      const ledgers = new Map<string, ComputeLedger>();
      const out = new Map<string, number[]>();
      for (const caller of callers) {
        const ledger = ledgers.get(caller) ?? new ComputeLedger(undefined, caller);
        ledgers.set(caller, ledger);
        await clock.activity.run('joiner', async () => {
          const scope = currentScope();
          if (scope) scope.ledger = ledger;
          out.set(caller, [...(out.get(caller) ?? []), latency.retryJitter()]);
        });
      }
      return out;
    };
    const a = 'provisioner@1000#0';
    const b = 'provisioner@1000#1';
    const first = await jitters([a, a, b, a]);
    const interleaved = await jitters([b, a, a, a]);
    expect(interleaved.get(a)).toEqual(first.get(a));
    expect(interleaved.get(b)).toEqual(first.get(b));
    const draws = [...(first.get(a) ?? []), ...(first.get(b) ?? [])];
    expect(new Set(draws).size).toBe(4);
    for (const d of draws) expect(d >= 0 && d < 1).toBe(true);
    expect((await jitters([a, a, b, a], 8)).get(a)).not.toEqual(first.get(a));
  });
});
