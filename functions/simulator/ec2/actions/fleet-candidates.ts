/**
 * The overrides of a CreateFleet request as candidates: each LaunchTemplateConfigs entry's
 * template resolved (or its error kept, to be reported per override in `errorSet`), each override's
 * instance type, subnet, zone, priority, image and maximum price.
 */
import type { Ec2Context } from '../context.js';
import { Ec2Error } from '../ec2-error.js';
import type { FleetCandidate } from '../fleet-strategy.js';
import type { LaunchData } from '../launch-template-data.js';
import type { QueryParams } from '../query.js';
import type { XmlObject } from '../xml-response.js';
import { type ResolvedTemplate, resolveTemplate } from './launch-template-actions.js';

/** One override of the request, ready to launch. */
export interface Candidate extends FleetCandidate {
  readonly template?: ResolvedTemplate;
  readonly templateError?: Ec2Error;
  readonly spec: { launchTemplateId?: string; launchTemplateName?: string; version: string };
  readonly overrides: Record<string, string | number | undefined>;
  readonly subnetId?: string;
  readonly imageId?: string;
  readonly maxPrice?: number;
}

/** Reads the candidates of every launch template config, in request order. */
export function readCandidates(ctx: Ec2Context, params: QueryParams): Candidate[] {
  const configs = params.list('LaunchTemplateConfigs');
  if (configs.length === 0)
    throw new Ec2Error('MissingParameter', 'The request must contain the parameter LaunchTemplateConfigs');
  const candidates: Candidate[] = [];
  for (const config of configs) {
    const specParams = config.child('LaunchTemplateSpecification');
    if (!specParams)
      throw new Ec2Error(
        'MissingParameter',
        'Each LaunchTemplateConfigs entry needs a LaunchTemplateSpecification',
      );
    let template: ResolvedTemplate | undefined;
    let templateError: Ec2Error | undefined;
    try {
      template = resolveTemplate(ctx, specParams);
    } catch (error) {
      if (!(error instanceof Ec2Error)) throw error;
      templateError = error;
    }
    const spec = {
      launchTemplateId: template?.template.launchTemplateId ?? specParams.str('LaunchTemplateId'),
      launchTemplateName: specParams.str('LaunchTemplateName'),
      version: String(template?.version ?? specParams.str('Version') ?? '$Default'),
    };
    const overrides = config.list('Overrides');
    for (const override of overrides.length > 0 ? overrides : [undefined]) {
      candidates.push(candidate(ctx, candidates.length, template, templateError, spec, override));
    }
  }
  return candidates;
}

function candidate(
  ctx: Ec2Context,
  index: number,
  template: ResolvedTemplate | undefined,
  templateError: Ec2Error | undefined,
  spec: Candidate['spec'],
  override: QueryParams | undefined,
): Candidate {
  const data: LaunchData | undefined = template?.data;
  const subnetId = override?.str('SubnetId');
  const zone =
    override?.str('AvailabilityZone') ??
    (subnetId ? ctx.state.subnets.get(subnetId)?.spec.availabilityZone : undefined);
  const overrides = {
    instanceType: override?.str('InstanceType'),
    subnetId,
    availabilityZone: override?.str('AvailabilityZone'),
    priority: override?.num('Priority'),
    maxPrice: override?.str('MaxPrice'),
    imageId: override?.str('ImageId'),
  };
  const maxPrice = override?.num('MaxPrice');
  return {
    index,
    template,
    templateError,
    spec,
    overrides,
    instanceType: overrides.instanceType ?? data?.instanceType,
    zone,
    priority: overrides.priority,
    subnetId,
    imageId: overrides.imageId,
    maxPrice,
  };
}

/** `LaunchTemplateAndOverrides` of a fleet instance or error entry. */
export function templateAndOverrides(spec: Candidate['spec'], overrides: Candidate['overrides']): XmlObject {
  return {
    launchTemplateSpecification: { ...spec },
    overrides: { ...overrides },
  };
}
