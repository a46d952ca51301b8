/**
 * CreateFleet of type `instant`: launch template configs with overrides tried in the order of the
 * allocation strategy; per-override failures (InsufficientInstanceCapacity,
 * InsufficientFreeAddressesInSubnet, MaxSpotInstanceCountExceeded, Unsupported, a launch denied
 * by IAM as UnauthorizedOperation, AuthFailure.ServiceLinkedRoleCreationNotPermitted, ...) go to
 * `errorSet` while the next override is tried; `ec2:CreateFleet` itself denied fails the call. A replayed ClientToken returns the first answer and
 * never launches again.
 */
import { requireAuthorized } from '../authorization/ec2-caller.js';
import { createFleetChecks } from '../authorization/fleet-checks.js';
import type { CreatedType, RequestTags } from '../authorization/launch-checks.js';
import { Ec2Error } from '../ec2-error.js';
import type { CapacityTypeName, FleetError } from '../ec2-state.js';
import { tagsFor } from '../filters.js';
import { isKnownStrategy, orderCandidates } from '../fleet-strategy.js';
import { newId } from '../ids.js';
import { launchInstance } from '../launcher.js';
import type { QueryParams } from '../query.js';
import type { XmlObject } from '../xml-response.js';
import type { Ec2Action } from './action.js';
import { type Candidate, readCandidates, templateAndOverrides } from './fleet-candidates.js';

/**
 * The resource types an instant fleet's own TagSpecifications tag besides the fleet, merged with
 * the launch template's for the same type (the request's value wins).
 */
const CREATED_TYPES: readonly CreatedType[] = [
  'instance',
  'volume',
  'network-interface',
  'spot-instances-request',
];

export const createFleet: Ec2Action = (ctx, params) => {
  const clientToken = params.str('ClientToken');
  const fingerprint = params.fingerprint(['ClientToken']);
  if (clientToken) {
    const previous = [...ctx.state.fleets.values()].find((f) => f.clientToken === clientToken);
    if (previous) {
      if (previous.fingerprint !== fingerprint) {
        throw new Ec2Error(
          'IdempotentParameterMismatch',
          `ClientToken '${clientToken}' was already used with different parameters`,
        );
      }
      return previous.response;
    }
  }
  const type = params.str('Type') ?? 'maintain';
  if (type !== 'instant') {
    throw new Ec2Error(
      'InvalidParameterValue',
      `Fleet type '${type}' is not supported by the simulated EC2; use instant`,
    );
  }
  const units = capacityUnits(params);
  const capacityBlock =
    params.child('TargetCapacitySpecification')?.str('DefaultTargetCapacityType') === 'capacity-block';
  const strategies = {
    spot: params.child('SpotOptions')?.str('AllocationStrategy') ?? 'lowest-price',
    'on-demand': params.child('OnDemandOptions')?.str('AllocationStrategy') ?? 'lowest-price',
  };
  for (const [capacityType, strategy] of Object.entries(strategies) as [CapacityTypeName, string][]) {
    if (!isKnownStrategy(capacityType, strategy)) {
      throw new Ec2Error(
        'InvalidParameterValue',
        `'${strategy}' is not a valid ${capacityType} AllocationStrategy`,
      );
    }
  }
  const candidates = readCandidates(ctx, params);
  const requestTags: RequestTags = Object.fromEntries(
    CREATED_TYPES.map((type) => [type, tagsFor(params, type)]),
  );
  requireAuthorized(ctx, createFleetChecks(ctx, tagsFor(params, 'fleet'), requestTags, candidates));
  const fleetId = newId(ctx.random, 'fleet');
  const errors: FleetError[] = [];
  const launched = new Map<Candidate, { lifecycle: CapacityTypeName; ids: string[] }>();
  for (const capacityType of units) {
    const failed = new Set<Candidate>();
    const ordered = orderCandidates(ctx.state, candidates, capacityType, strategies[capacityType]);
    for (const candidate of ordered) {
      if (failed.has(candidate)) continue;
      try {
        if (candidate.templateError) throw candidate.templateError;
        checkMarketType(candidate, capacityBlock);
        const instance = launchInstance(ctx, {
          data: candidate.template!.data,
          instanceType: candidate.instanceType ?? '',
          capacityType,
          reservationId: newId(ctx.random, 'r'),
          subnetId: candidate.subnetId,
          availabilityZone: candidate.zone,
          imageId: candidate.imageId,
          maxPrice: candidate.maxPrice,
          clientToken,
          fleetId,
          launchTemplateId: candidate.template!.template.launchTemplateId,
          requestTags,
        });
        const entry = launched.get(candidate) ?? { lifecycle: capacityType, ids: [] };
        entry.ids.push(instance.instanceId);
        launched.set(candidate, entry);
        break;
      } catch (error) {
        if (!(error instanceof Ec2Error)) throw error;
        failed.add(candidate);
        if (!errors.some((e) => e.errorCode === error.code && sameCandidate(e, candidate, capacityType))) {
          errors.push(fleetError(candidate, capacityType, error));
        }
      }
    }
  }
  const response: XmlObject = {
    fleetId,
    errorSet: errors.map(errorXml),
    fleetInstanceSet: [...launched].map(([candidate, entry]) => ({
      launchTemplateAndOverrides: templateAndOverrides(candidate.spec, candidate.overrides),
      lifecycle: entry.lifecycle,
      instanceIds: entry.ids,
      instanceType: candidate.instanceType,
    })),
  };
  ctx.state.fleets.set(fleetId, {
    fleetId,
    clientToken,
    fingerprint,
    createTime: ctx.clock.now(),
    tags: tagsFor(params, 'fleet'),
    instanceIds: [...launched.values()].flatMap((e) => e.ids),
    errors,
    response,
  });
  return response;
};

