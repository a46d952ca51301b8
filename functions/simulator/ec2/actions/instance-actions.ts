/** RunInstances, DescribeInstances, TerminateInstances and CreateTags. */
import { requireAuthorized } from '../authorization/ec2-caller.js';
import { createTagsChecks, type TagTarget, terminateChecks } from '../authorization/resource-checks.js';
import { describable, describedTags } from '../consistency/eventual-consistency.js';
import type { Ec2Context } from '../context.js';
import { Ec2Error } from '../ec2-error.js';
import type { Ec2Instance } from '../ec2-state.js';
import { checkFilterNames, matchesFilters, parseFilters, parseTags } from '../filters.js';
import { newId } from '../ids.js';
import { discardInstance, stateCode, terminateInstance } from '../instance-lifecycle.js';
import { instanceXml } from '../instance-xml.js';
import { type LaunchData, parseLaunchData } from '../launch-template-data.js';
import { launchInstance } from '../launcher.js';
import { paginate } from '../pagination.js';
import type { XmlObject } from '../xml-response.js';
import type { Ec2Action } from './action.js';
import { resolveTemplate } from './launch-template-actions.js';

export const runInstances: Ec2Action = (ctx, params) => {
  const clientToken = params.str('ClientToken');
  const fingerprint = params.fingerprint(['ClientToken']);
  const previous = clientToken ? ctx.state.runTokens.get(clientToken) : undefined;
  if (previous) {
    if (previous.fingerprint !== fingerprint) {
      throw new Ec2Error(
        'IdempotentParameterMismatch',
        `ClientToken '${clientToken}' was already used with different parameters`,
      );
    }
    return previous.response;
  }
  const minCount = params.int('MinCount');
  const maxCount = params.int('MaxCount');
  if (minCount === undefined || maxCount === undefined || minCount < 1 || maxCount < minCount) {
    throw new Ec2Error(
      'InvalidParameterValue',
      'MinCount and MaxCount are required, with 1 <= MinCount <= MaxCount',
    );
  }
  const templateParams = params.child('LaunchTemplate');
  const template = templateParams ? resolveTemplate(ctx, templateParams) : undefined;
  const data = merge(template?.data, parseLaunchData(params));
  const reservationId = newId(ctx.random, 'r');
  const launched: Ec2Instance[] = [];
  for (let i = 0; i < maxCount; i++) {
    try {
      launched.push(
        launchInstance(ctx, {
          data,
          instanceType: data.instanceType ?? 'm1.small',
          capacityType: data.spot ? 'spot' : 'on-demand',
          reservationId,
          subnetId: params.str('SubnetId'),
          availabilityZone: params.child('Placement')?.str('AvailabilityZone'),
          clientToken,
          launchTemplateId: template?.template.launchTemplateId,
          alreadyAuthorized: launched.length > 0,
        }),
      );
    } catch (error) {
      if (launched.length >= minCount) break;
      for (const instance of launched) discardInstance(ctx, instance);
      throw error;
    }
  }
  const response: XmlObject = {
    reservationId,
    ownerId: ctx.state.topology.accountId,
    groupSet: [],
    instancesSet: launched.map((instance) => instanceXml(ctx, instance)),
  };
  if (clientToken) ctx.state.runTokens.set(clientToken, { fingerprint, response });
  return response;
};

/** Launch template data with the request's own parameters taking precedence. */
function merge(base: LaunchData | undefined, own: LaunchData): LaunchData {
  if (!base) return own;
  return {
    ...base,
    ...Object.fromEntries(
      Object.entries(own).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)),
    ),
    tagSpecifications: { ...base.tagSpecifications, ...own.tagSpecifications },
  } as LaunchData;
}

const INSTANCE_FILTERS = [
  'instance-id',
  'instance-state-name',
  'instance-state-code',
  'instance-type',
  'availability-zone',
  'subnet-id',
  'vpc-id',
  'image-id',
  'private-ip-address',
  'private-dns-name',
  'instance-lifecycle',
  'reservation-id',
  'client-token',
  'network-interface.network-interface-id',
  'network-interface.subnet-id',
];

function instanceFields(instance: Ec2Instance) {
  return {
    'instance-id': [instance.instanceId],
    'instance-state-name': [instance.state],
    'instance-state-code': [stateCode(instance.state)],
    'instance-type': [instance.instanceType],
    'availability-zone': [instance.availabilityZone],
    'subnet-id': [instance.subnetId],
    'vpc-id': [instance.vpcId],
    'image-id': [instance.imageId],
    'private-ip-address': [instance.privateIpAddress],
    'private-dns-name': [instance.privateDnsName],
    'instance-lifecycle': [instance.capacityType === 'spot' ? 'spot' : undefined],
    'reservation-id': [instance.reservationId],
    'client-token': [instance.clientToken],
    'network-interface.network-interface-id': instance.networkInterfaces.map((e) => e.networkInterfaceId),
    'network-interface.subnet-id': instance.networkInterfaces.map((e) => e.subnetId),
  };
}

