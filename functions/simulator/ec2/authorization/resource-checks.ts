/**
 * The checks of the simulated EC2's single-resource calls: CreateLaunchTemplate (the template with
 * its request tags, plus the implied CreateTags with `ec2:CreateAction`), CreateTags on existing
 * resources (each resource with its current tags as `aws:ResourceTag`, the new ones as
 * `aws:RequestTag` / `aws:TagKeys`, no `ec2:CreateAction`), TerminateInstances,
 * DeleteLaunchTemplate and ModifyNetworkInterfaceAttribute (each resource with its tags).
 */
import type { Ec2Context } from '../context.js';
import type { Ec2Instance, Ec2NetworkInterface, LaunchTemplateRecord } from '../ec2-state.js';
import { type Ec2Check, ec2Arn, requestTagContext, resourceTagContext } from './ec2-caller.js';
import { createTagsOnCreation, vpcArn } from './launch-checks.js';

/** CreateLaunchTemplate with these tags for the template. */
export function createLaunchTemplateChecks(
  ctx: Ec2Context,
  tags: Readonly<Record<string, string>>,
): Ec2Check[] {
  return [
    {
      action: 'ec2:CreateLaunchTemplate',
      resourceType: 'launch-template',
      resource: ec2Arn(ctx, 'launch-template', '*'),
      context: { 'ec2:Region': ctx.region, ...requestTagContext(tags) },
    },
    ...createTagsOnCreation(ctx, 'CreateLaunchTemplate', { 'launch-template': tags }),
  ];
}

/** An existing resource CreateTags writes to. */
export interface TagTarget {
  readonly resourceType: string;
  readonly id: string;
  readonly tags: Readonly<Record<string, string>>;
}

/** CreateTags of `tags` on existing resources. */
export function createTagsChecks(
  ctx: Ec2Context,
  targets: readonly TagTarget[],
  tags: Readonly<Record<string, string>>,
): Ec2Check[] {
  return targets.map((target) => ({
    action: 'ec2:CreateTags',
    resourceType: target.resourceType,
    resource: ec2Arn(ctx, target.resourceType, target.id),
    context: { 'ec2:Region': ctx.region, ...resourceTagContext(target.tags), ...requestTagContext(tags) },
  }));
}

/** TerminateInstances of these instances. */
export function terminateChecks(ctx: Ec2Context, instances: readonly Ec2Instance[]): Ec2Check[] {
  return instances.map((instance) => ({
    action: 'ec2:TerminateInstances',
    resourceType: 'instance',
    resource: ec2Arn(ctx, 'instance', instance.instanceId),
    context: {
      'ec2:Region': ctx.region,
      ...resourceTagContext(instance.tags),
      'ec2:InstanceID': instance.instanceId,
      'ec2:InstanceType': instance.instanceType,
      'ec2:AvailabilityZone': instance.availabilityZone,
      'ec2:InstanceMarketType': instance.capacityType === 'spot' ? 'spot' : 'on-demand',
      'ec2:Tenancy': 'default',
      'ec2:RootDeviceType': 'ebs',
    },
  }));
}

/** DeleteLaunchTemplate of this template. */
export function deleteLaunchTemplateChecks(ctx: Ec2Context, template: LaunchTemplateRecord): Ec2Check[] {
  return [
    {
      action: 'ec2:DeleteLaunchTemplate',
      resourceType: 'launch-template',
      resource: ec2Arn(ctx, 'launch-template', template.launchTemplateId),
      context: { 'ec2:Region': ctx.region, ...resourceTagContext(template.tags) },
    },
  ];
}

/** ModifyNetworkInterfaceAttribute of this interface (and the security groups it is given). */
export function modifyNetworkInterfaceChecks(
  ctx: Ec2Context,
  eni: Ec2NetworkInterface,
  groups: readonly string[],
): Ec2Check[] {
  const action = 'ec2:ModifyNetworkInterfaceAttribute';
  const vpc = vpcArn(ctx);
  return [
    {
      action,
      resourceType: 'network-interface',
      resource: ec2Arn(ctx, 'network-interface', eni.networkInterfaceId),
      context: {
        'ec2:Region': ctx.region,
        ...resourceTagContext(eni.tags),
        'ec2:NetworkInterfaceID': eni.networkInterfaceId,
        'ec2:Subnet': ec2Arn(ctx, 'subnet', eni.subnetId),
        'ec2:Vpc': vpc,
        'ec2:AvailabilityZone': eni.availabilityZone,
      },
    },
    ...groups.map((groupId) => ({
      action,
      resourceType: 'security-group',
      resource: ec2Arn(ctx, 'security-group', groupId),
      context: {
        'ec2:Region': ctx.region,
        ...resourceTagContext(ctx.state.securityGroups.get(groupId)?.tags ?? {}),
        'ec2:Vpc': vpc,
        'ec2:SecurityGroupID': groupId,
      },
    })),
  ];
}