/** One capacity type per unit of target capacity, on-demand first. */
function capacityUnits(params: QueryParams): CapacityTypeName[] {
  const target = params.child('TargetCapacitySpecification');
  if (!target)
    throw new Ec2Error(
      'MissingParameter',
      'The request must contain the parameter TargetCapacitySpecification',
    );
  const total = target.int('TotalTargetCapacity');
  if (total === undefined || total < 1) {
    throw new Ec2Error(
      'InvalidParameterValue',
      'TargetCapacitySpecification.TotalTargetCapacity must be 1 or more',
    );
  }
  const requested = target.str('DefaultTargetCapacityType') ?? 'on-demand';
  if (requested !== 'spot' && requested !== 'on-demand' && requested !== 'capacity-block') {
    throw new Ec2Error(
      'InvalidParameterValue',
      `DefaultTargetCapacityType '${requested}' must be spot, on-demand or capacity-block`,
    );
  }
  // Capacity Block instances are on-demand instances launched into the block.
  const defaultType = requested === 'capacity-block' ? 'on-demand' : requested;
  const onDemand = target.int('OnDemandTargetCapacity') ?? 0;
  const spot = target.int('SpotTargetCapacity') ?? 0;
  if (onDemand + spot > total) {
    throw new Ec2Error(
      'InvalidParameterValue',
      'OnDemandTargetCapacity + SpotTargetCapacity exceeds TotalTargetCapacity',
    );
  }
  const rest = total - onDemand - spot;
  return [
    ...Array<CapacityTypeName>(onDemand + (defaultType === 'on-demand' ? rest : 0)).fill('on-demand'),
    ...Array<CapacityTypeName>(spot + (defaultType === 'spot' ? rest : 0)).fill('spot'),
  ];
}

/**
 * A Capacity Block fleet (DefaultTargetCapacityType capacity-block) launches only from templates
 * whose market type is capacity-block, and such a template only in a Capacity Block fleet.
 */
function checkMarketType(candidate: Candidate, capacityBlock: boolean): void {
  const market = candidate.template?.data.marketType;
  if (capacityBlock && market !== 'capacity-block')
    throw new Ec2Error(
      'InvalidParameterCombination',
      'DefaultTargetCapacityType capacity-block needs a launch template with InstanceMarketOptions.MarketType capacity-block',
    );
  if (!capacityBlock && market === 'capacity-block')
    throw new Ec2Error(
      'InvalidParameterCombination',
      'A launch template with MarketType capacity-block needs DefaultTargetCapacityType capacity-block',
    );
}

function fleetError(candidate: Candidate, lifecycle: CapacityTypeName, error: Ec2Error): FleetError {
  return {
    launchTemplateId: candidate.spec.launchTemplateId ?? '',
    launchTemplateName: candidate.spec.launchTemplateName ?? '',
    version: candidate.spec.version,
    overrides: candidate.overrides,
    lifecycle,
    errorCode: error.code,
    errorMessage: error.message,
    candidateIndex: candidate.index,
  };
}

function sameCandidate(error: FleetError, candidate: Candidate, lifecycle: CapacityTypeName): boolean {
  return error.candidateIndex === candidate.index && error.lifecycle === lifecycle;
}

function errorXml(error: FleetError): XmlObject {
  return {
    launchTemplateAndOverrides: templateAndOverrides(
      {
        launchTemplateId: error.launchTemplateId || undefined,
        launchTemplateName: error.launchTemplateName || undefined,
        version: error.version,
      },
      error.overrides,
    ),
    lifecycle: error.lifecycle,
    errorCode: error.errorCode,
    errorMessage: error.errorMessage,
  };
}
