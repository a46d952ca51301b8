/**
 * Launching one instance: every check EC2 makes before it (instance type, AMI, offering, spot
 * limit, pool capacity, free addresses), then the instance with its network interfaces, volumes
 * and tags, in `pending`; the lifecycle takes it to `running`.
 */
import type { InstanceType } from '../../core/model/instance-type.js';
import { checkVolumeKeys, failLaunch } from './authorization/ebs-kms-grants.js';
import { requireAuthorized } from './authorization/ec2-caller.js';
import { createdTags, launchChecks, type RequestTags } from './authorization/launch-checks.js';
import { ensureSpotServiceLinkedRole } from './authorization/spot-service-linked-role.js';
import { checkReservation, type Ec2CapacityReservation, takeReservation } from './capacity-reservations.js';
import type { Ec2Context, InstanceProfileInfo } from './context.js';
import { Ec2Error } from './ec2-error.js';
import type { CapacityTypeName, Ec2BlockDevice, Ec2Instance, Ec2NetworkInterface } from './ec2-state.js';
import type { ImageSpec } from './eks-images.js';
import { newId } from './ids.js';
import { scheduleRunning } from './instance-lifecycle.js';
import { matchingFailure, stateReasonOf } from './launch-failures.js';
import type { LaunchData } from './launch-template-data.js';
import { type PlannedInterface, planNetwork } from './network-plan.js';

export interface LaunchRequest {
  readonly data: LaunchData;
  readonly instanceType: string;
  readonly capacityType: CapacityTypeName;
  readonly reservationId: string;
  readonly subnetId?: string;
  readonly availabilityZone?: string;
  readonly imageId?: string;
  readonly maxPrice?: number;
  readonly clientToken?: string;
  readonly fleetId?: string;
  readonly launchTemplateId?: string;
  /** Tags the request adds to the launch data's per created resource type (CreateFleet's TagSpecifications). */
  readonly requestTags?: RequestTags;
  /** Set for the 2nd… instance of one RunInstances call: the call was authorized with the first. */
  readonly alreadyAuthorized?: boolean;
}

/** Launches one instance or throws the Ec2Error EC2 would give. */
export function launchInstance(ctx: Ec2Context, request: LaunchRequest): Ec2Instance {
  const { state } = ctx;
  const type = state.instanceTypes.get(request.instanceType);
  if (!type) {
    throw new Ec2Error(
      'InvalidParameterValue',
      `The instance type '${request.instanceType}' does not exist in ${ctx.region}`,
    );
  }
  const profile = checkInstanceProfile(ctx, request);
  const image = resolveImage(ctx, request, type);
  const plan = planNetwork(state, request.data, type, request.subnetId, request.availabilityZone);
  if (!request.alreadyAuthorized) {
    requireAuthorized(
      ctx,
      launchChecks(ctx, {
        action: 'ec2:RunInstances',
        data: request.data,
        instanceType: type.name,
        capacityType: request.capacityType,
        zone: plan.zone,
        imageId: image.imageId,
        interfaces: plan.interfaces,
        launchTemplate: request.launchTemplateId
          ? state.launchTemplates.get(request.launchTemplateId)
          : undefined,
        requestTags: request.requestTags,
        instanceProfile: profile,
      }),
    );
  }
  if (request.capacityType === 'spot') ensureSpotServiceLinkedRole(ctx);
  const reservation = reservationOf(ctx, request, type.name, plan.zone);
  if (!reservation) checkCapacity(ctx, request, type, plan.zone);
  checkAddresses(ctx, plan.interfaces);

  const instanceId = newId(ctx.random, 'i');
  const launchTime = ctx.clock.now();
  const tags = createdTags(request.data, request.requestTags);
  const instanceTags = {
    ...tags.instance,
    ...(request.fleetId ? { 'aws:ec2:fleet-id': request.fleetId } : {}),
  };
  const interfaces = plan.interfaces.map((spec) =>
    createInterface(ctx, spec, instanceId, tags['network-interface']),
  );
  const primary = interfaces[0];
  const instance: Ec2Instance = {
    instanceId,
    instanceType: type.name,
    availabilityZone: plan.zone,
    capacityType: request.capacityType,
    imageId: image.imageId,
    imageName: image.name,
    launchTime,
    privateDnsName: `ip-${primary.privateIpAddress.replaceAll('.', '-')}.${ctx.region}.compute.internal`,
    privateIpAddress: primary.privateIpAddress,
    userData: request.data.userData ? Buffer.from(request.data.userData, 'base64').toString('utf8') : '',
    tags: instanceTags,
    networkInterfaces: interfaces,
    launchTemplateId: request.launchTemplateId,
    state: 'pending',
    reservationId: request.reservationId,
    subnetId: primary.subnetId,
    vpcId: primary.vpcId,
    securityGroupIds: primary.securityGroupIds,
    architecture: type.arch === 'arm64' ? 'arm64' : 'x86_64',
    clientToken: request.clientToken,
    fleetId: request.fleetId,
    iamInstanceProfile: request.data.iamInstanceProfile,
    metadataOptions: request.data.metadataOptions,
    blockDevices: blockDevices(ctx, request.data, tags.volume),
    ...(request.capacityType === 'spot'
      ? {
          spotInstanceRequestId: newId(ctx.random, 'sir'),
          spotInstanceRequestTags: tags['spot-instances-request'],
        }
      : {}),
    stateTransitionReason: '',
    ...(reservation ? { capacityReservationId: reservation.id } : {}),
    ...(reservation?.reservationType === 'capacity-block'
      ? { instanceLifecycle: 'capacity-block' as const }
      : {}),
  };
  state.instances.set(instanceId, instance);
  if (reservation) takeReservation(reservation, instance);
  else state.adjustPool(type.name, plan.zone, request.capacityType, -1);
  if (ctx.consistency) {
    ctx.consistency.created(instanceId);
    for (const eni of interfaces) ctx.consistency.created(eni.networkInterfaceId);
    for (const device of instance.blockDevices) ctx.consistency.created(device.volumeId);
    if (instance.spotInstanceRequestId) ctx.consistency.created(instance.spotInstanceRequestId);
  }
  scheduleRunning(ctx, instance);
  const injected = matchingFailure(state.launchFailures, {
    instanceType: type.name,
    zone: plan.zone,
    capacityType: request.capacityType,
  });
  if (injected) failLaunch(ctx, instance, stateReasonOf(injected.code));
  else checkVolumeKeys(ctx, instance, request.data);
  return instance;
}

