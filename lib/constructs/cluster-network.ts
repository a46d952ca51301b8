import { Annotations, Fn } from 'aws-cdk-lib';
import {
  CfnSecurityGroupIngress,
  type ISecurityGroup,
  type ISubnet,
  type IVpc,
  SecurityGroup,
  Subnet,
  Vpc,
} from 'aws-cdk-lib/aws-ec2';
import { Construct } from 'constructs';

/** Properties of {@link ClusterNetwork}. */
export interface ClusterNetworkProps {
  /** The cluster's VPC. */
  readonly vpcId: string;
  /** Subnets of that VPC the functions run in (private subnets with a route to the AWS APIs). */
  readonly subnetIds: readonly string[];
  /** The cluster security group (EKS `clusterSecurityGroupId`): gets an ingress rule for 443 from the functions. */
  readonly clusterSecurityGroupId: string;
}

/**
 * Where the API-server-facing functions run for a cluster whose endpoint is private (or whose
 * public endpoint admits only some CIDRs): the given subnets of the cluster VPC, with a security
 * group of their own that the cluster security group admits on 443.
 */
export class ClusterNetwork extends Construct {
  readonly vpc: IVpc;
  readonly subnets: readonly ISubnet[];
  /** The functions' security group (all outbound: the API server and the AWS APIs). */
  readonly securityGroup: ISecurityGroup;

  constructor(scope: Construct, id: string, props: ClusterNetworkProps) {
    super(scope, id);
    if (props.subnetIds.length === 0)
      throw new Error('ClusterNetwork: subnetIds must name at least one subnet');
    this.vpc = Vpc.fromVpcAttributes(this, 'Vpc', { vpcId: props.vpcId, availabilityZones: Fn.getAzs() });
    this.subnets = props.subnetIds.map((subnetId, i) => Subnet.fromSubnetId(this, `Subnet${i}`, subnetId));
    // The functions name their subnets explicitly: no subnet lookup by zone, no route table use.
    for (const scope of [this.vpc, ...this.subnets]) {
      Annotations.of(scope).acknowledgeWarning(
        '@aws-cdk/aws-ec2:vpcAttributeIsListTokenavailabilityZones',
        'The functions are placed in the subnets given by id; the imported VPC is not asked for subnets by zone.',
      );
      Annotations.of(scope).acknowledgeWarning(
        '@aws-cdk/aws-ec2:noSubnetRouteTableId',
        'Only the subnet ids are used (Lambda VpcConfig); nothing reads their route tables.',
      );
    }
    this.securityGroup = new SecurityGroup(this, 'Functions', {
      vpc: this.vpc,
      description: 'joiner functions that call the Kubernetes API server',
      allowAllOutbound: true,
    });
    new CfnSecurityGroupIngress(this, 'ApiServerIngress', {
      groupId: props.clusterSecurityGroupId,
      ipProtocol: 'tcp',
      fromPort: 443,
      toPort: 443,
      sourceSecurityGroupId: this.securityGroup.securityGroupId,
      description: 'joiner functions to the Kubernetes API server',
    });
  }
}
