import { afterEach, describe, expect, it } from 'vitest';
import type { CloudProvider } from '../../functions/core/ports/cloud-provider.js';
import { provision } from '../../functions/core/provisioning/provision.js';
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

  it('a crash after CreateFleet and before the store update: the next run adopts the instance, none leaks', async () => {
    sim = await startWithSeed(SEED_004);
    const real = sim.deps.cloud;
    let crashed = false;
    const crashing: CloudProvider = {
      launch: async (input) => {
        await real.launch(input);
        crashed = true;
        throw new Error('the function crashed after CreateFleet');
      },
      terminate: (ids) => real.terminate(ids),
      get: (id) => real.get(id),
      findByNodeClaim: async (id) => {
        if (crashed) throw new Error('the function crashed');
        return real.findByNodeClaim(id);
      },
      list: () => real.list(),
    };
    const first = await provision({ ...sim.deps, cloud: crashing }, { hints: [] });
    expect(first.incomplete).toBe(true);
    expect(sim.liveInstances()).toHaveLength(4);
    const second = await provision(sim.deps, { hints: [] });
    expect(second.launched).toHaveLength(4);
    expect(second.launched.every((l) => l.adopted)).toBe(true);
    expect(sim.liveInstances()).toHaveLength(4);
    const claims = await sim.deps.store.listNodeClaims(['Launched']);
    expect(new Set(claims.map((c) => c.instance?.instanceId))).toEqual(
      new Set(sim.liveInstances().map((i) => i.instanceId)),
    );
  });
});
