import { Stack } from 'aws-cdk-lib';
import { CfnAccessEntry } from 'aws-cdk-lib/aws-eks';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { DEFAULT_LAMBDA_GROUP } from '../../functions/core/install/index.js';

/** Properties of {@link ClusterAccess}. */
export interface ClusterAccessProps {
  /** Name of the existing EKS cluster (its authentication mode must allow access entries). */
  readonly clusterName: string;
  /** Role of the nodes joiner launches: access entry type EC2_LINUX. */
  readonly nodeRole: IRole;
  /** Role of the controller functions: STANDARD entry mapped to {@link lambdaGroup}. */
  readonly controllerRole: IRole;
  /** Role of the installer: STANDARD entry with cluster admin, to create CRDs, RBAC and the webhook. */
  readonly installerRole: IRole;
  /**
   * Kubernetes group of the controller role; joiner's ClusterRoleBinding grants it exactly the
   * permissions the functions need.
   * @default 'joiner-controllers'
   */
  readonly lambdaGroup?: string;
}

/**
 * EKS access entries: nodes join as EC2_LINUX; the controller functions act as a Kubernetes group
 * bound by joiner's own ClusterRole (least privilege, no access policy); the installer gets the
 * cluster admin access policy because it creates CRDs, ClusterRoles and webhook configurations.
 */
export class ClusterAccess extends Construct {
  /** The access entries (the installer depends on them). */
  readonly entries: readonly CfnAccessEntry[];

  constructor(scope: Construct, id: string, props: ClusterAccessProps) {
    super(scope, id);
    const adminPolicy = `arn:${Stack.of(this).partition}:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy`;
    this.entries = [
      new CfnAccessEntry(this, 'Nodes', {
        clusterName: props.clusterName,
        principalArn: props.nodeRole.roleArn,
        type: 'EC2_LINUX',
      }),
      new CfnAccessEntry(this, 'Controller', {
        clusterName: props.clusterName,
        principalArn: props.controllerRole.roleArn,
        type: 'STANDARD',
        kubernetesGroups: [props.lambdaGroup ?? DEFAULT_LAMBDA_GROUP],
      }),
      new CfnAccessEntry(this, 'Installer', {
        clusterName: props.clusterName,
        principalArn: props.installerRole.roleArn,
        type: 'STANDARD',
        accessPolicies: [{ policyArn: adminPolicy, accessScope: { type: 'cluster' } }],
      }),
    ];
  }
}
