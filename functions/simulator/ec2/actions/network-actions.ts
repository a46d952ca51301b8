/** Subnets, security groups and network interfaces of the simulated VPC. */
import { requireAuthorized } from '../authorization/ec2-caller.js';
import { modifyNetworkInterfaceChecks } from '../authorization/resource-checks.js';
import { describable, describedTags } from '../consistency/eventual-consistency.js';
import { Ec2Error } from '../ec2-error.js';
import { checkFilterNames, matchesFilters, parseFilters, tagSet } from '../filters.js';
import { networkInterfaceXml } from '../instance-xml.js';
import { paginate } from '../pagination.js';
import type { Ec2Action } from './action.js';

const SUBNET_FILTERS = [
  'subnet-id',
  'vpc-id',
  'availability-zone',
  'availability-zone-id',
  'cidr-block',
  'state',
];

export const describeSubnets: Ec2Action = (ctx, params) => {
  const filters = parseFilters(params);
  checkFilterNames(filters, SUBNET_FILTERS, 'DescribeSubnets');
  const ids = params.strings('SubnetId');
  for (const id of ids) {
    if (!ctx.state.subnets.has(id))
      throw new Ec2Error('InvalidSubnetID.NotFound', `The subnet ID '${id}' does not exist`);
  }
  const { vpcId, accountId } = ctx.state.topology;
  const subnets = [...ctx.state.subnets.values()].filter(
    ({ spec }) =>
      (ids.length === 0 || ids.includes(spec.subnetId)) &&
      matchesFilters(
        filters,
        {
          'subnet-id': [spec.subnetId],
          'vpc-id': [vpcId],
          'availability-zone': [spec.availabilityZone],
          'availability-zone-id': [ctx.state.zoneId(spec.availabilityZone)],
          'cidr-block': [spec.cidrBlock],
          state: ['available'],
          'owner-id': [accountId],
        },
        spec.tags,
      ),
  );
  const page = paginate(subnets, params, 'DescribeSubnets');
  return {
    subnetSet: page.items.map((subnet) => ({
      subnetId: subnet.spec.subnetId,
      subnetArn: `arn:aws:ec2:${ctx.region}:${accountId}:subnet/${subnet.spec.subnetId}`,
      state: 'available',
      vpcId,
      ownerId: accountId,
      cidrBlock: subnet.spec.cidrBlock,
      ipv6CidrBlockAssociationSet: subnet.spec.ipv6CidrBlock
        ? [
            {
              associationId: `subnet-cidr-assoc-${subnet.spec.subnetId.slice(7)}`,
              ipv6CidrBlock: subnet.spec.ipv6CidrBlock,
              ipv6CidrBlockState: { state: 'associated' },
            },
          ]
        : [],
      availableIpAddressCount: subnet.available,
      availabilityZone: subnet.spec.availabilityZone,
      availabilityZoneId: ctx.state.zoneId(subnet.spec.availabilityZone),
      defaultForAz: false,
      mapPublicIpOnLaunch: false,
      assignIpv6AddressOnCreation: false,
      tagSet: tagSet(subnet.spec.tags),
    })),
    nextToken: page.nextToken,
  };
};

const GROUP_FILTERS = ['group-id', 'group-name', 'vpc-id', 'description', 'owner-id'];

export const describeSecurityGroups: Ec2Action = (ctx, params) => {
  const filters = parseFilters(params);
  checkFilterNames(filters, GROUP_FILTERS, 'DescribeSecurityGroups');
  const ids = params.strings('GroupId');
  const names = params.strings('GroupName');
  for (const id of ids) {
    if (!ctx.state.securityGroups.has(id)) {
      throw new Ec2Error('InvalidGroup.NotFound', `The security group '${id}' does not exist`);
    }
  }
  const { vpcId, accountId } = ctx.state.topology;
  const groups = [...ctx.state.securityGroups.values()].filter(
    (g) =>
      (ids.length === 0 || ids.includes(g.groupId)) &&
      (names.length === 0 || names.includes(g.groupName)) &&
      matchesFilters(
        filters,
        {
          'group-id': [g.groupId],
          'group-name': [g.groupName],
          'vpc-id': [vpcId],
          description: [g.description],
          'owner-id': [accountId],
        },
        g.tags,
      ),
  );
  const page = paginate(groups, params, 'DescribeSecurityGroups');
  return {
    securityGroupInfo: page.items.map((g) => ({
      ownerId: accountId,
      groupId: g.groupId,
      groupName: g.groupName,
      groupDescription: g.description,
      vpcId,
      securityGroupArn: `arn:aws:ec2:${ctx.region}:${accountId}:security-group/${g.groupId}`,
      ipPermissions: [],
      ipPermissionsEgress: [{ ipProtocol: '-1', ipRanges: [{ cidrIp: '0.0.0.0/0' }] }],
      tagSet: tagSet(g.tags),
    })),
    nextToken: page.nextToken,
  };
};

