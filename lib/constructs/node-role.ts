import { Validations } from 'aws-cdk-lib';
import { InstanceProfile, ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';

/** The AWS managed policies every EKS worker node needs (as with Karpenter's node role). */
export const NODE_MANAGED_POLICIES = [
  'AmazonEKSWorkerNodePolicy',
  'AmazonEKS_CNI_Policy',
  'AmazonEC2ContainerRegistryReadOnly',
  'AmazonSSMManagedInstanceCore',
] as const;

/** Properties of {@link NodeRole}. */
export interface NodeRoleProps {
  /** Name of the EKS cluster the nodes join (used in descriptions). */
  readonly clusterName: string;
}

/**
 * The IAM role and instance profile of the nodes joiner launches. The functions may pass this
 * role (and only this role) to EC2; its EKS access entry (type EC2_LINUX) lets nodes join.
 */
export class NodeRole extends Construct {
  /** The node role. */
  readonly role: Role;
  /** The instance profile launch templates reference. */
  readonly instanceProfile: InstanceProfile;

  constructor(scope: Construct, id: string, props: NodeRoleProps) {
    super(scope, id);
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('ec2.amazonaws.com'),
      description: `Nodes joiner launches into EKS cluster ${props.clusterName}`,
      managedPolicies: NODE_MANAGED_POLICIES.map((name) => ManagedPolicy.fromAwsManagedPolicyName(name)),
    });
    this.instanceProfile = new InstanceProfile(this, 'InstanceProfile', { role: this.role });
    for (const name of NODE_MANAGED_POLICIES) {
      Validations.of(this.role).acknowledge({
        id: `AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/${name}]`,
        reason: `${name} is the AWS-maintained policy EKS documents for worker nodes; AWS keeps it current with kubelet, CNI and ECR needs.`,
      });
    }
  }
}