/**
 * An instance profile the simulated IAM does not have is refused, with EC2's wording; an existing
 * one is returned with its role (what the launch passes to EC2).
 */
function checkInstanceProfile(ctx: Ec2Context, request: LaunchRequest): InstanceProfileInfo | undefined {
  const ref = request.data.iamInstanceProfile;
  if (!ref) return undefined;
  if (ctx.instanceProfileOf) {
    const profile = ctx.instanceProfileOf(ref);
    if (profile) return profile;
  } else {
    if (!ctx.instanceProfileExists || ctx.instanceProfileExists(ref)) return undefined;
  }
  const [member, value, what] = ref.arn ? ['arn', ref.arn, 'ARN'] : ['name', ref.name ?? '', 'name'];
  throw new Ec2Error(
    'InvalidParameterValue',
    `Value (${value}) for parameter iamInstanceProfile.${member} is invalid. Invalid IAM Instance Profile ${what}`,
  );
}

function resolveImage(ctx: Ec2Context, request: LaunchRequest, type: InstanceType): ImageSpec {
  const imageId = request.imageId ?? request.data.imageId;
  if (!imageId) throw new Ec2Error('MissingParameter', 'The request must contain the parameter ImageId');
  const image = ctx.state.images.get(imageId);
  if (!image) throw new Ec2Error('InvalidAMIID.NotFound', `The image id '[${imageId}]' does not exist`);
  const arch = type.arch === 'arm64' ? 'arm64' : 'x86_64';
  if (image.architecture !== arch) {
    throw new Ec2Error(
      'InvalidParameterValue',
      `The architecture '${arch}' of the specified instance type does not match the architecture '${image.architecture}' of the specified AMI (${imageId})`,
    );
  }
  return image;
}

/**
 * The reservation a launch targets (`CapacityReservationSpecification.CapacityReservationTarget`),
 * checked; undefined for a launch that targets none (`capacity-reservations-only` without a
 * target, or a Capacity Block market type without one, is refused as EC2 refuses it).
 */
function reservationOf(
  ctx: Ec2Context,
  request: LaunchRequest,
  instanceType: string,
  zone: string,
): Ec2CapacityReservation | undefined {
  const spec = request.data.capacityReservation;
  const id = spec?.capacityReservationId;
  if (!id) {
    if (spec?.preference === 'capacity-reservations-only' || request.data.marketType === 'capacity-block')
      throw new Ec2Error(
        'InvalidParameterCombination',
        'A launch into capacity reservations only must target a capacity reservation (CapacityReservationTarget)',
      );
    return undefined;
  }
  if (request.capacityType === 'spot')
    throw new Ec2Error(
      'InvalidParameterCombination',
      'Spot instances cannot be launched into a capacity reservation',
    );
  return checkReservation(
    ctx,
    { capacityReservationId: id, marketType: request.data.marketType },
    instanceType,
    zone,
  );
}

