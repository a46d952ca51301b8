import {
  CreateFleetCommand,
  CreateLaunchTemplateCommand,
  DescribeInstancesCommand,
  DescribeInstanceTypesCommand,
  type LaunchTemplateInstanceNetworkInterfaceSpecificationRequest,
} from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Catalog, InstanceType } from '../../../../functions/core/model/instance-type.js';
import { type Harness, startHarness } from './ec2-harness.js';
import { ids } from './multus-fixtures.js';
import { testCatalog } from './test-catalog.js';

const offerings = [{ zone: 'us-west-2a', capacityType: 'on-demand' as const, price: 20 }];
const p4d: InstanceType = {
  name: 'p4d.24xlarge',
  vcpu: 96,
  memoryMiB: 1179648,
  arch: 'amd64',
  maxEnis: 60,
  ipv4PerEni: 50,
  networkCards: 4,
  maxEfaInterfaces: 4,
  offerings,
};
const catalog: Catalog = { ...testCatalog, instanceTypes: [...testCatalog.instanceTypes, p4d] };

type Nic = LaunchTemplateInstanceNetworkInterfaceSpecificationRequest;

describe('EFA interfaces in the simulated EC2', () => {
  let h: Harness;
  let n = 0;
  beforeEach(async () => {
    h = await startHarness({ catalog });
  });
  afterEach(() => h.close());

  /** Launches `type` with `interfaces` through a launch template and CreateFleet; the fleet's answer. */
  async function launch(type: string, interfaces: (t: ReturnType<typeof ids>) => Nic[]) {
    const t = ids(h);
    const name = `efa-${n++}`;
    await h.ec2.send(
      new CreateLaunchTemplateCommand({
        LaunchTemplateName: name,
        LaunchTemplateData: {
          ImageId: t.al2023,
          IamInstanceProfile: { Name: 'KarpenterNodeInstanceProfile' },
          NetworkInterfaces: interfaces(t),
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
            Overrides: [{ InstanceType: type as never, SubnetId: t.nodeSubnet('us-west-2a') }],
          },
        ],
      }),
    );
  }

  const efa = (
    t: ReturnType<typeof ids>,
    card: number,
    type: 'efa' | 'efa-only',
    device = card === 0 ? 0 : 1,
  ): Nic => ({
    NetworkCardIndex: card,
    DeviceIndex: device,
    InterfaceType: type,
    SubnetId: t.nodeSubnet('us-west-2a'),
    Groups: [t.nodeGroup],
    DeleteOnTermination: true,
  });

  it('launches a p4d with one EFA per network card (efa-only ones without an IP) beside a Multus interface', async () => {
    const out = await launch('p4d.24xlarge', (t) => [
      efa(t, 0, 'efa'),
      efa(t, 1, 'efa-only'),
      efa(t, 2, 'efa-only'),
      efa(t, 3, 'efa-only'),
      {
        DeviceIndex: 1,
        NetworkCardIndex: 0,
        SubnetId: t.multusSubnet(1, 'us-west-2a'),
        Groups: [t.multusGroup],
      },
    ]);
    expect(out.Errors).toEqual([]);
    const id = out.Instances?.[0].InstanceIds?.[0];
    const described = await h.ec2.send(new DescribeInstancesCommand({ InstanceIds: [id as string] }));
    const nics = described.Reservations?.[0].Instances?.[0].NetworkInterfaces ?? [];
    const byType = (type: string) => nics.filter((e) => e.InterfaceType === type);
    expect(byType('efa').map((e) => e.Attachment?.NetworkCardIndex)).toEqual([0]);
    expect(byType('efa')[0].PrivateIpAddress).toMatch(/^10\.0\./);
    expect(
      byType('efa-only')
        .map((e) => e.Attachment?.NetworkCardIndex)
        .sort(),
    ).toEqual([1, 2, 3]);
    for (const e of byType('efa-only')) expect(e.PrivateIpAddress).toBeUndefined();
    expect(byType('interface')).toHaveLength(1);
  });

  it('refuses EFA on a type without EFA, two on one card, an efa-only primary, an unknown interface type, a card the type lacks', async () => {
    const cases: [string, (t: ReturnType<typeof ids>) => Nic[], string, RegExp][] = [
      [
        'm5.large',
        (t) => [efa(t, 0, 'efa')],
        'InvalidParameterCombination',
        /'m5\.large' does not support Elastic Fabric Adapter/,
      ],
      [
        'p4d.24xlarge',
        (t) => [efa(t, 0, 'efa'), efa(t, 1, 'efa-only'), efa(t, 1, 'efa-only', 2)],
        'InvalidParameterCombination',
        /Only one EFA interface is supported per network card: network card 1/,
      ],
      [
        'p4d.24xlarge',
        (t) => [efa(t, 0, 'efa-only')],
        'InvalidParameterCombination',
        /primary network interface .* cannot be an efa-only/,
      ],
      [
        'p4d.24xlarge',
        (t) => [{ ...efa(t, 0, 'efa'), InterfaceType: 'trunk' }],
        'InvalidParameterValue',
        /Value \(trunk\) for parameter InterfaceType is invalid/,
      ],
      [
        'p4d.24xlarge',
        (t) => [efa(t, 0, 'efa'), efa(t, 4, 'efa-only')],
        'InvalidParameterValue',
        /Network card index 4 is out of range: p4d\.24xlarge has 4/,
      ],
    ];
    for (const [type, interfaces, code, message] of cases) {
      const out = await launch(type, interfaces);
      expect(out.Instances ?? [], `${type} ${code}`).toEqual([]);
      expect(out.Errors?.[0]?.ErrorCode).toBe(code);
      expect(out.Errors?.[0]?.ErrorMessage).toMatch(message);
    }
  });

  it('describes EFA support and filters on it, as DescribeInstanceTypes does', async () => {
    const out = await h.ec2.send(
      new DescribeInstanceTypesCommand({
        Filters: [{ Name: 'network-info.efa-supported', Values: ['true'] }],
      }),
    );
    expect(out.InstanceTypes?.map((t) => t.InstanceType)).toEqual(['p4d.24xlarge']);
    const info = out.InstanceTypes?.[0].NetworkInfo;
    expect(info?.EfaSupported).toBe(true);
    expect(info?.EfaInfo?.MaximumEfaInterfaces).toBe(4);
    expect(info?.NetworkCards?.map((c) => c.MaximumNetworkInterfaces)).toEqual([15, 15, 15, 15]);
  });
});