const ENI_FILTERS = [
  'network-interface-id',
  'subnet-id',
  'vpc-id',
  'availability-zone',
  'status',
  'attachment.instance-id',
  'attachment.device-index',
  'group-id',
  'private-ip-address',
  'source-dest-check',
];

export const describeNetworkInterfaces: Ec2Action = (ctx, params) => {
  const filters = parseFilters(params);
  checkFilterNames(filters, ENI_FILTERS, 'DescribeNetworkInterfaces');
  const ids = params.strings('NetworkInterfaceId');
  for (const id of ids) {
    if (!ctx.state.networkInterfaces.has(id) || !describable(ctx.consistency, id)) {
      throw new Ec2Error(
        'InvalidNetworkInterfaceID.NotFound',
        `The networkInterface ID '${id}' does not exist`,
      );
    }
  }
  const enis = [...ctx.state.networkInterfaces.values()].filter(
    (eni) =>
      (ids.length === 0 || ids.includes(eni.networkInterfaceId)) &&
      describable(ctx.consistency, eni.networkInterfaceId) &&
      matchesFilters(
        filters,
        {
          'network-interface-id': [eni.networkInterfaceId],
          'subnet-id': [eni.subnetId],
          'vpc-id': [eni.vpcId],
          'availability-zone': [eni.availabilityZone],
          status: [eni.status],
          'attachment.instance-id': [eni.instanceId],
          'attachment.device-index': [eni.instanceId ? eni.deviceIndex : undefined],
          'group-id': eni.securityGroupIds,
          'private-ip-address': [eni.privateIpAddress],
          'source-dest-check': [eni.sourceDestCheck],
        },
        describedTags(ctx.consistency, eni.networkInterfaceId, eni.tags),
      ),
  );
  const page = paginate(enis, params, 'DescribeNetworkInterfaces');
  return {
    networkInterfaceSet: page.items.map((eni) => networkInterfaceXml(ctx, eni)),
    nextToken: page.nextToken,
  };
};

export const modifyNetworkInterfaceAttribute: Ec2Action = (ctx, params) => {
  const id = params.required('NetworkInterfaceId');
  const eni = ctx.state.networkInterfaces.get(id);
  if (!eni)
    throw new Ec2Error(
      'InvalidNetworkInterfaceID.NotFound',
      `The networkInterface ID '${id}' does not exist`,
    );
  const sourceDestCheck = params.child('SourceDestCheck')?.bool('Value');
  const description = params.child('Description')?.str('Value');
  const groups = params.strings('SecurityGroupId');
  if (sourceDestCheck === undefined && description === undefined && groups.length === 0) {
    throw new Ec2Error(
      'MissingParameter',
      'ModifyNetworkInterfaceAttribute needs SourceDestCheck, Description or SecurityGroupId',
    );
  }
  for (const group of groups) {
    if (!ctx.state.securityGroups.has(group))
      throw new Ec2Error('InvalidGroup.NotFound', `The security group '${group}' does not exist`);
  }
  requireAuthorized(ctx, modifyNetworkInterfaceChecks(ctx, eni, groups));
  if (sourceDestCheck !== undefined) eni.sourceDestCheck = sourceDestCheck;
  if (groups.length > 0) Object.assign(eni, { securityGroupIds: groups });
  if (description !== undefined) Object.assign(eni, { description });
  return { return: true };
};