function checkCapacity(ctx: Ec2Context, request: LaunchRequest, type: InstanceType, zone: string): void {
  const offering = type.offerings.find((o) => o.zone === zone && o.capacityType === request.capacityType);
  if (!offering && ctx.state.market?.isWithdrawn(type.name, zone, request.capacityType)) {
    throw new Ec2Error(
      'InsufficientInstanceCapacity',
      `We currently do not have sufficient ${type.name} capacity in the Availability Zone you requested (${zone}).`,
    );
  }
  if (!offering) {
    throw new Ec2Error(
      'Unsupported',
      `Your requested instance type (${type.name}) is not supported in your requested Availability Zone (${zone}) for ${request.capacityType} capacity.`,
    );
  }
  if (
    request.capacityType === 'spot' &&
    request.maxPrice !== undefined &&
    request.maxPrice < offering.price
  ) {
    throw new Ec2Error(
      'UnfulfillableCapacity',
      `Unable to fulfill capacity: the spot price of ${type.name} in ${zone} (${offering.price}) is above your maximum price (${request.maxPrice}).`,
    );
  }
  const limit = ctx.state.spotInstanceLimit;
  if (request.capacityType === 'spot' && limit !== undefined && ctx.state.liveSpotCount() >= limit) {
    throw new Ec2Error('MaxSpotInstanceCountExceeded', `Max spot instance count exceeded (limit ${limit}).`);
  }
  if (ctx.state.poolCapacity(type.name, zone, request.capacityType) <= 0) {
    throw new Ec2Error(
      'InsufficientInstanceCapacity',
      `We currently do not have sufficient ${type.name} capacity in the Availability Zone you requested (${zone}). Our system will be working on provisioning additional capacity. You can currently get ${type.name} capacity by not specifying an Availability Zone in your request or choosing a different Availability Zone.`,
    );
  }
}

function checkAddresses(ctx: Ec2Context, interfaces: readonly PlannedInterface[]): void {
  const needed = new Map<string, number>();
  for (const spec of interfaces)
    if (spec.interfaceType !== 'efa-only') needed.set(spec.subnetId, (needed.get(spec.subnetId) ?? 0) + 1);
  for (const [subnetId, count] of needed) {
    if (ctx.state.subnets.get(subnetId)!.available < count) {
      throw new Ec2Error(
        'InsufficientFreeAddressesInSubnet',
        `There are not enough free addresses in subnet '${subnetId}' to satisfy the requested number of instances.`,
      );
    }
  }
}

function createInterface(
  ctx: Ec2Context,
  spec: PlannedInterface,
  instanceId: string,
  tags: Readonly<Record<string, string>>,
): Ec2NetworkInterface {
  const subnet = ctx.state.subnets.get(spec.subnetId)!;
  const eni: Ec2NetworkInterface = {
    networkInterfaceId: newId(ctx.random, 'eni'),
    subnetId: spec.subnetId,
    vpcId: ctx.state.topology.vpcId,
    availabilityZone: subnet.spec.availabilityZone,
    deviceIndex: spec.deviceIndex,
    networkCardIndex: spec.networkCardIndex,
    securityGroupIds: spec.groups,
    // An efa-only interface has no IP address.
    privateIpAddress: spec.interfaceType === 'efa-only' ? '' : subnet.allocate(),
    ipv6Addresses: subnet.allocateIpv6(spec.ipv6AddressCount),
    deleteOnTermination: spec.deleteOnTermination,
    sourceDestCheck: true,
    tags: { ...tags },
    status: 'in-use',
    instanceId,
    attachmentId: newId(ctx.random, 'eni-attach'),
    macAddress: macAddress(ctx),
    description: spec.description ?? '',
    interfaceType: spec.interfaceType ?? 'interface',
    createdAt: ctx.clock.now(),
  };
  ctx.state.networkInterfaces.set(eni.networkInterfaceId, eni);
  return eni;
}

/** Root volume size of the EKS-optimized AMIs (GiB) when a mapping gives none. */
const DEFAULT_ROOT_VOLUME_GIB = 20;

function blockDevices(
  ctx: Ec2Context,
  data: LaunchData,
  tags: Readonly<Record<string, string>>,
): Ec2BlockDevice[] {
  const mappings =
    data.blockDeviceMappings.length > 0 ? data.blockDeviceMappings : [{ deviceName: '/dev/xvda' }];
  return mappings.map((mapping) => {
    const ebs = 'ebs' in mapping ? mapping.ebs : undefined;
    const volumeType = ebs?.volumeType ?? 'gp3';
    const kmsKeyId = ebs?.kmsKeyId ?? ctx.defaultEbsKmsKeyArn;
    const encrypted = !!(ebs?.encrypted || kmsKeyId);
    return {
      deviceName: mapping.deviceName,
      volumeId: newId(ctx.random, 'vol'),
      deleteOnTermination: ebs?.deleteOnTermination ?? true,
      tags: { ...tags },
      size: ebs?.volumeSize ?? DEFAULT_ROOT_VOLUME_GIB,
      volumeType,
      // gp3's baseline when none is asked (DescribeVolumes shows it); gp2/io* as given.
      iops: ebs?.iops ?? (volumeType === 'gp3' ? 3000 : undefined),
      throughput: ebs?.throughput ?? (volumeType === 'gp3' ? 125 : undefined),
      encrypted,
      ...(encrypted && kmsKeyId ? { kmsKeyId } : {}),
      ...(ebs?.snapshotId ? { snapshotId: ebs.snapshotId } : {}),
    };
  });
}

function macAddress(ctx: Ec2Context): string {
  return [
    '02',
    ...Array.from({ length: 5 }, () => ctx.random.int(0, 255).toString(16).padStart(2, '0')),
  ].join(':');
}
