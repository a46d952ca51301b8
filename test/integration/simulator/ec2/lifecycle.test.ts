import {
  CreateFleetCommand,
  CreateLaunchTemplateCommand,
  CreateTagsCommand,
  DeleteLaunchTemplateCommand,
  DescribeInstancesCommand,
  DescribeLaunchTemplatesCommand,
  DescribeNetworkInterfacesCommand,
  DescribeSubnetsCommand,
  RunInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultTopology } from '../../../../functions/simulator/ec2/topology.js';
import { type Harness, startHarness } from './ec2-harness.js';
import { CLUSTER, createMultusTemplates, ids, multusConfigs } from './multus-fixtures.js';

async function launchOne(h: Harness): Promise<string> {
  const out = await h.ec2.send(
    new CreateFleetCommand({
      Type: 'instant',
      TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'spot' },
      SpotOptions: { AllocationStrategy: 'price-capacity-optimized' },
      LaunchTemplateConfigs: multusConfigs(h, ['c6i.2xlarge']),
    }),
  );
  return out.Instances![0].InstanceIds![0];
}

describe('instance lifecycle in the simulated EC2', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
    await createMultusTemplates(h);
  });
  afterEach(() => h.close());

  it('goes pending -> running on the virtual clock and tells the kubelet observer', async () => {
    const id = await launchOne(h);
    expect(h.sim.state.instances.get(id)?.state).toBe('pending');
    expect(h.running).toHaveLength(0);
    await h.clock.advance(10_000);
    expect(h.running.map((i) => i.instanceId)).toEqual([id]);
    expect(h.running[0].userData).toContain('max-pods = 56');
    expect(h.running[0].networkInterfaces).toHaveLength(3);
    expect(h.events.map((e) => (e.detail as { state: string }).state)).toEqual(['pending', 'running']);
  });

  it('terminates: shutting-down, then terminated with its ENIs deleted and addresses freed', async () => {
    const id = await launchOne(h);
    await h.clock.advance(10_000);
    const zone = h.sim.state.instances.get(id)!.availabilityZone;
    expect(zone).toBe('us-west-2b'); // the cheapest spot pool of c6i.2xlarge
    const multusSubnet = ids(h).multusSubnet(1, zone);
    const freeBefore = h.sim.state.subnets.get(multusSubnet)!.available;
    const out = await h.ec2.send(new TerminateInstancesCommand({ InstanceIds: [id] }));
    expect(out.TerminatingInstances?.[0]).toMatchObject({
      InstanceId: id,
      PreviousState: { Name: 'running', Code: 16 },
      CurrentState: { Name: 'shutting-down', Code: 32 },
    });
    expect(h.terminated.map((i) => i.instanceId)).toEqual([id]);
    await h.clock.advance(60_000);
    const described = await h.ec2.send(
      new DescribeInstancesCommand({ Filters: [{ Name: 'instance-state-name', Values: ['terminated'] }] }),
    );
    expect(described.Reservations?.[0].Instances?.[0].InstanceId).toBe(id);
    const enis = await h.ec2.send(
      new DescribeNetworkInterfacesCommand({ Filters: [{ Name: 'attachment.instance-id', Values: [id] }] }),
    );
    expect(enis.NetworkInterfaces).toEqual([]);
    expect(h.sim.state.subnets.get(multusSubnet)!.available).toBe(freeBefore + 1);
    expect(h.events.map((e) => (e.detail as { state: string }).state)).toEqual([
      'pending',
      'running',
      'shutting-down',
      'terminated',
    ]);
  });

  it('finds instances by tag and pages through them', async () => {
    for (let i = 0; i < 6; i++) await launchOne(h);
    const [first] = h.sim.state.instances.keys();
    await h.ec2.send(
      new CreateTagsCommand({ Resources: [first], Tags: [{ Key: 'karpenter.sh/nodeclaim', Value: 'nc-1' }] }),
    );
    const tagged = await h.ec2.send(
      new DescribeInstancesCommand({ Filters: [{ Name: 'tag:karpenter.sh/nodeclaim', Values: ['nc-*'] }] }),
    );
    expect(tagged.Reservations?.flatMap((r) => r.Instances ?? []).map((i) => i.InstanceId)).toEqual([first]);
    const page1 = await h.ec2.send(
      new DescribeInstancesCommand({
        MaxResults: 5,
        Filters: [{ Name: 'tag-key', Values: ['karpenter.sh/nodepool'] }],
      }),
    );
    const page2 = await h.ec2.send(
      new DescribeInstancesCommand({
        MaxResults: 5,
        NextToken: page1.NextToken,
        Filters: [{ Name: 'tag-key', Values: ['karpenter.sh/nodepool'] }],
      }),
    );
    const count = (r: typeof page1) => r.Reservations?.flatMap((x) => x.Instances ?? []).length;
    expect([count(page1), count(page2), page2.NextToken]).toEqual([5, 1, undefined]);
  });

  it('answers an unknown instance with InvalidInstanceID.NotFound', async () => {
    await expect(
      h.ec2.send(new TerminateInstancesCommand({ InstanceIds: ['i-0000000000000dead'] })),
    ).rejects.toMatchObject({
      name: 'InvalidInstanceID.NotFound',
    });
  });

  it('returns the same launch template for a replayed ClientToken', async () => {
    const input = {
      LaunchTemplateName: 'tokened',
      ClientToken: 'tok-1',
      LaunchTemplateData: { ImageId: ids(h).al2023 },
    };
    const first = await h.ec2.send(new CreateLaunchTemplateCommand(input));
    const again = await h.ec2.send(new CreateLaunchTemplateCommand(input));
    expect(again.LaunchTemplate?.LaunchTemplateId).toBe(first.LaunchTemplate?.LaunchTemplateId);
    expect(h.sim.state.launchTemplates.size).toBe(4);
  });

  it('keeps launch template names unique and deletes templates', async () => {
    const data = { ImageId: ids(h).al2023 };
    await expect(
      h.ec2.send(
        new CreateLaunchTemplateCommand({
          LaunchTemplateName: 'multus-us-west-2a',
          LaunchTemplateData: data,
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidLaunchTemplateName.AlreadyExistsException' });
    await h.ec2.send(new DeleteLaunchTemplateCommand({ LaunchTemplateName: 'multus-us-west-2a' }));
    await expect(
      h.ec2.send(new DescribeLaunchTemplatesCommand({ LaunchTemplateNames: ['multus-us-west-2a'] })),
    ).rejects.toMatchObject({ name: 'InvalidLaunchTemplateName.NotFoundException' });
    const rest = await h.ec2.send(new DescribeLaunchTemplatesCommand({}));
    expect(rest.LaunchTemplates?.map((t) => t.LaunchTemplateName).sort()).toEqual([
      'multus-us-west-2b',
      'multus-us-west-2c',
    ]);
  });
});

describe('subnets that run out of addresses', () => {
  let h: Harness;
  beforeEach(async () => {
    const topology = defaultTopology(CLUSTER, 'us-west-2');
    const small = {
      ...topology,
      subnets: topology.subnets.map((s) =>
        s.tags.Name === 'Multus1Az1-karpenterwithmultus' ? { ...s, cidrBlock: '10.0.250.0/28' } : s,
      ),
    };
    h = await startHarness({ topology: small });
    await createMultusTemplates(h);
  });
  afterEach(() => h.close());

  it('fails over to the next zone with InsufficientFreeAddressesInSubnet once a Multus subnet is full', async () => {
    const t = ids(h);
    const full = await h.ec2.send(
      new RunInstancesCommand({
        MinCount: 11,
        MaxCount: 11,
        InstanceType: 'm5.large',
        ImageId: t.al2023,
        SubnetId: t.multusSubnet(1, 'us-west-2a'),
        SecurityGroupIds: [t.multusGroup],
      }),
    );
    expect(full.Instances).toHaveLength(11);
    const subnets = await h.ec2.send(
      new DescribeSubnetsCommand({ SubnetIds: [t.multusSubnet(1, 'us-west-2a')] }),
    );
    expect(subnets.Subnets?.[0].AvailableIpAddressCount).toBe(0);
    const out = await h.ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
        LaunchTemplateConfigs: multusConfigs(h, ['c6i.2xlarge']),
      }),
    );
    expect(
      out.Errors?.map((e) => [e.ErrorCode, e.LaunchTemplateAndOverrides?.Overrides?.AvailabilityZone]),
    ).toEqual([['InsufficientFreeAddressesInSubnet', 'us-west-2a']]);
    expect(h.sim.state.instances.get(out.Instances![0].InstanceIds![0])?.availabilityZone).toBe('us-west-2b');
  });
});
