/**
 * What CreateFleet itself is authorized against (`ec2:CreateFleet`, before anything launches; a
 * denial is the call's `UnauthorizedOperation`): the fleet being created with the request's fleet
 * tags, each launch template it names with that template's tags (and the capacity reservation it
 * targets), and, per launch template config,
 * the instances and volumes it creates with the tags that apply to them, the override subnets and
 * the images. The launches that follow are authorized one by one as `ec2:RunInstances` (see
 * launch-checks.ts) and a denial there is an entry of the fleet's Errors, as AWS reports it for
 * instant fleets. Resource types the reference does not list for CreateFleet are not asked.
 */
import type { ContextValue } from '../../iam/authorization/authorization-request.js';
import type { Candidate } from '../actions/fleet-candidates.js';
import type { Ec2Context } from '../context.js';
import { type Ec2Check, ec2Arn, requestTagContext, resourceTagContext } from './ec2-caller.js';
import { createdTags, createTagsOnCreation, type RequestTags, vpcArn } from './launch-checks.js';
import { reservationResource } from './reservation-checks.js';

/** The checks of a CreateFleet request before it launches anything. */
export function createFleetChecks(
  ctx: Ec2Context,
  fleetTags: Readonly<Record<string, string>>,
  requestTags: RequestTags,
  candidates: readonly Candidate[],
): Ec2Check[] {
  const action = 'ec2:CreateFleet';
  const checks: Ec2Check[] = [];
  const seen = new Set<string>();
  const add = (resourceType: string, resource: string, context: Record<string, ContextValue>) => {
    if (ctx.caller && !ctx.caller.reference.hasResourceType(action, resourceType)) return;
    const check = { action, resourceType, resource, context: { 'ec2:Region': ctx.region, ...context } };
    const key = JSON.stringify(check);
    if (seen.has(key)) return;
    seen.add(key);
    checks.push(check);
  };
  add('fleet', ec2Arn(ctx, 'fleet', '*'), requestTagContext(fleetTags));
  for (const candidate of candidates) {
    const resolved = candidate.template;
    if (!resolved) continue;
    const { template, data } = resolved;
    add(
      'launch-template',
      ec2Arn(ctx, 'launch-template', template.launchTemplateId),
      resourceTagContext(template.tags),
    );
    const reservation = reservationResource(ctx, data);
    if (reservation) add('capacity-reservation', reservation.resource, reservation.context);
    const created = createdTags(data, requestTags);
    add('instance', ec2Arn(ctx, 'instance', '*'), requestTagContext(created.instance));
    add('volume', ec2Arn(ctx, 'volume', '*'), requestTagContext(created.volume));
    const imageId = candidate.imageId ?? data.imageId;
    const image = imageId ? ctx.state.images.get(imageId) : undefined;
    if (imageId)
      add('image', ec2Arn(ctx, 'image', imageId), {
        ...resourceTagContext(image?.tags ?? {}),
        'ec2:ImageID': imageId,
      });
    const subnetId = candidate.subnetId;
    const subnet = subnetId ? ctx.state.subnets.get(subnetId)?.spec : undefined;
    if (subnetId && subnet) {
      add('subnet', ec2Arn(ctx, 'subnet', subnetId), {
        ...resourceTagContext(subnet.tags ?? {}),
        'ec2:Vpc': vpcArn(ctx),
        'ec2:SubnetID': subnetId,
        'ec2:AvailabilityZone': subnet.availabilityZone,
      });
    }
  }
  checks.push(...createTagsOnCreation(ctx, 'CreateFleet', { fleet: fleetTags }));
  return checks;
}
