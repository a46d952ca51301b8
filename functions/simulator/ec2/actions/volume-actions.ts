/**
 * DescribeVolumes and DescribeSpotInstanceRequests: the EBS volumes and spot instance requests a
 * launch created, with the tags CreateFleet / RunInstances applied to them (the launch template's
 * and the request's `volume` / `spot-instances-request` TagSpecifications). Volumes live as long as
 * their instance here; a spot request is `active` / `fulfilled` while its instance runs and
 * `closed` once it is terminated (by the caller, or reclaimed by EC2).
 */
import { describable, describedTags } from '../consistency/eventual-consistency.js';
import type { Ec2Context } from '../context.js';
import { Ec2Error } from '../ec2-error.js';
import type { Ec2BlockDevice, Ec2Instance } from '../ec2-state.js';
import { checkFilterNames, matchesFilters, parseFilters, tagSet } from '../filters.js';
import { paginate } from '../pagination.js';
import type { XmlObject } from '../xml-response.js';
import type { Ec2Action } from './action.js';

const VOLUME_FILTERS = [
  'volume-id',
  'attachment.instance-id',
  'attachment.device',
  'attachment.status',
  'attachment.delete-on-termination',
  'availability-zone',
  'status',
  'volume-type',
  'size',
  'encrypted',
  'snapshot-id',
];

const SPOT_REQUEST_FILTERS = [
  'spot-instance-request-id',
  'instance-id',
  'state',
  'status-code',
  'type',
  'launched-availability-zone',
  'launch.instance-type',
  'launch.image-id',
];

interface Volume {
  readonly device: Ec2BlockDevice;
  readonly instance: Ec2Instance;
}

/** The volumes that exist: those of instances not terminated yet. */
function volumes(ctx: Ec2Context): Volume[] {
  return [...ctx.state.instances.values()]
    .filter((instance) => instance.state !== 'terminated')
    .flatMap((instance) => instance.blockDevices.map((device) => ({ device, instance })));
}

export const describeVolumes: Ec2Action = (ctx, params) => {
  const filters = parseFilters(params);
  checkFilterNames(filters, VOLUME_FILTERS, 'DescribeVolumes');
  const ids = params.strings('VolumeId');
  const all = volumes(ctx).filter((v) => describable(ctx.consistency, v.device.volumeId));
  for (const id of ids) {
    if (!all.some((v) => v.device.volumeId === id))
      throw new Ec2Error('InvalidVolume.NotFound', `The volume '${id}' does not exist.`);
  }
  const matching = all.filter(
    ({ device, instance }) =>
      (ids.length === 0 || ids.includes(device.volumeId)) &&
      matchesFilters(
        filters,
        {
          'volume-id': [device.volumeId],
          'attachment.instance-id': [instance.instanceId],
          'attachment.device': [device.deviceName],
          'attachment.status': ['attached'],
          'attachment.delete-on-termination': [device.deleteOnTermination],
          'availability-zone': [instance.availabilityZone],
          status: ['in-use'],
          'volume-type': [device.volumeType],
          size: [device.size],
          encrypted: [device.encrypted],
          'snapshot-id': [device.snapshotId ?? ''],
        },
        describedTags(ctx.consistency, device.volumeId, device.tags),
      ),
  );
  // Without MaxResults every volume is returned; with it, 5 to 500 per page.
  const page = paginate(matching, params, 'DescribeVolumes', { min: 5, max: 500 });
  return { volumeSet: page.items.map((v) => volumeXml(ctx, v)), nextToken: page.nextToken };
};

function volumeXml(ctx: Ec2Context, { device, instance }: Volume): XmlObject {
  const created = new Date(instance.launchTime).toISOString();
  return {
    volumeId: device.volumeId,
    size: device.size,
    snapshotId: device.snapshotId ?? '',
    availabilityZone: instance.availabilityZone,
    availabilityZoneId: ctx.state.zoneId(instance.availabilityZone),
    status: 'in-use',
    createTime: created,
    attachmentSet: [
      {
        volumeId: device.volumeId,
        instanceId: instance.instanceId,
        device: device.deviceName,
        status: 'attached',
        attachTime: created,
        deleteOnTermination: device.deleteOnTermination,
      },
    ],
    volumeType: device.volumeType,
    iops: device.iops,
    throughput: device.throughput,
    encrypted: device.encrypted,
    kmsKeyId: device.kmsKeyId,
    multiAttachEnabled: false,
    tagSet: tagSet(describedTags(ctx.consistency, device.volumeId, device.tags)),
  };
}

