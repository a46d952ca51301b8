import { Token, Validations } from 'aws-cdk-lib';
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
  /**
   * ARNs of other node roles joiner may pass to EC2: the `role` an EC2NodeClass names must be one
   * of them (or this construct's role). @default none
   */
  readonly additionalRoleArns?: readonly string[];
}

/** A role ARN IAM accepts: partition, 12-digit account, optional path, role name. */
const ROLE_ARN = /^arn:aws(-[a-z]+)*:iam::\d{12}:role\/([\x21-\x7e]+\/)?[\w+=,.@-]{1,64}$/;

/** Throws, naming `where`, unless `arn` is an IAM role ARN (unresolved tokens are accepted). */
export function checkNodeRoleArn(arn: string, where: string): void {
  if (Token.isUnresolved(arn) || ROLE_ARN.test(arn)) return;
  throw new Error(
    `${where}: '${arn}' is not an IAM role ARN (arn:aws:iam::<12-digit account>:role/[<path>/]<name>)`,
  );
}

/**
 * The IAM role and instance profile of the nodes joiner launches, and the node roles joiner may
 * pass to EC2: this role, plus the `additionalRoleArns` EC2NodeClasses name in `role` (joiner
 * makes an instance profile for each). Its EKS access entry (type EC2_LINUX) lets nodes join;
 * other roles need their own access entries.
 */
export class NodeRole extends Construct {
  /** The node role. */
  readonly role: Role;
  /** The instance profile launch templates reference. */
  readonly instanceProfile: InstanceProfile;
  /** Every node role ARN joiner may pass: this role's first, then the additional ones. */
  readonly passableRoleArns: readonly string[];

  constructor(scope: Construct, id: string, props: NodeRoleProps) {
    super(scope, id);
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('ec2.amazonaws.com'),
      description: `Nodes joiner launches into EKS cluster ${props.clusterName}`,
      managedPolicies: NODE_MANAGED_POLICIES.map((name) => ManagedPolicy.fromAwsManagedPolicyName(name)),
    });
    this.instanceProfile = new InstanceProfile(this, 'InstanceProfile', { role: this.role });
    const additional = props.additionalRoleArns ?? [];
    additional.forEach((arn, i) => {
      checkNodeRoleArn(arn, `NodeRole additionalRoleArns[${i}]`);
    });
    this.passableRoleArns = [this.role.roleArn, ...new Set(additional)];
    for (const name of NODE_MANAGED_POLICIES) {
      Validations.of(this.role).acknowledge({
        id: `AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/${name}]`,
        reason: `${name} is the AWS-maintained policy EKS documents for worker nodes; AWS keeps it current with kubelet, CNI and ECR needs.`,
      });
    }
  }
}
