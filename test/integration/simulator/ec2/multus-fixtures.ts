import {
  type _InstanceType,
  CreateLaunchTemplateCommand,
  type FleetLaunchTemplateConfigRequest,
} from '@aws-sdk/client-ec2';
import type { Harness } from './ec2-harness.js';

export const CLUSTER = 'eks-karpenterwithmultus';
export const ZONES = ['us-west-2a', 'us-west-2b', 'us-west-2c'];

/** The simulated topology's ids by their Name tags. */
export function ids(h: Harness) {
  const { subnets, securityGroups, images } = h.sim.state.topology;
  const subnet = (name: string) => subnets.find((s) => s.tags.Name === name)!.subnetId;
  return {
    nodeSubnet: (zone: string) => subnet(`${CLUSTER}-private-${zone}`),
    multusSubnet: (n: number, zone: string) =>
      subnet(`Multus${n}Az${ZONES.indexOf(zone) + 1}-karpenterwithmultus`),
    nodeGroup: securityGroups.find((g) => g.groupName === `${CLUSTER}-node`)!.groupId,
    multusGroup: securityGroups.find((g) => g.groupName === 'Vpc1SecurityGroup')!.groupId,
    al2023: images.find((i) =>
      i.ssmParameters.some((p) => p.includes('1.31/amazon-linux-2023/x86_64/standard/recommended')),
    )!.imageId,
  };
}

/** One launch template per zone, as joiner builds them: the primary ENI plus two Multus ENIs of that zone. */
export async function createMultusTemplates(h: Harness, prefix = 'multus'): Promise<void> {
  const t = ids(h);
  for (const zone of ZONES) {
    await h.ec2.send(
      new CreateLaunchTemplateCommand({
        LaunchTemplateName: `${prefix}-${zone}`,
        LaunchTemplateData: {
          ImageId: t.al2023,
          UserData: Buffer.from('[settings.kubernetes]\nmax-pods = 56\n').toString('base64'),
          MetadataOptions: { HttpTokens: 'required', HttpPutResponseHopLimit: 1, HttpEndpoint: 'enabled' },
          BlockDeviceMappings: [
            {
              DeviceName: '/dev/xvda',
              Ebs: { VolumeSize: 20, VolumeType: 'gp3', DeleteOnTermination: true },
            },
          ],
          IamInstanceProfile: { Name: 'KarpenterNodeInstanceProfile' },
          NetworkInterfaces: [
            { DeviceIndex: 0, Groups: [t.nodeGroup], DeleteOnTermination: true },
            {
              DeviceIndex: 1,
              SubnetId: t.multusSubnet(1, zone),
              Groups: [t.multusGroup],
              DeleteOnTermination: true,
            },
            {
              DeviceIndex: 2,
              SubnetId: t.multusSubnet(2, zone),
              Groups: [t.multusGroup],
              DeleteOnTermination: true,
            },
          ],
          TagSpecifications: [
            { ResourceType: 'instance', Tags: [{ Key: 'karpenter.sh/nodepool', Value: 'multus' }] },
            {
              ResourceType: 'network-interface',
              Tags: [{ Key: 'node.k8s.amazonaws.com/no_manage', Value: 'true' }],
            },
            { ResourceType: 'volume', Tags: [{ Key: 'cluster', Value: CLUSTER }] },
          ],
        },
      }),
    );
  }
}

/** Launch template configs for the zones, each overriding the instance types with the zone's node subnet. */
export function multusConfigs(
  h: Harness,
  types: _InstanceType[],
  prefix = 'multus',
): FleetLaunchTemplateConfigRequest[] {
  const t = ids(h);
  return ZONES.map((zone) => ({
    LaunchTemplateSpecification: { LaunchTemplateName: `${prefix}-${zone}`, Version: '$Latest' },
    Overrides: types.map((InstanceType) => ({
      InstanceType,
      SubnetId: t.nodeSubnet(zone),
      AvailabilityZone: zone,
    })),
  }));
}
