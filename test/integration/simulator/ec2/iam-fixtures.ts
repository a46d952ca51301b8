import { CreateLaunchTemplateCommand, type FleetLaunchTemplateConfigRequest } from '@aws-sdk/client-ec2';
import type { Harness } from './ec2-harness.js';
import { ids } from './multus-fixtures.js';
import { ACCOUNT } from './recording-authorizer.js';

export const REGION = 'us-west-2';
export const CLUSTER_TAG = 'joiner.sh/cluster';
export const PROFILE_ARN = `arn:aws:iam::${ACCOUNT}:instance-profile/joiner-node`;
export const NODE_ROLE_ARN = `arn:aws:iam::${ACCOUNT}:role/joiner-node`;

export const arn = (type: string, id: string) =>
  type === 'image' || type === 'snapshot'
    ? `arn:aws:ec2:${REGION}::${type}/${id}`
    : `arn:aws:ec2:${REGION}:${ACCOUNT}:${type}/${id}`;

/** A launch template as joiner makes it: cluster-tagged, tagging instances, volumes and interfaces; optionally the spot request too. */
export async function createNodeTemplate(
  h: Harness,
  name: string,
  options: { spotRequestTags?: boolean; kmsKeyId?: string } = {},
): Promise<string> {
  const t = ids(h);
  const cluster = [{ Key: CLUSTER_TAG, Value: 'demo' }];
  const out = await h.ec2.send(
    new CreateLaunchTemplateCommand({
      LaunchTemplateName: name,
      TagSpecifications: [{ ResourceType: 'launch-template', Tags: cluster }],
      LaunchTemplateData: {
        ImageId: t.al2023,
        IamInstanceProfile: { Arn: PROFILE_ARN },
        MetadataOptions: { HttpTokens: 'required', HttpPutResponseHopLimit: 1 },
        BlockDeviceMappings: [
          {
            DeviceName: '/dev/xvda',
            Ebs: {
              VolumeSize: 20,
              VolumeType: 'gp3',
              ...(options.kmsKeyId ? { KmsKeyId: options.kmsKeyId } : {}),
            },
          },
        ],
        NetworkInterfaces: [{ DeviceIndex: 0, Groups: [t.nodeGroup], DeleteOnTermination: true }],
        TagSpecifications: [
          { ResourceType: 'instance', Tags: cluster },
          { ResourceType: 'volume', Tags: cluster },
          { ResourceType: 'network-interface', Tags: cluster },
          ...(options.spotRequestTags
            ? [{ ResourceType: 'spot-instances-request' as const, Tags: cluster }]
            : []),
        ],
      },
    }),
  );
  return out.LaunchTemplate!.LaunchTemplateId!;
}

/** One config of the template with one override in us-west-2a's node subnet. */
export function nodeConfig(h: Harness, name: string): FleetLaunchTemplateConfigRequest[] {
  return [
    {
      LaunchTemplateSpecification: { LaunchTemplateName: name, Version: '$Latest' },
      Overrides: [{ InstanceType: 'm5.large', SubnetId: ids(h).nodeSubnet('us-west-2a') }],
    },
  ];
}
