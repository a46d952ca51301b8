import type { ClusterInfo } from '../../core/launch/cluster-info.js';
import { AmiProvider } from './ami-provider.js';
import { CapacityReservationProvider } from './capacity-reservation-provider.js';
import { type AwsClientOptions, createEc2Client, createIamClient, createSsmClient } from './clients.js';
import { createEc2Api } from './ec2-api.js';
import { type ClusterLookup, Ec2CloudProvider } from './ec2-cloud-provider.js';
import type { Sleep } from './eventual-consistency.js';
import { IamInstanceProfiles } from './iam-instance-profiles.js';
import { InstanceProfileProvider } from './instance-profile-provider.js';
import { LaunchTemplateProvider } from './launch-template-provider.js';
import { SecurityGroupProvider } from './security-group-provider.js';
import { SubnetProvider } from './subnet-provider.js';

/** Everything the EC2 cloud provider needs to be wired. */
export interface CloudProviderOptions extends AwsClientOptions {
  /** The cluster nodes join, or its name and a lookup made on the first launch. */
  readonly cluster: ClusterInfo | ClusterLookup;
  /** Kubernetes minor version (e.g. `1.30`) for AMI aliases, or its lookup (made when first needed). */
  readonly kubernetesVersion: string | (() => Promise<string>);
  readonly defaultInstanceProfile?: string;
  /** Node role ARNs joiner may pass (JOINER_NODE_ROLE_ARNS); undefined: not checked. */
  readonly nodeRoleArns?: readonly string[];
  readonly now?: () => number;
  /** The identity tagged on every instance (`joiner.sh/owner`); the state table's name. */
  readonly owner?: string;
  /** Waits between tries while EC2 does not see what it just created. @default the wall clock */
  readonly sleep?: Sleep;
}

/** Wires the EC2 cloud provider with its providers and caches. */
export function createCloudProvider(options: CloudProviderOptions): Ec2CloudProvider {
  const ec2 = createEc2Api(createEc2Client(options));
  const now = options.now ?? Date.now;
  return new Ec2CloudProvider({
    ec2,
    cluster: options.cluster,
    ...(options.owner ? { owner: options.owner } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
    launchTemplates: new LaunchTemplateProvider(ec2, now, options.sleep),
    capacityReservations: new CapacityReservationProvider(ec2, now),
    providers: {
      subnets: new SubnetProvider(ec2, now),
      securityGroups: new SecurityGroupProvider(ec2, now),
      amis: new AmiProvider(ec2, createSsmClient(options), options.kubernetesVersion, now),
      instanceProfiles: new InstanceProfileProvider({
        clusterName: options.cluster.name,
        region: options.region,
        defaultProfile: options.defaultInstanceProfile,
        profiles: new IamInstanceProfiles(createIamClient(options)),
        allowedRoles: options.nodeRoleArns,
        now,
      }),
    },
  });
}
