/**
 * What a launch is authorized against, as EC2 asks it for RunInstances and for each instance an
 * instant fleet launches: `ec2:RunInstances` on every resource the launch touches (the image and
 * its snapshot, the launch template with its tags, subnets, security groups, the key pair, the
 * capacity reservation it targets) and on
 * every resource it creates (instance, volumes, network interfaces, the spot request) with the
 * tags that apply to that resource type; `ec2:CreateTags` with `ec2:CreateAction` for each created
 * resource that gets tags; `iam:PassRole` on the instance profile's role. Resource types the
 * service authorization reference does not list for the action are not asked.
 */
import type { ContextValue } from '../../iam/authorization/authorization-request.js';
import type { Ec2Context } from '../context.js';
import type { CapacityTypeName, LaunchTemplateRecord } from '../ec2-state.js';
import type { LaunchData } from '../launch-template-data.js';
import type { PlannedInterface } from '../network-plan.js';
import { type Ec2Check, ec2Arn, requestTagContext, resourceTagContext } from './ec2-caller.js';
import { reservationResource } from './reservation-checks.js';

/** One launch, resolved far enough to know what it touches. */
export interface LaunchSubject {
  readonly action: 'ec2:RunInstances';
  readonly data: LaunchData;
  readonly instanceType: string;
  readonly capacityType: CapacityTypeName;
  readonly zone: string;
  readonly imageId: string;
  readonly interfaces: readonly PlannedInterface[];
  readonly launchTemplate?: LaunchTemplateRecord;
  /** Tags the request adds to the launch data's, per created resource type (CreateFleet's own TagSpecifications). */
  readonly requestTags?: RequestTags;
  /** The instance profile's ARN and role, when the launch names one that has a role. */
  readonly instanceProfile?: { readonly arn: string; readonly roleArn?: string };
}

/** The checks of one launch, in the order EC2's answer names the first denied one. */
export function launchChecks(ctx: Ec2Context, launch: LaunchSubject): Ec2Check[] {
  const { action, data } = launch;
  const region = { 'ec2:Region': ctx.region };
  const vpc = vpcArn(ctx);
  const template: Record<string, string> = launch.launchTemplate
    ? { 'ec2:LaunchTemplate': ec2Arn(ctx, 'launch-template', launch.launchTemplate.launchTemplateId) }
    : {};
  const created = createdTags(data, launch.requestTags);
  const checks: Ec2Check[] = [];
  const add = (resourceType: string, resource: string, context: Record<string, ContextValue>) => {
    if (ctx.caller && !ctx.caller.reference.hasResourceType(action, resourceType)) return;
    checks.push({ action, resourceType, resource, context: { ...region, ...template, ...context } });
  };
  add('image', ec2Arn(ctx, 'image', launch.imageId), imageContext(ctx, launch.imageId));
  add('snapshot', ec2Arn(ctx, 'snapshot', rootSnapshotOf(launch.imageId)), {});
  for (const mapping of data.blockDeviceMappings) {
    const snapshot = mapping.ebs?.snapshotId;
    if (snapshot) add('snapshot', ec2Arn(ctx, 'snapshot', snapshot), {});
  }
  if (launch.launchTemplate) {
    add(
      'launch-template',
      ec2Arn(ctx, 'launch-template', launch.launchTemplate.launchTemplateId),
      resourceTagContext(launch.launchTemplate.tags),
    );
  }
  const reservation = reservationResource(ctx, data);
  if (reservation) add('capacity-reservation', reservation.resource, reservation.context);
  add('instance', ec2Arn(ctx, 'instance', '*'), {
    ...requestTagContext(created.instance),
    'ec2:InstanceType': launch.instanceType,
    'ec2:AvailabilityZone': launch.zone,
    'ec2:InstanceMarketType': launch.capacityType === 'spot' ? 'spot' : 'on-demand',
    'ec2:Tenancy': 'default',
    'ec2:RootDeviceType': 'ebs',
    ...(launch.instanceProfile ? { 'ec2:InstanceProfile': launch.instanceProfile.arn } : {}),
    ...metadataContext(data),
  });
  for (const eni of launch.interfaces) {
    add('network-interface', ec2Arn(ctx, 'network-interface', '*'), {
      ...requestTagContext(created['network-interface']),
      'ec2:Subnet': ec2Arn(ctx, 'subnet', eni.subnetId),
      'ec2:Vpc': vpc,
      'ec2:AvailabilityZone': launch.zone,
    });
  }
  for (const groupId of unique(launch.interfaces.flatMap((eni) => eni.groups))) {
    const group = ctx.state.securityGroups.get(groupId);
    add('security-group', ec2Arn(ctx, 'security-group', groupId), {
      ...resourceTagContext(group?.tags ?? {}),
      'ec2:Vpc': vpc,
      'ec2:SecurityGroupID': groupId,
    });
  }
  for (const subnetId of unique(launch.interfaces.map((eni) => eni.subnetId))) {
    const subnet = ctx.state.subnets.get(subnetId)?.spec;
    add('subnet', ec2Arn(ctx, 'subnet', subnetId), {
      ...resourceTagContext(subnet?.tags ?? {}),
      'ec2:Vpc': vpc,
      'ec2:SubnetID': subnetId,
      'ec2:AvailabilityZone': subnet?.availabilityZone ?? launch.zone,
    });
  }
  for (const mapping of volumesOf(data)) {
    add('volume', ec2Arn(ctx, 'volume', '*'), {
      ...requestTagContext(created.volume),
      'ec2:AvailabilityZone': launch.zone,
      'ec2:VolumeType': mapping.ebs?.volumeType ?? 'gp2',
      'ec2:VolumeSize': String(mapping.ebs?.volumeSize ?? 8),
      'ec2:Encrypted': String(!!(mapping.ebs?.encrypted || mapping.ebs?.kmsKeyId || ctx.defaultEbsKmsKeyArn)),
    });
  }
  if (data.keyName)
    add('key-pair', ec2Arn(ctx, 'key-pair', data.keyName), { 'ec2:KeyPairName': data.keyName });
  if (launch.capacityType === 'spot') {
    add(
      'spot-instances-request',
      ec2Arn(ctx, 'spot-instances-request', '*'),
      requestTagContext(created['spot-instances-request']),
    );
  }
  checks.push(...createTagsOnCreation(ctx, 'RunInstances', created, launch.capacityType));
  if (launch.instanceProfile?.roleArn) checks.push(passRole(ctx, launch.instanceProfile.roleArn));
  return checks;
}

