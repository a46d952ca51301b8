import { afterEach, describe, expect, it } from 'vitest';
import type { CloudProvider } from '../../functions/core/ports/cloud-provider.js';
import { provision } from '../../functions/core/provisioning/provision.js';
import { runSweep } from '../../functions/core/sweep/run-sweep.js';
import { sweepDepsFrom } from '../../functions/core/sweep/sweep-deps-from.js';
import { EVENT_SOURCES, visibilityTimeoutSeconds } from '../../functions/shared/event-sources.js';
import { type SimProvisioning, startWithSeed } from '../integration/provisioning/sim-harness.js';

const SEED_004 = 'examples/seed-004';
let sim: SimProvisioning | undefined;

afterEach(async () => {
  await sim?.cloud.close();
  sim = undefined;
});

/** Provisioning runs until nothing is left to launch (as redelivered batches would), at most `runs`. */
async function provisionUntilSettled(s: SimProvisioning, runs = 5) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const result = await provision(s.deps, { hints: [] });
    results.push(result);
    if (!result.incomplete && result.created.length === 0 && result.resumed.length === 0) break;
  }
  return results;
}

describe('provisioning chaos in the simulated cloud', () => {
  it('ICE on the cheapest pool: the next offering is used and the mark is visible to the next invocation', async () => {
    sim = await startWithSeed(SEED_004);
    for (const zone of ['us-west-2a', 'us-west-2b', 'us-west-2c', 'us-west-2d']) {
      sim.cloud.ec2.setPoolCapacity('c5.2xlarge', zone, 'spot', zone === 'us-west-2a' ? 1000 : 0);
    }
    // The add-on's cheapest on-demand pool is empty: lowest-price tries it first and reports ICE.
    sim.cloud.ec2.setPoolCapacity('m5.large', 'us-west-2a', 'on-demand', 0);
    const result = await provision(sim.deps, { hints: [] });
    expect(result.failed).toEqual([]);
    // Each claim offers c5.2xlarge in every zone: the fleet itself launches where spot is left.
    const spot = sim.liveInstances().filter((i) => i.capacityType === 'spot');
    expect(spot.map((i) => `${i.instanceType}/${i.zone}`)).toEqual([
      'c5.2xlarge/us-west-2a',
      'c5.2xlarge/us-west-2a',
      'c5.2xlarge/us-west-2a',
    ]);
    const onDemand = sim.liveInstances().filter((i) => i.capacityType === 'on-demand');
    expect(onDemand.map((i) => i.instanceType)).toEqual(['m5.large']);
    expect(onDemand[0].zone).not.toBe('us-west-2a');
    expect(result.markedUnavailable).toContain('m5.large/us-west-2a/on-demand');
    const marks = await sim.deps.store.listUnavailableOfferings(sim.cloud.clock.now());
    const marked = marks.map((m) => `${m.instanceType}/${m.zone}/${m.capacityType}`);
    for (const m of result.markedUnavailable) expect(marked).toContain(m);
  });

  it('limits.cpu 16 with no capacity for the cheapest type: the fallback type launches, within the limit', async () => {
    sim = await startWithSeed('test/fixtures/limits-ice', 'demo');
    for (const zone of ['us-west-2a', 'us-west-2b', 'us-west-2c', 'us-west-2d'])
      sim.cloud.ec2.setPoolCapacity('c5.large', zone, 'on-demand', 0);
    const results = await provisionUntilSettled(sim);
    const live = sim.liveInstances();
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((i) => i.instanceType === 'c5.xlarge')).toBe(true);
    const cpu = live.length * 4;
    expect(cpu).toBeLessThanOrEqual(16);
    const last = results[results.length - 1];
    expect(last.unschedulable.length).toBeGreaterThan(0);
    expect(last.unschedulable[0].reason).toMatch(/cpu limit 16000/);
  });

  it('20% of EC2 calls throttled (RequestLimitExceeded): every pod still gets an instance, none twice', async () => {
    sim = await startWithSeed(SEED_004);
    sim.cloud.faults.inject({ service: 'ec2', action: '*', error: 'RequestLimitExceeded', probability: 0.2 });
    const results = await provisionUntilSettled(sim);
    const last = results[results.length - 1];
    expect(last).toMatchObject({ incomplete: false, unschedulable: [] });
    sim.cloud.faults.clear();
    const claims = await sim.deps.store.listNodeClaims(['Launched']);
    expect(claims.reduce((n, c) => n + c.pods.length, 0)).toBe(21);
    const live = sim.liveInstances();
    expect(live).toHaveLength(claims.length);
    expect(new Set(claims.map((c) => c.instance?.instanceId))).toEqual(
      new Set(live.map((i) => i.instanceId)),
    );
  });

  it('a crash after CreateFleet and before the store update, in a quiet cluster: the sweep adopts the instances before the SQS redelivery, which launches nothing more', async () => {
    sim = await startWithSeed(SEED_004);
    const s = sim;
    const real = s.deps.cloud;
    const crashing: CloudProvider = {
      launch: async (input) => {
        await real.launch(input);
        throw new Error('the function crashed after CreateFleet');
      },
      terminate: (ids) => real.terminate(ids),
      get: (id) => real.get(id),
      findByNodeClaim: async () => {
        throw new Error('the function crashed');
      },
      list: () => real.list(),
    };
    const first = await provision({ ...s.deps, cloud: crashing }, { hints: [] });
    expect(first.incomplete).toBe(true);
    expect(s.liveInstances()).toHaveLength(4);
    const crashedAt = s.cloud.clock.now();
    // The batch comes back when the provisioning queue's visibility timeout (as the stack sets it) ends;
    // meanwhile nothing else happens in the cluster but the sweep, every minute.
    const provisioning = EVENT_SOURCES.find((e) => e.queue === 'provisioning');
    if (!provisioning) throw new Error('no provisioning event source');
    const redeliveryAt = crashedAt + visibilityTimeoutSeconds(provisioning) * 1000;
    const sweep = sweepDepsFrom(s.deps);
    let launchedBy: number | undefined;
    while (s.cloud.clock.now() + 60_000 <= redeliveryAt) {
      await s.cloud.clock.advance(60_000);
      await runSweep(sweep);
      const pending = await s.deps.store.listNodeClaims(['Pending']);
      if (launchedBy === undefined && pending.length === 0) launchedBy = s.cloud.clock.now() - crashedAt;
    }
    await s.cloud.clock.advance(redeliveryAt - s.cloud.clock.now());
    const redelivered = await provision(s.deps, { hints: [] });
    expect(redelivered.created).toEqual([]);
    // Every instance ever launched is one of the four first ones, and each has its claim.
    expect(s.cloud.ec2.state.instances.size).toBe(4);
    expect(s.liveInstances()).toHaveLength(4);
    const claims = await s.deps.store.listNodeClaims(['Launched', 'Registered', 'Initialized']);
    expect(new Set(claims.map((c) => c.instance?.instanceId))).toEqual(
      new Set(s.liveInstances().map((i) => i.instanceId)),
    );
    // The sweep adopted them within two minutes, not at the redelivery.
    expect(launchedBy).toBeLessThanOrEqual(2 * 60_000);
  }, 60_000);
});
