import {
  type _InstanceType,
  CreateFleetCommand,
  type CreateFleetCommandInput,
  DescribeInstancesCommand,
  DescribeNetworkInterfacesCommand,
  DescribeSubnetsCommand,
  ModifyNetworkInterfaceAttributeCommand,
} from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './ec2-harness.js';
import { createMultusTemplates, ids, multusConfigs } from './multus-fixtures.js';

function onDemandFleet(h: Harness, types: _InstanceType[], token?: string): CreateFleetCommandInput {
  return {
    Type: 'instant',
    ClientToken: token,
    TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
    OnDemandOptions: { AllocationStrategy: 'lowest-price' },
    LaunchTemplateConfigs: multusConfigs(h, types),
    TagSpecifications: [
      { ResourceType: 'fleet', Tags: [{ Key: 'karpenter.sh/nodeclaim', Value: 'multus-abc' }] },
    ],
  };
}

describe('CreateFleet with Multus launch templates through @aws-sdk/client-ec2', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
    await createMultusTemplates(h);
  });
  afterEach(() => h.close());

  it('launches one instance with three ENIs in the zone subnets the template and override ask for', async () => {
    const out = await h.ec2.send(new CreateFleetCommand(onDemandFleet(h, ['c6i.2xlarge'])));
    expect(out.Errors).toEqual([]);
    const [id] = out.Instances?.[0].InstanceIds ?? [];
    const t = ids(h);
    const described = await h.ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }));
    const instance = described.Reservations?.[0].Instances?.[0];
    expect(instance?.Placement?.AvailabilityZone).toBe('us-west-2a');
    expect(instance?.InstanceType).toBe('c6i.2xlarge');
    expect(instance?.Tags).toContainEqual({ Key: 'karpenter.sh/nodepool', Value: 'multus' });
    const enis = [...(instance?.NetworkInterfaces ?? [])].sort(
      (a, b) => a.Attachment!.DeviceIndex! - b.Attachment!.DeviceIndex!,
    );
    expect(enis.map((e) => e.SubnetId)).toEqual([
      t.nodeSubnet('us-west-2a'),
      t.multusSubnet(1, 'us-west-2a'),
      t.multusSubnet(2, 'us-west-2a'),
    ]);
    expect(enis.map((e) => e.Groups?.[0].GroupId)).toEqual([t.nodeGroup, t.multusGroup, t.multusGroup]);
    expect(enis.every((e) => e.Attachment?.DeleteOnTermination)).toBe(true);

    const listed = await h.ec2.send(
      new DescribeNetworkInterfacesCommand({ Filters: [{ Name: 'attachment.instance-id', Values: [id] }] }),
    );
    expect(listed.NetworkInterfaces).toHaveLength(3);
    expect(
      listed.NetworkInterfaces?.every((e) =>
        e.TagSet?.some((tag) => tag.Key === 'node.k8s.amazonaws.com/no_manage'),
      ),
    ).toBe(true);
    const subnets = await h.ec2.send(
      new DescribeSubnetsCommand({ SubnetIds: [t.multusSubnet(1, 'us-west-2a')] }),
    );
    expect(subnets.Subnets?.[0].AvailableIpAddressCount).toBe(250);
  });

  it('switches source/dest check off on a Multus ENI', async () => {
    const out = await h.ec2.send(new CreateFleetCommand(onDemandFleet(h, ['c6i.2xlarge'])));
    const [id] = out.Instances?.[0].InstanceIds ?? [];
    const enis = await h.ec2.send(
      new DescribeNetworkInterfacesCommand({
        Filters: [
          { Name: 'attachment.instance-id', Values: [id] },
          { Name: 'attachment.device-index', Values: ['1'] },
        ],
      }),
    );
    const eniId = enis.NetworkInterfaces?.[0].NetworkInterfaceId;
    await h.ec2.send(
      new ModifyNetworkInterfaceAttributeCommand({
        NetworkInterfaceId: eniId,
        SourceDestCheck: { Value: false },
      }),
    );
    const after = await h.ec2.send(new DescribeNetworkInterfacesCommand({ NetworkInterfaceIds: [eniId!] }));
    expect(after.NetworkInterfaces?.[0].SourceDestCheck).toBe(false);
  });

  it('lists an empty pool in errorSet and launches from the next override', async () => {
    h.sim.setPoolCapacity('c6i.2xlarge', 'us-west-2a', 'on-demand', 0);
    const out = await h.ec2.send(new CreateFleetCommand(onDemandFleet(h, ['c6i.2xlarge'])));
    expect(out.Errors).toHaveLength(1);
    expect(out.Errors?.[0]).toMatchObject({
      ErrorCode: 'InsufficientInstanceCapacity',
      Lifecycle: 'on-demand',
      LaunchTemplateAndOverrides: {
        Overrides: { InstanceType: 'c6i.2xlarge', AvailabilityZone: 'us-west-2a' },
      },
    });
    const [id] = out.Instances?.[0].InstanceIds ?? [];
    const instance = h.sim.state.instances.get(id)!;
    expect(instance.availabilityZone).toBe('us-west-2b');
    expect(instance.networkInterfaces[1].subnetId).toBe(ids(h).multusSubnet(1, 'us-west-2b'));
  });

  it('replays a ClientToken without launching twice, and rejects the token with other parameters', async () => {
    const first = await h.ec2.send(
      new CreateFleetCommand(onDemandFleet(h, ['c6i.2xlarge'], 'nodeclaim-multus-abc')),
    );
    const again = await h.ec2.send(
      new CreateFleetCommand(onDemandFleet(h, ['c6i.2xlarge'], 'nodeclaim-multus-abc')),
    );
    expect(again.FleetId).toBe(first.FleetId);
    expect(again.Instances?.[0].InstanceIds).toEqual(first.Instances?.[0].InstanceIds);
    expect(h.sim.state.instances.size).toBe(1);
    await expect(
      h.ec2.send(new CreateFleetCommand(onDemandFleet(h, ['m5.xlarge'], 'nodeclaim-multus-abc'))),
    ).rejects.toMatchObject({ name: 'IdempotentParameterMismatch' });
  });

  it('launches more than one instance for a larger target capacity', async () => {
    const input = onDemandFleet(h, ['c6i.2xlarge']);
    const out = await h.ec2.send(
      new CreateFleetCommand({
        ...input,
        TargetCapacitySpecification: { TotalTargetCapacity: 3, DefaultTargetCapacityType: 'on-demand' },
      }),
    );
    expect(out.Instances?.flatMap((i) => i.InstanceIds ?? [])).toHaveLength(3);
  });

  it('reports MaxSpotInstanceCountExceeded for every override and launches nothing', async () => {
    h.sim.setSpotInstanceLimit(0);
    const out = await h.ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'spot' },
        SpotOptions: { AllocationStrategy: 'price-capacity-optimized' },
        LaunchTemplateConfigs: multusConfigs(h, ['c6i.2xlarge']),
      }),
    );
    expect(out.Instances).toEqual([]);
    expect(out.Errors?.map((e) => e.ErrorCode)).toEqual(Array(3).fill('MaxSpotInstanceCountExceeded'));
  });

  it('reports a missing launch template in errorSet', async () => {
    const out = await h.ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
        LaunchTemplateConfigs: multusConfigs(h, ['c6i.2xlarge'], 'gone'),
      }),
    );
    expect(out.Instances).toEqual([]);
    expect(new Set(out.Errors?.map((e) => e.ErrorCode))).toEqual(
      new Set(['InvalidLaunchTemplateName.NotFoundException']),
    );
  });
});

