import { CreateFleetCommand, DescribeInstancesCommand } from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './ec2-harness.js';
import { createMultusTemplates, multusConfigs } from './multus-fixtures.js';

async function launch(h: Harness, capacityType: 'spot' | 'on-demand'): Promise<string> {
  const out = await h.ec2.send(
    new CreateFleetCommand({
      Type: 'instant',
      TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: capacityType },
      LaunchTemplateConfigs: multusConfigs(h, ['m5.large']),
    }),
  );
  const id = out.Instances![0].InstanceIds![0];
  await h.clock.advance(10_000);
  h.events.length = 0;
  return id;
}

describe('spot interruptions and instance notices', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
    await createMultusTemplates(h);
  });
  afterEach(() => h.close());

  it('warns, then terminates the spot instance two virtual minutes later', async () => {
    const id = await launch(h, 'spot');
    h.sim.interruptSpot(id);
    expect(h.events).toEqual([
      {
        source: 'aws.ec2',
        detailType: 'EC2 Spot Instance Interruption Warning',
        detail: { 'instance-id': id, 'instance-action': 'terminate' },
        resources: [`arn:aws:ec2:us-west-2:111122223333:instance/${id}`],
      },
    ]);
    await h.clock.advance(119_000);
    expect(h.sim.state.instances.get(id)?.state).toBe('running');
    await h.clock.advance(1_000);
    expect(h.events[1]).toMatchObject({
      detailType: 'EC2 Instance State-change Notification',
      detail: { 'instance-id': id, state: 'shutting-down' },
    });
    expect(h.terminated.map((i) => i.instanceId)).toEqual([id]);
    await h.clock.advance(60_000);
    expect(h.events.map((e) => (e.detail as { state?: string }).state)).toEqual([
      undefined,
      'shutting-down',
      'terminated',
    ]);
    const out = await h.ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }));
    expect(out.Reservations?.[0].Instances?.[0].StateReason?.Code).toBe('Server.SpotInstanceTermination');
  });

  it('refuses to interrupt an on-demand instance', async () => {
    const id = await launch(h, 'on-demand');
    expect(() => h.sim.interruptSpot(id)).toThrow(/not a spot instance/);
  });

  it('emits a rebalance recommendation', async () => {
    const id = await launch(h, 'spot');
    h.sim.rebalanceRecommendation(id);
    expect(h.events).toEqual([
      {
        source: 'aws.ec2',
        detailType: 'EC2 Instance Rebalance Recommendation',
        detail: { 'instance-id': id },
        resources: [`arn:aws:ec2:us-west-2:111122223333:instance/${id}`],
      },
    ]);
  });

  it('emits an AWS Health scheduled change naming the instance', async () => {
    const id = await launch(h, 'on-demand');
    h.sim.scheduledChange(id);
    expect(h.events).toHaveLength(1);
    expect(h.events[0]).toMatchObject({
      source: 'aws.health',
      detailType: 'AWS Health Event',
      detail: {
        service: 'EC2',
        eventTypeCategory: 'scheduledChange',
        affectedEntities: [{ entityValue: id }],
      },
    });
  });
});
