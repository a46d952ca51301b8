/** The provisioner waits on the time its Lambda runtime runs on (virtual in the simulated cloud). */
import { describe, expect, it } from 'vitest';
import { createProvisionerHandler } from '../../../functions/handlers/provisioner.js';
import { RUNTIME_TIMERS, type RuntimeTimers } from '../../../functions/shared/runtime-timers.js';
import {
  podUnschedulableEnvelope,
  provisionerContext,
  provisioningRecord,
} from '../../builders/provisioning-event.js';
import { harness } from '../core/provisioning/harness.js';
import { seedCluster } from '../core/provisioning/seed-cluster.js';

/** A runtime whose time moves only when the handler sleeps, recording each sleep. */
function steppedRuntime(start: number) {
  let now = start;
  const sleeps: number[] = [];
  const timers: RuntimeTimers = {
    setTimeout: () => 0,
    clearTimeout: () => undefined,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
  return { timers, sleeps, now: () => now };
}

describe("provisioner: the runtime's time", () => {
  it("waits its batch window with the context runtime's sleep, measured on the runtime's clock", async () => {
    const h = harness(await seedCluster('examples/seed-004'));
    const handler = createProvisionerHandler(() => h.deps);
    const runtime = steppedRuntime(50_000);
    const record = provisioningRecord('m1', podUnschedulableEnvelope('inflate-0'));
    // Sent at the runtime's instant: the window must last 1 s of the runtime's time.
    record.attributes.SentTimestamp = '50000';
    const context = Object.assign(provisionerContext(), { [RUNTIME_TIMERS]: runtime.timers });
    const response = await handler({ Records: [record] }, context);
    expect(response).toEqual({ batchItemFailures: [] });
    expect(runtime.sleeps.length).toBeGreaterThan(0);
    expect(runtime.now() - 50_000).toBeGreaterThanOrEqual(1_000);
    expect(h.log.messages()).toContain('batched pending pods');
    expect(h.cloud.instances.length).toBeGreaterThan(0);
  });
});