describe('CreateFleet TagSpecifications of the created resources', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
    await createMultusTemplates(h);
  });
  afterEach(() => h.close());

  it('tags volumes, network interfaces and the spot request with the request’s tags over the launch template’s', async () => {
    const tag = (Key: string, Value: string) => [{ Key, Value }];
    const out = await h.ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'spot' },
        SpotOptions: { AllocationStrategy: 'price-capacity-optimized' },
        LaunchTemplateConfigs: multusConfigs(h, ['c6i.2xlarge']),
        TagSpecifications: [
          { ResourceType: 'instance', Tags: tag('karpenter.sh/nodeclaim', 'spot-1') },
          { ResourceType: 'volume', Tags: tag('karpenter.sh/nodeclaim', 'spot-1') },
          { ResourceType: 'network-interface', Tags: tag('karpenter.sh/nodeclaim', 'spot-1') },
          { ResourceType: 'spot-instances-request', Tags: tag('joiner.sh/cluster', 'demo') },
        ],
      }),
    );
    expect(out.Errors).toEqual([]);
    const [id] = out.Instances?.[0].InstanceIds ?? [];
    const instance = h.sim.state.instances.get(id)!;
    expect(instance.tags['karpenter.sh/nodeclaim']).toBe('spot-1');
    expect(instance.blockDevices.length).toBeGreaterThan(0);
    for (const volume of instance.blockDevices) expect(volume.tags['karpenter.sh/nodeclaim']).toBe('spot-1');
    expect(instance.spotInstanceRequestId).toMatch(/^sir-/);
    expect(instance.spotInstanceRequestTags).toEqual({ 'joiner.sh/cluster': 'demo' });
    const enis = await h.ec2.send(
      new DescribeNetworkInterfacesCommand({ Filters: [{ Name: 'attachment.instance-id', Values: [id] }] }),
    );
    expect(enis.NetworkInterfaces).toHaveLength(3);
    for (const eni of enis.NetworkInterfaces ?? []) {
      // The request's tag is added to the launch template's (the Multus no_manage tag stays).
      expect(eni.TagSet).toContainEqual({ Key: 'karpenter.sh/nodeclaim', Value: 'spot-1' });
      expect(eni.TagSet?.some((t) => t.Key === 'node.k8s.amazonaws.com/no_manage')).toBe(true);
    }
  });
});