/** The resource types a launch creates (and can tag at creation). */
export type CreatedType = 'instance' | 'volume' | 'network-interface' | 'spot-instances-request';

/** Tags a launch request (CreateFleet's TagSpecifications) gives each created resource type. */
export type RequestTags = Readonly<Partial<Record<CreatedType, Readonly<Record<string, string>>>>>;

/**
 * Tags each created resource type gets: the launch data's (launch template's) TagSpecifications
 * merged with the request's for the same type, the request's value winning for a key in both.
 */
export function createdTags(
  data: LaunchData,
  requestTags: RequestTags = {},
): Record<CreatedType, Record<string, string>> {
  const specs = data.tagSpecifications;
  const merged = (type: CreatedType) => ({ ...(specs[type] ?? {}), ...(requestTags[type] ?? {}) });
  return {
    instance: merged('instance'),
    volume: merged('volume'),
    'network-interface': merged('network-interface'),
    'spot-instances-request': merged('spot-instances-request'),
  };
}

/**
 * The `ec2:CreateTags` EC2 implies when a create call applies tags: one per tagged resource type,
 * with the tags as request tags and `ec2:CreateAction` naming the creating call.
 */
export function createTagsOnCreation(
  ctx: Ec2Context,
  createAction: string,
  tagsByType: Readonly<Record<string, Readonly<Record<string, string>>>>,
  capacityType?: CapacityTypeName,
): Ec2Check[] {
  const checks: Ec2Check[] = [];
  for (const [resourceType, tags] of Object.entries(tagsByType)) {
    if (Object.keys(tags).length === 0) continue;
    if (resourceType === 'spot-instances-request' && capacityType !== 'spot') continue;
    checks.push({
      action: 'ec2:CreateTags',
      resourceType,
      resource: ec2Arn(ctx, resourceType, '*'),
      context: { 'ec2:Region': ctx.region, 'ec2:CreateAction': createAction, ...requestTagContext(tags) },
    });
  }
  return checks;
}

/** `iam:PassRole` of the instance profile's role to EC2. */
function passRole(ctx: Ec2Context, roleArn: string): Ec2Check {
  return {
    action: 'iam:PassRole',
    resourceType: 'role',
    resource: roleArn,
    context: {
      'iam:PassedToService': 'ec2.amazonaws.com',
      'iam:AssociatedResourceArn': ec2Arn(ctx, 'instance', '*'),
    },
  };
}

function imageContext(ctx: Ec2Context, imageId: string): Record<string, ContextValue> {
  const image = ctx.state.images.get(imageId);
  return {
    ...resourceTagContext(image?.tags ?? {}),
    'ec2:ImageID': imageId,
    'ec2:ImageType': 'machine',
    'ec2:RootDeviceType': 'ebs',
    ...(image ? { 'ec2:Owner': image.ownerAlias ?? image.ownerId, 'ec2:Public': 'true' } : {}),
  };
}

function metadataContext(data: LaunchData): Record<string, string> {
  const m = data.metadataOptions ?? {};
  return {
    'ec2:MetadataHttpTokens': m.HttpTokens ?? 'required',
    'ec2:MetadataHttpEndpoint': m.HttpEndpoint ?? 'enabled',
    'ec2:MetadataHttpPutResponseHopLimit': m.HttpPutResponseHopLimit ?? '2',
    'ec2:InstanceMetadataTags': m.InstanceMetadataTags ?? 'disabled',
  };
}

function volumesOf(data: LaunchData): LaunchData['blockDeviceMappings'] {
  return data.blockDeviceMappings.length > 0 ? data.blockDeviceMappings : [{ deviceName: '/dev/xvda' }];
}

/** The root volume snapshot of an EBS-backed image (the simulated images record none: derived from the id). */
export function rootSnapshotOf(imageId: string): string {
  return `snap-${imageId.replace(/^ami-/, '')}`;
}

/** The ARN `ec2:Vpc` carries. */
export function vpcArn(ctx: Ec2Context): string {
  return `arn:aws:ec2:${ctx.region}:${ctx.state.topology.accountId}:vpc/${ctx.state.topology.vpcId}`;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
