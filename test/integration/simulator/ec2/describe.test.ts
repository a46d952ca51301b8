import {
  DescribeAvailabilityZonesCommand,
  DescribeImagesCommand,
  DescribeInstanceTypeOfferingsCommand,
  DescribeInstanceTypesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSpotPriceHistoryCommand,
  DescribeSubnetsCommand,
  paginateDescribeInstanceTypes,
} from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './ec2-harness.js';

describe('simulated EC2 describe calls through @aws-sdk/client-ec2', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('filters instance types by name wildcard and architecture', async () => {
    const out = await h.ec2.send(
      new DescribeInstanceTypesCommand({
        Filters: [
          { Name: 'instance-type', Values: ['m*.large', 'c6i.*'] },
          { Name: 'processor-info.supported-architecture', Values: ['x86_64'] },
        ],
      }),
    );
    expect(out.InstanceTypes?.map((t) => t.InstanceType)).toEqual(['c6i.2xlarge', 'c6i.large', 'm5.large']);
    const c6i = out.InstanceTypes?.find((t) => t.InstanceType === 'c6i.2xlarge');
    expect(c6i?.VCpuInfo?.DefaultVCpus).toBe(8);
    expect(c6i?.MemoryInfo?.SizeInMiB).toBe(16384);
    expect(c6i?.NetworkInfo?.MaximumNetworkInterfaces).toBe(4);
    expect(c6i?.NetworkInfo?.Ipv4AddressesPerInterface).toBe(15);
    expect(c6i?.SupportedUsageClasses).toEqual(['on-demand', 'spot']);
  });

  it('paginates instance types with MaxResults and NextToken', async () => {
    const first = await h.ec2.send(new DescribeInstanceTypesCommand({ MaxResults: 5 }));
    expect(first.InstanceTypes).toHaveLength(5);
    expect(first.NextToken).toBeTruthy();
    const second = await h.ec2.send(
      new DescribeInstanceTypesCommand({ MaxResults: 5, NextToken: first.NextToken }),
    );
    expect(second.InstanceTypes).toHaveLength(2);
    expect(second.NextToken).toBeUndefined();
    const names: string[] = [];
    for await (const page of paginateDescribeInstanceTypes({ client: h.ec2, pageSize: 5 }, {})) {
      names.push(...(page.InstanceTypes ?? []).map((t) => t.InstanceType ?? ''));
    }
    expect(names).toHaveLength(7);
    expect(new Set(names).size).toBe(7);
  });

  it('rejects an unknown filter and a bad page size with typed errors', async () => {
    await expect(
      h.ec2.send(new DescribeInstanceTypesCommand({ Filters: [{ Name: 'colour', Values: ['blue'] }] })),
    ).rejects.toMatchObject({ name: 'InvalidParameterValue' });
    await expect(h.ec2.send(new DescribeInstanceTypesCommand({ MaxResults: 1000 }))).rejects.toMatchObject({
      name: 'InvalidParameterValue',
    });
  });

  it('lists offerings per availability zone', async () => {
    const out = await h.ec2.send(
      new DescribeInstanceTypeOfferingsCommand({
        LocationType: 'availability-zone',
        Filters: [{ Name: 'instance-type', Values: ['m5.large'] }],
      }),
    );
    expect(out.InstanceTypeOfferings?.map((o) => o.Location)).toEqual([
      'us-west-2a',
      'us-west-2b',
      'us-west-2c',
    ]);
    const zones = await h.ec2.send(new DescribeAvailabilityZonesCommand({}));
    expect(zones.AvailabilityZones?.map((z) => [z.ZoneName, z.ZoneId])).toEqual([
      ['us-west-2a', 'usw2-az1'],
      ['us-west-2b', 'usw2-az2'],
      ['us-west-2c', 'usw2-az3'],
    ]);
  });

  it('finds node subnets by discovery tag and Multus subnets by the seed 000 names', async () => {
    const nodes = await h.ec2.send(
      new DescribeSubnetsCommand({
        Filters: [{ Name: 'tag:karpenter.sh/discovery', Values: ['eks-karpenterwithmultus'] }],
      }),
    );
    expect(nodes.Subnets?.map((s) => s.AvailabilityZone)).toEqual(['us-west-2a', 'us-west-2b', 'us-west-2c']);
    expect(nodes.Subnets?.every((s) => s.AvailableIpAddressCount === 8187)).toBe(true);
    const multus = await h.ec2.send(
      new DescribeSubnetsCommand({
        Filters: [{ Name: 'tag:Name', Values: ['Multus1Az1-karpenterwithmultus'] }],
      }),
    );
    expect(multus.Subnets).toHaveLength(1);
    expect(multus.Subnets?.[0].AvailabilityZone).toBe('us-west-2a');
    expect(multus.Subnets?.[0].AvailableIpAddressCount).toBe(251);
    const tagged = await h.ec2.send(
      new DescribeSubnetsCommand({ Filters: [{ Name: 'tag-key', Values: ['multus'] }] }),
    );
    expect(tagged.Subnets).toHaveLength(6);
  });

  it('finds security groups by tag and by name', async () => {
    const byTag = await h.ec2.send(
      new DescribeSecurityGroupsCommand({
        Filters: [{ Name: 'tag:kubernetes.io/cluster/eks-karpenterwithmultus', Values: ['owned'] }],
      }),
    );
    expect(byTag.SecurityGroups?.map((g) => g.GroupName)).toEqual(['eks-karpenterwithmultus-node']);
    const byName = await h.ec2.send(
      new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'group-name', Values: ['Vpc1SecurityGroup'] }] }),
    );
    expect(byName.SecurityGroups).toHaveLength(1);
    await expect(
      h.ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: ['sg-0missing'] })),
    ).rejects.toMatchObject({
      name: 'InvalidGroup.NotFound',
    });
  });

  it('finds EKS images by name wildcard and owner', async () => {
    const out = await h.ec2.send(
      new DescribeImagesCommand({
        Owners: ['amazon'],
        Filters: [
          { Name: 'name', Values: ['amazon-eks-node-al2023-*-standard-1.31-*'] },
          { Name: 'architecture', Values: ['arm64'] },
        ],
      }),
    );
    expect(out.Images?.map((i) => i.Name).sort()).toEqual([
      'amazon-eks-node-al2023-arm64-standard-1.31-v20250901',
      'amazon-eks-node-al2023-arm64-standard-1.31-v20251001',
    ]);
    const none = await h.ec2.send(new DescribeImagesCommand({ Owners: ['self'] }));
    expect(none.Images).toEqual([]);
  });

  it('reports spot prices per zone from the catalog', async () => {
    const out = await h.ec2.send(
      new DescribeSpotPriceHistoryCommand({
        InstanceTypes: ['m5.large'],
        ProductDescriptions: ['Linux/UNIX'],
      }),
    );
    expect(out.SpotPriceHistory?.map((p) => [p.AvailabilityZone, p.SpotPrice])).toEqual([
      ['us-west-2a', '0.035000'],
      ['us-west-2b', '0.040000'],
      ['us-west-2c', '0.038000'],
    ]);
  });
});