export const describeInstances: Ec2Action = (ctx, params) => {
  const filters = parseFilters(params);
  checkFilterNames(filters, INSTANCE_FILTERS, 'DescribeInstances');
  const ids = params.strings('InstanceId');
  if (ids.length > 0 && params.has('MaxResults')) {
    throw new Ec2Error(
      'InvalidParameterCombination',
      'The parameter instancesSet cannot be used with the parameter maxResults',
    );
  }
  const seen = (id: string) => ctx.state.instances.has(id) && describable(ctx.consistency, id);
  const missing = ids.filter((id) => !seen(id));
  if (missing.length > 0) {
    throw new Ec2Error('InvalidInstanceID.NotFound', `The instance IDs '${missing.join(', ')}' do not exist`);
  }
  const wanted = ids.length > 0 ? new Set(ids) : undefined;
  const instances = [...ctx.state.instances.values()].filter(
    (instance) =>
      (!wanted || wanted.has(instance.instanceId)) &&
      describable(ctx.consistency, instance.instanceId) &&
      matchesFilters(
        filters,
        () => instanceFields(instance),
        describedTags(ctx.consistency, instance.instanceId, instance.tags),
      ),
  );
  const page = paginate(instances, params, 'DescribeInstances');
  const reservations = new Map<string, Ec2Instance[]>();
  for (const instance of page.items) {
    reservations.set(instance.reservationId, [...(reservations.get(instance.reservationId) ?? []), instance]);
  }
  return {
    reservationSet: [...reservations].map(([reservationId, members]) => ({
      reservationId,
      ownerId: ctx.state.topology.accountId,
      groupSet: [],
      instancesSet: members.map((instance) => instanceXml(ctx, instance)),
    })),
    nextToken: page.nextToken,
  };
};

export const terminateInstances: Ec2Action = (ctx, params) => {
  const ids = params.strings('InstanceId');
  if (ids.length === 0)
    throw new Ec2Error('MissingParameter', 'The request must contain the parameter InstanceId');
  const missing = ids.filter((id) => !ctx.state.instances.has(id));
  if (missing.length > 0) {
    throw new Ec2Error('InvalidInstanceID.NotFound', `The instance IDs '${missing.join(', ')}' do not exist`);
  }
  requireAuthorized(
    ctx,
    terminateChecks(
      ctx,
      ids.map((id) => ctx.state.instances.get(id)!),
    ),
  );
  return {
    instancesSet: ids.map((id) => {
      const instance = ctx.state.instances.get(id)!;
      const previous = terminateInstance(ctx, instance);
      return {
        instanceId: id,
        previousState: { code: stateCode(previous), name: previous },
        currentState: { code: stateCode(instance.state), name: instance.state },
      };
    }),
  };
};

export const createTags: Ec2Action = (ctx, params) => {
  const ids = params.strings('ResourceId');
  if (ids.length === 0)
    throw new Ec2Error('MissingParameter', 'The request must contain the parameter ResourceId');
  const tags = parseTags(params, 'Tag');
  const targets = ids.map((id) => taggable(ctx, id));
  requireAuthorized(ctx, createTagsChecks(ctx, targets, tags));
  for (const target of targets) {
    Object.assign(target.tags, tags);
    ctx.consistency?.tagged(target.id, Object.keys(tags));
  }
  return { return: true };
};

interface Taggable extends TagTarget {
  readonly tags: Record<string, string>;
}

function taggable(ctx: Ec2Context, id: string): Taggable {
  if (id.startsWith('i-')) {
    const instance = ctx.state.instances.get(id);
    if (!instance) throw new Ec2Error('InvalidInstanceID.NotFound', `The instance ID '${id}' does not exist`);
    return { resourceType: 'instance', id, tags: instance.tags };
  }
  if (id.startsWith('eni-')) {
    const eni = ctx.state.networkInterfaces.get(id);
    if (!eni)
      throw new Ec2Error(
        'InvalidNetworkInterfaceID.NotFound',
        `The networkInterface ID '${id}' does not exist`,
      );
    return { resourceType: 'network-interface', id, tags: eni.tags };
  }
  if (id.startsWith('vol-')) {
    const volume = liveVolume(ctx, id);
    if (!volume) throw new Ec2Error('InvalidVolume.NotFound', `The volume '${id}' does not exist.`);
    return { resourceType: 'volume', id, tags: volume.tags };
  }
  if (id.startsWith('lt-')) {
    const template = ctx.state.launchTemplates.get(id);
    if (!template) {
      throw new Ec2Error(
        'InvalidLaunchTemplateId.NotFound',
        `The specified launch template, with template ID ${id}, does not exist.`,
      );
    }
    return { resourceType: 'launch-template', id, tags: template.tags };
  }
  throw new Ec2Error(
    'InvalidID',
    `The ID '${id}' is not valid for CreateTags in the simulated EC2 (instances, network interfaces, volumes, launch templates)`,
  );
}

/** A volume of an instance that is not terminated yet (volumes live as long as their instance here). */
function liveVolume(ctx: Ec2Context, volumeId: string): Ec2Instance['blockDevices'][number] | undefined {
  for (const instance of ctx.state.instances.values()) {
    if (instance.state === 'terminated') continue;
    const volume = instance.blockDevices.find((device) => device.volumeId === volumeId);
    if (volume) return volume;
  }
  return undefined;
}