/** A spot request's state and status as EC2 reports them for its instance's state. */
function requestStatus(instance: Ec2Instance): { state: string; code: string; message: string } {
  if (instance.state !== 'terminated' && instance.state !== 'shutting-down')
    return {
      state: 'active',
      code: 'fulfilled',
      message: 'Your spot request is fulfilled.',
    };
  if (instance.stateReason?.code === 'Server.SpotInstanceTermination')
    return {
      state: 'closed',
      code: 'instance-terminated-no-capacity',
      message:
        'Your Spot Instance was terminated because there is no Spot capacity available that matches your request.',
    };
  return {
    state: 'closed',
    code: 'instance-terminated-by-user',
    message: 'Spot Instance terminated due to user-initiated termination.',
  };
}

export const describeSpotInstanceRequests: Ec2Action = (ctx, params) => {
  const filters = parseFilters(params);
  checkFilterNames(filters, SPOT_REQUEST_FILTERS, 'DescribeSpotInstanceRequests');
  const ids = params.strings('SpotInstanceRequestId');
  const all = [...ctx.state.instances.values()].filter(
    (i): i is Ec2Instance & { spotInstanceRequestId: string } =>
      i.spotInstanceRequestId !== undefined && describable(ctx.consistency, i.spotInstanceRequestId),
  );
  for (const id of ids) {
    if (!all.some((i) => i.spotInstanceRequestId === id))
      throw new Ec2Error(
        'InvalidSpotInstanceRequestID.NotFound',
        `The spot instance request ID '${id}' does not exist`,
      );
  }
  const matching = all.filter((instance) => {
    const status = requestStatus(instance);
    return (
      (ids.length === 0 || ids.includes(instance.spotInstanceRequestId)) &&
      matchesFilters(
        filters,
        {
          'spot-instance-request-id': [instance.spotInstanceRequestId],
          'instance-id': [instance.instanceId],
          state: [status.state],
          'status-code': [status.code],
          type: ['one-time'],
          'launched-availability-zone': [instance.availabilityZone],
          'launch.instance-type': [instance.instanceType],
          'launch.image-id': [instance.imageId],
        },
        requestTags(ctx, instance),
      )
    );
  });
  const page = paginate(matching, params, 'DescribeSpotInstanceRequests', { min: 5, max: 1000 });
  return {
    spotInstanceRequestSet: page.items.map((instance) => {
      const status = requestStatus(instance);
      return {
        spotInstanceRequestId: instance.spotInstanceRequestId,
        type: 'one-time',
        state: status.state,
        status: {
          code: status.code,
          updateTime: new Date(instance.launchTime).toISOString(),
          message: status.message,
        },
        launchSpecification: {
          imageId: instance.imageId,
          instanceType: instance.instanceType,
          placement: { availabilityZone: instance.availabilityZone },
          subnetId: instance.subnetId,
          groupSet: instance.securityGroupIds.map((groupId) => ({ groupId })),
        },
        instanceId: instance.instanceId,
        createTime: new Date(instance.launchTime).toISOString(),
        productDescription: 'Linux/UNIX',
        launchedAvailabilityZone: instance.availabilityZone,
        instanceInterruptionBehavior: 'terminate',
        tagSet: tagSet(requestTags(ctx, instance)),
      };
    }),
    nextToken: page.nextToken,
  };
};

function requestTags(ctx: Ec2Context, instance: Ec2Instance & { spotInstanceRequestId: string }) {
  return describedTags(
    ctx.consistency,
    instance.spotInstanceRequestId,
    instance.spotInstanceRequestTags ?? {},
  );
}
