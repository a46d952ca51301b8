import {
  CreateFleetCommand,
  CreateLaunchTemplateCommand,
  DescribeCapacityReservationsCommand,
  DescribeInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './ec2-harness.js';
import { ids } from './multus-fixtures.js';

const ODCR = 'cr-0123456789abcdef0';
const BLOCK = 'cr-0fedcba9876543210';
const HOUR = 3_600_000;

describe('simulated EC2 capacity reservations', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
    h.sim.addCapacityReservations([
      { id: ODCR, instanceType: 'm5.large', availabilityZone: 'us-west-2a', count: 2, tags: { team: 'ml' } },
      {
        id: BLOCK,
        instanceType: 'm5.large',
        availabilityZone: 'us-west-2b',
        count: 1,
        reservationType: 'capacity-block',
        endDate: h.clock.now() + 2 * HOUR,
        ownerId: '222222222222',
      },
    ]);
  });
  afterEach(() => h.close());

  async function template(name: string, reservation?: string, capacityBlock = false) {
    const t = ids(h);
    await h.ec2.send(
      new CreateLaunchTemplateCommand({
        LaunchTemplateName: name,
        LaunchTemplateData: {
          ImageId: t.al2023,
          SecurityGroupIds: [t.nodeGroup],
          ...(reservation
            ? {
                CapacityReservationSpecification: {
                  CapacityReservationPreference: 'capacity-reservations-only',
                  CapacityReservationTarget: { CapacityReservationId: reservation },
                },
              }
            : {}),
          ...(capacityBlock ? { InstanceMarketOptions: { MarketType: 'capacity-block' } } : {}),
        },
      }),
    );
  }

  async function fleet(name: string, zone: string, type: string, target: 'on-demand' | 'capacity-block') {
    const t = ids(h);
    return h.ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: target },
        ...(target === 'on-demand' ? { OnDemandOptions: { AllocationStrategy: 'lowest-price' } } : {}),
        LaunchTemplateConfigs: [
          {
            LaunchTemplateSpecification: { LaunchTemplateName: name, Version: '$Latest' },
            Overrides: [{ InstanceType: type as never, SubnetId: t.nodeSubnet(zone) }],
          },
        ],
      }),
    );
  }

  it('DescribeCapacityReservations answers in EC2 shape, by id, filters and tags; unknown ids are NotFound', async () => {
    const all = await h.ec2.send(new DescribeCapacityReservationsCommand({}));
    expect(all.CapacityReservations?.map((r) => r.CapacityReservationId)).toEqual([ODCR, BLOCK]);
    const [odcr] = all.CapacityReservations!;
    expect(odcr).toMatchObject({
      InstanceType: 'm5.large',
      AvailabilityZone: 'us-west-2a',
      TotalInstanceCount: 2,
      AvailableInstanceCount: 2,
      State: 'active',
      InstanceMatchCriteria: 'targeted',
      EndDateType: 'unlimited',
      ReservationType: 'default',
      Tags: [{ Key: 'team', Value: 'ml' }],
    });
    expect(odcr.CapacityReservationArn).toMatch(/^arn:aws:ec2:us-west-2:\d{12}:capacity-reservation\/cr-/);
    const tagged = await h.ec2.send(
      new DescribeCapacityReservationsCommand({
        Filters: [
          { Name: 'state', Values: ['active'] },
          { Name: 'tag:team', Values: ['ml'] },
        ],
        MaxResults: 1000,
      }),
    );
    expect(tagged.CapacityReservations?.map((r) => r.CapacityReservationId)).toEqual([ODCR]);
    const byOwner = await h.ec2.send(
      new DescribeCapacityReservationsCommand({ Filters: [{ Name: 'owner-id', Values: ['222222222222'] }] }),
    );
    expect(byOwner.CapacityReservations?.map((r) => [r.CapacityReservationId, r.ReservationType])).toEqual([
      [BLOCK, 'capacity-block'],
    ]);
    await expect(
      h.ec2.send(
        new DescribeCapacityReservationsCommand({ CapacityReservationIds: ['cr-00000000000000000'] }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidCapacityReservationId.NotFound' });
    await expect(
      h.ec2.send(new DescribeCapacityReservationsCommand({ Filters: [{ Name: 'colour', Values: ['x'] }] })),
    ).rejects.toMatchObject({ name: 'InvalidParameterValue' });
  });

  it('CreateFleet into an ODCR takes its instances until ReservationCapacityExceeded; termination gives one back', async () => {
    await template('odcr', ODCR);
    const first = await fleet('odcr', 'us-west-2a', 'm5.large', 'on-demand');
    await fleet('odcr', 'us-west-2a', 'm5.large', 'on-demand');
    const full = await fleet('odcr', 'us-west-2a', 'm5.large', 'on-demand');
    expect(full.Instances ?? []).toEqual([]);
    expect(full.Errors?.map((e) => e.ErrorCode)).toEqual(['ReservationCapacityExceeded']);
    const id = first.Instances![0].InstanceIds![0];
    const described = await h.ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }));
    expect(described.Reservations![0].Instances![0].CapacityReservationId).toBe(ODCR);
    const [r] = (
      await h.ec2.send(new DescribeCapacityReservationsCommand({ CapacityReservationIds: [ODCR] }))
    ).CapacityReservations!;
    expect(r.AvailableInstanceCount).toBe(0);
    await h.ec2.send(new TerminateInstancesCommand({ InstanceIds: [id] }));
    await h.clock.advance(120_000);
    const [after] = (
      await h.ec2.send(new DescribeCapacityReservationsCommand({ CapacityReservationIds: [ODCR] }))
    ).CapacityReservations!;
    expect(after.AvailableInstanceCount).toBe(1);
  });

  it('enforces the reservation instance type, zone and market type', async () => {
    await template('odcr', ODCR);
    await template('block', BLOCK, true);
    await template('block-as-odcr', BLOCK);
    const wrongType = await fleet('odcr', 'us-west-2a', 'c6i.large', 'on-demand');
    expect(wrongType.Errors?.[0]?.ErrorCode).toBe('InvalidParameterValue');
    const wrongZone = await fleet('odcr', 'us-west-2b', 'm5.large', 'on-demand');
    expect(wrongZone.Errors?.[0]?.ErrorMessage).toContain('does not match the Availability Zone us-west-2a');
    const blockAsOnDemand = await fleet('block-as-odcr', 'us-west-2b', 'm5.large', 'on-demand');
    expect(blockAsOnDemand.Errors?.[0]?.ErrorCode).toBe('InvalidParameterCombination');
    const blockFleetOnDemandTemplate = await fleet('odcr', 'us-west-2a', 'm5.large', 'capacity-block');
    expect(blockFleetOnDemandTemplate.Errors?.[0]?.ErrorCode).toBe('InvalidParameterCombination');
    const block = await fleet('block', 'us-west-2b', 'm5.large', 'capacity-block');
    expect(block.Instances?.[0]?.InstanceIds).toHaveLength(1);
  });

  it('terminates a capacity block instance 30 minutes before the block ends; the block then expires', async () => {
    await template('block', BLOCK, true);
    const out = await fleet('block', 'us-west-2b', 'm5.large', 'capacity-block');
    const id = out.Instances![0].InstanceIds![0];
    expect(h.sim.state.instances.get(id)?.instanceLifecycle).toBe('capacity-block');
    await h.clock.advance(HOUR + 29 * 60_000);
    expect(h.sim.state.instances.get(id)?.state).not.toMatch(/shutting-down|terminated/);
    await h.clock.advance(2 * 60_000);
    expect(h.sim.state.instances.get(id)?.state).toMatch(/shutting-down|terminated/);
    expect(h.sim.state.instances.get(id)?.stateReason?.code).toBe('Server.ScheduledStop');
    await h.clock.advance(31 * 60_000);
    const [r] = (
      await h.ec2.send(new DescribeCapacityReservationsCommand({ CapacityReservationIds: [BLOCK] }))
    ).CapacityReservations!;
    expect([r.State, r.AvailableInstanceCount]).toEqual(['expired', 0]);
    const late = await fleet('block', 'us-west-2b', 'm5.large', 'capacity-block');
    expect(late.Instances ?? []).toEqual([]);
  });
});
