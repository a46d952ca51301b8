import { Stack, Token, Validations } from 'aws-cdk-lib';
import { type IRole, Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { instanceProfilePath } from '../../functions/core/launch/node-role.js';
import { TAG } from '../../functions/core/launch/tags.js';
import { checkSsmParameterName, ssmParameterArn } from '../ssm-parameter-names.js';
import { ebsKmsStatements } from './ebs-kms-statements.js';
import { nagArn } from './nag-findings.js';
import { checkNodeRoleArn } from './node-role.js';

/** Tag key (value: the cluster name) on every EC2 resource joiner creates; IAM scopes writes by it. */
export const CLUSTER_TAG_KEY = TAG.cluster;

/**
 * Read-only EC2 calls; EC2 Describe actions do not support resource-level permissions. Instance
 * types, offerings and prices are the catalog refresh's (CatalogRefresh): these functions read
 * the snapshot it writes.
 */
export const EC2_READ_ACTIONS = [
  'ec2:DescribeCapacityReservations',
  'ec2:DescribeImages',
  'ec2:DescribeInstances',
  'ec2:DescribeLaunchTemplates',
  'ec2:DescribeSecurityGroups',
  'ec2:DescribeSubnets',
] as const;

/** The service-linked role EC2 uses for spot instances (created once per account). */
export const SPOT_SERVICE_LINKED_ROLE_NAME = 'aws-service-role/spot.amazonaws.com/AWSServiceRoleForEC2Spot';

/** Properties of {@link ControllerPermissions}. */
export interface ControllerPermissionsProps {
  /** The role of the functions that launch and terminate nodes. */
  readonly role: IRole;
  /** The stack's node role: the functions may pass it to EC2. */
  readonly nodeRole: IRole;
  /**
   * Other node roles (ARNs) the functions may pass to EC2 and attach to the instance profiles
   * they make for EC2NodeClass roles. @default none
   */
  readonly additionalNodeRoleArns?: readonly string[];
  /** EKS cluster name (a literal: it is part of IAM condition keys). */
  readonly clusterName: string;
  /** When set, launches may only use subnets and security groups of this VPC. */
  readonly vpcId?: string;
  /**
   * The value of the `joiner.sh/owner` tag on the instances this stack launches (its state
   * table's name). When set, the functions may terminate only instances carrying it, so a
   * second stack for the same cluster, or a redeployed one with a new table, cannot terminate
   * the other's nodes even through a bug. @default only the cluster tag is required
   */
  readonly instanceOwner?: string;
  /**
   * Your own SSM parameters the functions may read (`ssm:GetParameter`), besides the public EKS and
   * Bottlerocket AMI parameters: EC2NodeClass `amiSelectorTerms[].ssmParameter` values, or a path
   * with a trailing `*` (`/my-team/amis/*`). Names in the stack's account and region; `/aws/...`
   * names are AWS's public parameters. @default none
   */
  readonly ssmParameterNames?: readonly string[];
  /**
   * Customer-managed KMS key ARNs of EC2NodeClass EBS volumes the functions may use through EC2
   * (ebs-kms-statements.ts). @default none
   */
  readonly ebsKmsKeyArns?: readonly string[];
}

/**
 * Least-privilege AWS permissions of joiner's controller functions: EC2 writes only on resources
 * carrying the cluster tag (on creation via `aws:RequestTag`, afterwards via `aws:ResourceTag`),
 * PassRole only for the node roles and only to EC2, instance profile writes only under joiner's
 * path for the cluster and carrying the cluster tag (reads on any profile, as IAM requires for a
 * profile not created yet), the spot service-linked role, public AMI parameters and read-only
 * Describe calls. README "IAM permissions" lists every action with its reason.
 */
export class ControllerPermissions extends Construct {
  /** The policy attached to the role. */
  readonly policy: Policy;

  constructor(scope: Construct, id: string, props: ControllerPermissionsProps) {
    super(scope, id);
    if (Token.isUnresolved(props.clusterName)) {
      throw new Error('ControllerPermissions: clusterName must be a literal string, not a deploy-time value');
    }
    const stack = Stack.of(this);
    const ec2 = (type: string) => stack.formatArn({ service: 'ec2', resource: type, resourceName: '*' });
    const tag = CLUSTER_TAG_KEY;
    const owner = props.clusterName;
    const profiles = profilesArn(stack, props.clusterName);
    (props.additionalNodeRoleArns ?? []).forEach((arn, i) => {
      checkNodeRoleArn(arn, `ControllerPermissions additionalNodeRoleArns[${i}]`);
    });
    const ownParameters = (props.ssmParameterNames ?? []).map((name, i) =>
      checkSsmParameterName(name, `ControllerPermissions ssmParameterNames[${i}]`),
    );
    const created = [
      'fleet',
      'instance',
      'volume',
      'network-interface',
      'launch-template',
      'spot-instances-request',
    ];
    const statements = [
      new PolicyStatement({
        sid: 'LaunchTaggedResources',
        actions: ['ec2:RunInstances', 'ec2:CreateFleet', 'ec2:CreateLaunchTemplate'],
        resources: created.map(ec2),
        conditions: { StringEquals: { [`aws:RequestTag/${tag}`]: owner } },
      }),
      new PolicyStatement({
        sid: 'LaunchFromClusterLaunchTemplates',
        actions: ['ec2:RunInstances', 'ec2:CreateFleet'],
        resources: [ec2('launch-template')],
        conditions: { StringEquals: { [`aws:ResourceTag/${tag}`]: owner } },
      }),
      new PolicyStatement({
        sid: 'LaunchIntoNetwork',
        actions: ['ec2:RunInstances', 'ec2:CreateFleet'],
        resources: [ec2('subnet'), ec2('security-group')],
        conditions: props.vpcId ? { StringEquals: { 'ec2:Vpc': ec2Vpc(stack, props.vpcId) } } : undefined,
      }),
      new PolicyStatement({
        sid: 'LaunchFromImages',
        actions: ['ec2:RunInstances', 'ec2:CreateFleet'],
        resources: [
          stack.formatArn({ service: 'ec2', account: '', resource: 'image', resourceName: '*' }),
          stack.formatArn({ service: 'ec2', account: '', resource: 'snapshot', resourceName: '*' }),
        ],
      }),
      // Capacity reservations (ODCRs, Capacity Blocks) a launch targets; any owner, as a
      // reservation may be shared from another account (Karpenter's policy grants the same).
      new PolicyStatement({
        sid: 'LaunchIntoCapacityReservations',
        actions: ['ec2:RunInstances', 'ec2:CreateFleet'],
        resources: [
          stack.formatArn({
            service: 'ec2',
            account: '*',
            resource: 'capacity-reservation',
            resourceName: '*',
          }),
        ],
      }),
      new PolicyStatement({
        sid: 'TagOnLaunch',
        actions: ['ec2:CreateTags'],
        resources: created.map(ec2),
        conditions: {
          StringEquals: {
            [`aws:RequestTag/${tag}`]: owner,
            'ec2:CreateAction': ['RunInstances', 'CreateFleet', 'CreateLaunchTemplate'],
          },
        },
      }),
      // After a launch: the nodeclaim and Multus no_manage tags on the instance's ENIs (tagged
      // with the cluster at creation by the launch template) and their source/dest check.
      new PolicyStatement({
        sid: 'ManageClusterResources',
        actions: ['ec2:CreateTags', 'ec2:ModifyNetworkInterfaceAttribute'],
        resources: [ec2('network-interface')],
        conditions: { StringEquals: { [`aws:ResourceTag/${tag}`]: owner } },
      }),
      new PolicyStatement({
        sid: props.instanceOwner ? 'TerminateOwnInstances' : 'TerminateClusterInstances',
        actions: ['ec2:TerminateInstances'],
        resources: [ec2('instance')],
        conditions: {
          StringEquals: {
            [`aws:ResourceTag/${tag}`]: owner,
            ...(props.instanceOwner ? { [`aws:ResourceTag/${TAG.owner}`]: props.instanceOwner } : {}),
          },
        },
      }),
      // A fresh account has no spot service-linked role: EC2 creates it on the first spot
      // request, only when the caller may (else AuthFailure.ServiceLinkedRoleCreationNotPermitted).
      new PolicyStatement({
        sid: 'CreateSpotServiceLinkedRole',
        actions: ['iam:CreateServiceLinkedRole'],
        resources: [
          stack.formatArn({
            service: 'iam',
            region: '',
            resource: 'role',
            resourceName: SPOT_SERVICE_LINKED_ROLE_NAME,
          }),
        ],
        conditions: { StringEquals: { 'iam:AWSServiceName': 'spot.amazonaws.com' } },
      }),
      new PolicyStatement({
        sid: 'PassNodeRoleToEc2',
        actions: ['iam:PassRole'],
        resources: [props.nodeRole.roleArn, ...new Set(props.additionalNodeRoleArns ?? [])],
        conditions: { StringEquals: { 'iam:PassedToService': 'ec2.amazonaws.com' } },
      }),
      // Instance profiles joiner makes for EC2NodeClass roles, all under its path for this
      // cluster and region. aws:RequestTag / aws:ResourceTag apply to instance-profile resources.
      new PolicyStatement({
        sid: 'CreateNodeClassInstanceProfiles',
        actions: ['iam:CreateInstanceProfile'],
        resources: [profiles],
        conditions: { StringEquals: { [`aws:RequestTag/${tag}`]: owner } },
      }),
      new PolicyStatement({
        sid: 'TagNodeClassInstanceProfiles',
        actions: ['iam:TagInstanceProfile'],
        resources: [profiles],
        conditions: { StringEquals: { [`aws:ResourceTag/${tag}`]: owner, [`aws:RequestTag/${tag}`]: owner } },
      }),
      new PolicyStatement({
        sid: 'ManageNodeClassInstanceProfiles',
        actions: [
          'iam:AddRoleToInstanceProfile',
          'iam:RemoveRoleFromInstanceProfile',
          'iam:DeleteInstanceProfile',
        ],
        resources: [profiles],
        conditions: { StringEquals: { [`aws:ResourceTag/${tag}`]: owner } },
      }),
      // GetInstanceProfile names a profile without its path, so for a profile that does not exist
      // yet IAM cannot put joiner's path in the ARN it evaluates (instance-profile/<name>): a
      // path-scoped grant would answer AccessDenied instead of NoSuchEntity. Read-only, as Karpenter.
      new PolicyStatement({
        sid: 'ReadInstanceProfiles',
        actions: ['iam:GetInstanceProfile'],
        resources: [
          stack.formatArn({ service: 'iam', region: '', resource: 'instance-profile', resourceName: '*' }),
        ],
      }),
      // ListInstanceProfiles has no resource type in the service authorization reference: only
      // Resource "*" matches it (the PathPrefix parameter bounds what the sweep reads).
      new PolicyStatement({
        sid: 'ListInstanceProfiles',
        actions: ['iam:ListInstanceProfiles'],
        resources: ['*'],
      }),
      new PolicyStatement({
        sid: 'ReadPublicAmiParameters',
        actions: ['ssm:GetParameter'],
        resources: ['eks/optimized-ami', 'bottlerocket'].map((path) =>
          stack.formatArn({
            service: 'ssm',
            account: '',
            resource: 'parameter',
            resourceName: `aws/service/${path}/*`,
          }),
        ),
      }),
      ...(ownParameters.length > 0
        ? [
            new PolicyStatement({
              sid: 'ReadOwnAmiParameters',
              actions: ['ssm:GetParameter'],
              resources: [...new Set(ownParameters.map((name) => ssmParameterArn(stack, name)))],
            }),
          ]
        : []),
      new PolicyStatement({
        sid: 'DescribeCluster',
        actions: ['eks:DescribeCluster'],
        resources: [
          stack.formatArn({ service: 'eks', resource: 'cluster', resourceName: props.clusterName }),
        ],
      }),
      new PolicyStatement({ sid: 'ReadEc2', actions: [...EC2_READ_ACTIONS], resources: ['*'] }),
      ...ebsKmsStatements(stack, props.ebsKmsKeyArns),
    ];
    this.policy = new Policy(this, 'Policy', { statements });
    props.role.attachInlinePolicy(this.policy);
    this.acknowledgeWildcards(props.clusterName, ownParameters);
  }

  private acknowledgeWildcards(clusterName: string, ownParameters: readonly string[]): void {
    const ack = (finding: string, reason: string) =>
      Validations.of(this.policy).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason });
    const byTag =
      'Writes on resources joiner creates are bounded by the cluster tag condition (aws:RequestTag / aws:ResourceTag); ids are unknown before launch.';
    for (const type of [
      'fleet',
      'instance',
      'volume',
      'network-interface',
      'launch-template',
      'spot-instances-request',
    ]) {
      ack(`Resource::${nagArn(this, 'ec2', `${type}/*`)}`, byTag);
    }
    for (const type of ['subnet', 'security-group']) {
      ack(
        `Resource::${nagArn(this, 'ec2', `${type}/*`)}`,
        'Launches reference the subnets and security groups that NodeClass selectors choose at run time; bounded to the cluster VPC when joiner:vpcId is set.',
      );
    }
    for (const type of ['image', 'snapshot']) {
      ack(
        `Resource::${nagArn(this, 'ec2', `${type}/*`, false)}`,
        "Launches reference AMIs (public EKS-optimized or the user's own) chosen by NodeClass selectors at run time; referencing an image does not modify it.",
      );
    }
    ack(
      `Resource::${nagArn(this, 'ec2', 'capacity-reservation/*', false).replace('::capacity-reservation', ':*:capacity-reservation')}`,
      'Launches target the capacity reservations (ODCRs, Capacity Blocks) that EC2NodeClass capacityReservationSelectorTerms choose at run time, shared ones from other accounts included; targeting a reservation does not modify it (as Karpenter grants).',
    );
    for (const path of ['eks/optimized-ami', 'bottlerocket']) {
      ack(
        `Resource::${nagArn(this, 'ssm', `parameter/aws/service/${path}/*`, false)}`,
        'Read-only access to the public AWS AMI parameters, the documented way to find current EKS node images.',
      );
    }
    for (const name of ownParameters.filter((n) => n.endsWith('*'))) {
      const path = name.startsWith('/') ? name.slice(1) : name;
      ack(
        `Resource::${nagArn(this, 'ssm', `parameter/${path}`, !path.startsWith('aws/'))}`,
        `Read-only access to the SSM parameters under ${name}, as the joiner:ssmParameterNames setting (ssmParameterNames prop) asks, for EC2NodeClass AMI selection.`,
      );
    }
    ack(
      `Resource::${nagProfilesArn(this, clusterName)}`,
      "Instance profiles are named per EC2NodeClass at run time; the resource is bounded to joiner's IAM path for this cluster and region, and writes to the cluster tag.",
    );
    ack(
      `Resource::arn:<AWS::Partition>:iam::${nagAccount(this)}:instance-profile/*`,
      'GetInstanceProfile names a profile without its path: a path-scoped grant cannot match a profile that does not exist yet (read-only).',
    );
    ack(
      'Resource::*',
      'EC2 Describe* calls and iam:ListInstanceProfiles support no resource-level permissions; all statements on * are read-only.',
    );
  }
}

/** The instance profiles joiner makes for the cluster: under its IAM path (global service, no region in the ARN). */
function profilesArn(stack: Stack, clusterName: string): string {
  return stack.formatArn({
    service: 'iam',
    region: '',
    resource: 'instance-profile',
    resourceName: `${instanceProfilePath(stack.region, clusterName).slice(1)}*`,
  });
}

/** {@link profilesArn} as cdk-nag prints it. */
function nagProfilesArn(scope: Construct, clusterName: string): string {
  const stack = Stack.of(scope);
  const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
  const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
  return `arn:<AWS::Partition>:iam::${account}:instance-profile${instanceProfilePath(region, clusterName)}*`;
}

function nagAccount(scope: Construct): string {
  const stack = Stack.of(scope);
  return Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
}

function ec2Vpc(stack: Stack, vpcId: string): string {
  return stack.formatArn({ service: 'ec2', resource: 'vpc', resourceName: vpcId });
}
