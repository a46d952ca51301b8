import { afterEach, describe, expect, it } from 'vitest';
import { provision } from '../../../functions/core/provisioning/provision.js';
import { type SimProvisioning, startWithSeed } from './sim-harness.js';

let sim: SimProvisioning | undefined;

afterEach(async () => {
  await sim?.cloud.close();
  sim = undefined;
});

describe('provisioning in the simulated cloud with the real adapters', () => {
  it('seed 004: 20 x 1 CPU pods get 3 x c5.2xlarge spot, the add-on one on-demand m5.large', async () => {
    sim = await startWithSeed('examples/seed-004');
    const result = await provision(sim.deps, { hints: [] });
    expect(result).toMatchObject({ pendingPods: 21, unschedulable: [], failed: [], incomplete: false });
    const live = sim.liveInstances();
    const spot = live.filter((i) => i.capacityType === 'spot');
    expect(spot.map((i) => i.instanceType)).toEqual(['c5.2xlarge', 'c5.2xlarge', 'c5.2xlarge']);
    expect(live.filter((i) => i.capacityType === 'on-demand').map((i) => i.instanceType)).toEqual([
      'm5.large',
    ]);
    const general = result.launched.filter((l) => l.nodePool === 'spot-general');
    expect(general.map((l) => l.pods).sort()).toEqual([6, 7, 7]);
    const claims = await sim.deps.store.listNodeClaims(['Launched']);
    expect(claims).toHaveLength(4);
    expect(claims.every((c) => c.timers.registrationTimeout !== undefined)).toBe(true);
    expect(sim.log.messages()).toContain('computed packing of 4 node(s) for 21 pod(s)');
  });

  it('the same batch twice launches no extra instance', async () => {
    sim = await startWithSeed('examples/seed-004');
    await provision(sim.deps, { hints: [] });
    const again = await provision(sim.deps, { hints: [] });
    expect(again).toMatchObject({ created: [], launched: [] });
    expect(sim.liveInstances()).toHaveLength(4);
  });

  it('seed 000 (Multus NodeClass): each instance carries its Multus ENIs in its own zone', async () => {
    sim = await startWithSeed('examples/seed-000', 'eks-karpenterwithmultus');
    const result = await provision(sim.deps, { hints: [] });
    expect(result.failed).toEqual([]);
    expect(result.launched.length).toBeGreaterThan(0);
    const subnets = sim.cloud.ec2.state.topology.subnets;
    for (const launched of result.launched) {
      const instance = sim.cloud.ec2.state.instances.get(launched.instanceId)!;
      expect(instance.instanceType).toBe('c6i.2xlarge');
      const enis = [...instance.networkInterfaces].sort((a, b) => a.deviceIndex - b.deviceIndex);
      expect(enis.map((e) => e.deviceIndex)).toEqual([0, 1, 2]);
      for (const eni of enis.slice(1)) {
        const subnet = subnets.find((s) => s.subnetId === eni.subnetId)!;
        expect(subnet.availabilityZone).toBe(instance.availabilityZone);
        expect(subnet.tags.Name).toMatch(new RegExp(`^Multus${eni.deviceIndex}Az[12]-karpenterwithmultus$`));
        expect(eni.deleteOnTermination).toBe(true);
        expect(eni.tags['node.k8s.amazonaws.com/no_manage']).toBe('true');
      }
    }
  });

  it('plans only the zones the EC2NodeClass has subnets in: a zone spread launches in all of them', async () => {
    sim = await startWithSeed('test/fixtures/zone-spread', 'demo');
    const result = await provision(sim.deps, { hints: [] });
    expect(result).toMatchObject({ pendingPods: 6, unschedulable: [], failed: [], incomplete: false });
    const zones = sim.liveInstances().map((i) => i.zone);
    expect(new Set(zones)).toEqual(new Set(['us-west-2a', 'us-west-2b', 'us-west-2c']));
    const claims = await sim.deps.store.listNodeClaims(['Launched']);
    expect(claims.flatMap((c) => c.options).every((o) => o.zone !== 'us-west-2d')).toBe(true);
  });
});
