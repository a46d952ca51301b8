import { CreateFleetCommand, CreateLaunchTemplateCommand } from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './ec2-harness.js';
import { ids } from './multus-fixtures.js';
import { ACCESS_KEY, RecordingAuthorizer } from './recording-authorizer.js';

const SHARED = 'cr-0123456789abcdef0';
const OWNER = '444455556666';
const RESERVATION_ARN = `arn:aws:ec2:us-west-2:${OWNER}:capacity-reservation/${SHARED}`;

describe('the simulated EC2 authorizes a launch into a capacity reservation against the reservation', () => {
  let h: Harness;
  let iam: RecordingAuthorizer;
  beforeEach(async () => {
    iam = new RecordingAuthorizer();
    h = await startHarness({ iam, accessKeyId: ACCESS_KEY });
    h.sim.addCapacityReservations([
      {
        id: SHARED,
        instanceType: 'm5.large',
        availabilityZone: 'us-west-2a',
        count: 1,
        tags: { team: 'ml' },
        ownerId: OWNER,
      },
    ]);
  });
  afterEach(() => h.close());

  async function launch(reservation: boolean) {
    const t = ids(h);
    const name = reservation ? 'reserved' : 'plain';
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
                  CapacityReservationTarget: { CapacityReservationId: SHARED },
                },
              }
            : {}),
        },
      }),
    );
    return h.ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
        LaunchTemplateConfigs: [
          {
            LaunchTemplateSpecification: { LaunchTemplateName: name, Version: '$Latest' },
            Overrides: [{ InstanceType: 'm5.large', SubnetId: t.nodeSubnet('us-west-2a') }],
          },
        ],
      }),
    );
  }

  it('CreateFleet and RunInstances are asked on the reservation ARN in its owner’s account, with its tags', async () => {
    const out = await launch(true);
    expect(out.Errors ?? []).toEqual([]);
    const asked = iam.requests.filter((r) => r.resource === RESERVATION_ARN);
    expect(asked.map((r) => r.action)).toEqual(['ec2:CreateFleet', 'ec2:RunInstances']);
    for (const r of asked) expect(r.context).toMatchObject({ 'aws:ResourceTag/team': 'ml' });
  });

  it('a launch that targets no reservation is not asked about one', async () => {
    await launch(false);
    expect(iam.requests.some((r) => r.resource.includes(':capacity-reservation/'))).toBe(false);
  });

  it('without a grant on the reservation the launch is refused and the reservation keeps its instance', async () => {
    iam.deny = (r) => r.resource === RESERVATION_ARN && r.action === 'ec2:RunInstances';
    const out = await launch(true);
    expect(out.Instances ?? []).toEqual([]);
    expect(out.Errors?.map((e) => e.ErrorCode)).toEqual(['UnauthorizedOperation']);
    expect(h.sim.state.capacityReservations.get(SHARED)?.instanceIds.size).toBe(0);
  });
});
