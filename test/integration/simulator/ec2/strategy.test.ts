import { type _InstanceType, CreateFleetCommand, CreateLaunchTemplateCommand } from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './ec2-harness.js';
import { ids, ZONES } from './multus-fixtures.js';

const TYPES: _InstanceType[] = ['m5.large', 'c6i.large', 'r5.large'];

describe('CreateFleet allocation strategies', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
    const t = ids(h);
    await h.ec2.send(
      new CreateLaunchTemplateCommand({
        LaunchTemplateName: 'plain',
        LaunchTemplateData: { ImageId: t.al2023, SecurityGroupIds: [t.nodeGroup] },
      }),
    );
  });
  afterEach(() => h.close());

  async function launch(
    capacityType: 'spot' | 'on-demand',
    strategy: string,
    priorities?: Record<string, number>,
  ) {
    const t = ids(h);
    const out = await h.ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: capacityType },
        SpotOptions: capacityType === 'spot' ? { AllocationStrategy: strategy as never } : undefined,
        OnDemandOptions: capacityType === 'on-demand' ? { AllocationStrategy: strategy as never } : undefined,
        LaunchTemplateConfigs: [
          {
            LaunchTemplateSpecification: { LaunchTemplateName: 'plain', Version: '$Latest' },
            Overrides: ZONES.flatMap((zone) =>
              TYPES.map((InstanceType) => ({
                InstanceType,
                SubnetId: t.nodeSubnet(zone),
                Priority: priorities?.[InstanceType],
              })),
            ),
          },
        ],
      }),
    );
    const instance = h.sim.state.instances.get(out.Instances![0].InstanceIds![0])!;
    return `${instance.instanceType}@${instance.availabilityZone}`;
  }

  it('spot lowest-price takes the cheapest pool', async () => {
    expect(await launch('spot', 'lowest-price')).toBe('c6i.large@us-west-2a');
  });

  it('spot price-capacity-optimized avoids a cheap but shallow pool', async () => {
    h.sim.setPoolCapacity('c6i.large', 'us-west-2a', 'spot', 2);
    expect(await launch('spot', 'price-capacity-optimized')).toBe('c6i.large@us-west-2c');
  });

  it('spot capacity-optimized takes the deepest pool', async () => {
    for (const zone of ZONES) for (const type of TYPES) h.sim.setPoolCapacity(type, zone, 'spot', 10);
    h.sim.setPoolCapacity('r5.large', 'us-west-2b', 'spot', 50);
    expect(await launch('spot', 'capacity-optimized')).toBe('r5.large@us-west-2b');
  });

  it('on-demand lowest-price and prioritized', async () => {
    expect(await launch('on-demand', 'lowest-price')).toBe('c6i.large@us-west-2a');
    expect(await launch('on-demand', 'prioritized', { 'r5.large': 1, 'm5.large': 2, 'c6i.large': 3 })).toBe(
      'r5.large@us-west-2a',
    );
  });

  it('rejects an allocation strategy EC2 does not have', async () => {
    await expect(launch('on-demand', 'cheapest-first')).rejects.toMatchObject({
      name: 'InvalidParameterValue',
    });
  });
});
