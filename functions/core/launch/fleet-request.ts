import type { CapacityType } from '../model/instance-type.js';
import type { NodeClass } from '../model/node-class.js';
import { EFA } from '../model/resources.js';
import type { NodeClaim, NodeClaimOption } from '../nodeclaim/nodeclaim.js';
import { imageFor } from './ami-variant.js';
import type { BootstrapFamily } from './bootstrap.js';
import { efaSlotConflict } from './efa-interfaces.js';
import type { InstanceFacts, ResolvedNodeClass } from './launch-context.js';
import { pickSubnet } from './launch-context.js';
import { MAX_FLEET_OVERRIDES } from './launch-options.js';
import { buildLaunchTemplate, type Ec2Tag, type LaunchTemplateSpec, toTagList } from './launch-template.js';
import { resourceTags, TAG } from './tags.js';

/** One CreateFleet override. */
export interface FleetOverride {
  readonly InstanceType: string;
  readonly SubnetId: string;
  readonly AvailabilityZone: string;
  /** With a prioritized strategy: lower is launched first (see {@link overlaidStrategy}). */
  readonly Priority?: number;
}

/** A CreateFleet request in the EC2 API's shape (type instant, target 1). */
export interface CreateFleetRequest {
  readonly ClientToken: string;
  readonly Type: 'instant';
  readonly TargetCapacitySpecification: {
    readonly TotalTargetCapacity: 1;
    /** `capacity-block` for a launch into Capacity Blocks (ODCR launches are `on-demand`). */
    readonly DefaultTargetCapacityType: 'spot' | 'on-demand' | 'capacity-block';
  };
  readonly SpotOptions?: {
    readonly AllocationStrategy: 'price-capacity-optimized' | 'capacity-optimized-prioritized';
  };
  readonly OnDemandOptions?: { readonly AllocationStrategy: 'lowest-price' | 'prioritized' };
  readonly LaunchTemplateConfigs: readonly {
    readonly LaunchTemplateSpecification: {
      readonly LaunchTemplateName: string;
      readonly Version: '$Latest';
    };
    readonly Overrides: readonly FleetOverride[];
  }[];
  /**
   * Tags of what the request creates, as Karpenter sends them: the fleet, the instance and its
   * EBS volumes (so no CreateTags call on volumes after the launch, which IAM would have to allow
   * on untagged volumes). The network interfaces and, for spot, the spot request are tagged by
   * the launch template ({@link buildLaunchTemplate}).
   */
  readonly TagSpecifications: readonly {
    readonly ResourceType: 'fleet' | 'instance' | 'volume';
    readonly Tags: readonly Ec2Tag[];
  }[];
}

/** Everything one launch attempt is planned from. */
export interface LaunchPlanInput {
  readonly claim: NodeClaim;
  readonly nodeClass: NodeClass;
  readonly family: BootstrapFamily;
  readonly resolved: ResolvedNodeClass;
  readonly options: readonly NodeClaimOption[];
  readonly capacityType: CapacityType;
  readonly clientToken: string;
  readonly instanceFacts: (instanceType: string) => InstanceFacts | undefined;
  /** The launching joiner's identity, tagged on the instance and fleet as `joiner.sh/owner`. */
  readonly owner?: string;
}

/** The launch templates and the CreateFleet request of one attempt, and the options left out. */
export interface LaunchPlan {
  readonly templates: readonly LaunchTemplateSpec[];
  readonly request: CreateFleetRequest;
  readonly skipped: readonly { readonly option: NodeClaimOption; readonly reason: string }[];
}

/**
 * Plans one CreateFleet attempt: keeps the options whose zone has a primary subnet and a subnet
 * for every Multus interface (and whose architecture and AMI variant have an AMI, and, when the
 * claim's pods request `vpc.amazonaws.com/efa`, whose EFA interfaces fit beside the Multus ones),
 * the first 60 by rank, and builds one launch template per (zone, architecture, AMI variant, max
 * pods, EFA interfaces) — so every instance type gets its own max-pods value, the image its
 * accelerators need and, for EFA pods, one EFA interface per network card as Karpenter launches
 * them — with the overrides that use it. Throws when no option can be launched.
 */
export function planLaunch(input: LaunchPlanInput): LaunchPlan {
  const { claim, nodeClass, resolved } = input;
  const skipped: { option: NodeClaimOption; reason: string }[] = [];
  const usable: { option: NodeClaimOption; facts: InstanceFacts }[] = [];
  for (const option of input.options) {
    const reason = unusable(option, input);
    const facts = input.instanceFacts(option.instanceType);
    if (reason || !facts)
      skipped.push({
        option,
        reason: reason ?? `instance type ${option.instanceType} is not in the catalog`,
      });
    else if (usable.length < MAX_FLEET_OVERRIDES) usable.push({ option, facts });
    else skipped.push({ option, reason: `more than ${MAX_FLEET_OVERRIDES} overrides` });
  }
  if (usable.length === 0) {
    const why = [...new Set(skipped.map((s) => s.reason))].join('; ');
    throw new Error(
      `nodeclaim ${claim.id}: no ${input.capacityType} option can be launched (${why || 'no options'})`,
    );
  }
  const tags = resourceTags({
    clusterName: resolved.cluster.name,
    nodePool: claim.nodePool,
    nodeClass: nodeClass.name,
    extra: nodeClass.tags,
  });
  const prioritized = usable.some((u) => u.option.priceOverlaid);
  const wantsEfa = (claim.requests[EFA] ?? 0) > 0;
  const groups = new Map<string, { template: LaunchTemplateSpec; overrides: FleetOverride[] }>();
  for (const { option, facts } of usable) {
    const efaInterfaces = wantsEfa ? (facts.efaInterfaces ?? 0) : 0;
    const key = `${option.zone}|${facts.arch}|${facts.variant ?? 'standard'}|${facts.maxPods}|${efaInterfaces}|${option.reservationId ?? ''}`;
    let group = groups.get(key);
    if (!group) {
      const template = buildLaunchTemplate({
        nodeClass,
        nodeClassHash: claim.nodeClassHash,
        family: input.family,
        resolved,
        zone: option.zone,
        capacityType: input.capacityType,
        ...(option.reservationId
          ? { reservation: { id: option.reservationId, type: option.reservationType ?? 'default' } }
          : {}),
        arch: facts.arch,
        variant: facts.variant,
        efaInterfaces,
        maxPods: facts.maxPods,
        labels: { ...claim.labels, 'karpenter.sh/nodepool': claim.nodePool },
        taints: claim.taints,
        startupTaints: claim.startupTaints,
        tags,
      });
      group = { template, overrides: [] };
      groups.set(key, group);
    }
    group.overrides.push({
      InstanceType: option.instanceType,
      SubnetId: group.template.subnetId,
      AvailabilityZone: option.zone,
      ...(prioritized ? { Priority: usable.findIndex((u) => u.option === option) } : {}),
    });
  }
  const claimTags = toTagList({
    ...tags,
    [TAG.nodeClaim]: claim.id,
    ...(input.owner ? { [TAG.owner]: input.owner } : {}),
    Name: `${claim.nodePool}/${claim.id}`,
  });
  const request: CreateFleetRequest = {
    ClientToken: input.clientToken,
    Type: 'instant',
    TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: targetType(usable) },
    // A Capacity Block launch takes no allocation strategy; a reserved (ODCR) one is on-demand's.
    ...(targetType(usable) === 'capacity-block'
      ? {}
      : overlaidStrategy(input.capacityType === 'spot' ? 'spot' : 'on-demand', prioritized)),
    LaunchTemplateConfigs: [...groups.values()].map((g) => ({
      LaunchTemplateSpecification: { LaunchTemplateName: g.template.name, Version: '$Latest' as const },
      Overrides: g.overrides,
    })),
    TagSpecifications: [
      { ResourceType: 'fleet', Tags: claimTags },
      { ResourceType: 'instance', Tags: claimTags },
      { ResourceType: 'volume', Tags: claimTags },
    ],
  };
  return { templates: [...groups.values()].map((g) => g.template), request, skipped };
}

/**
 * The allocation strategy: EC2's own price order (`price-capacity-optimized` / `lowest-price`),
 * or, when a NodeOverlay priced an option, joiner's order (`capacity-optimized-prioritized` /
 * `prioritized`, Priority = rank), since EC2 does not know the overlaid prices; as Karpenter does.
 */
export function overlaidStrategy(
  capacityType: 'spot' | 'on-demand',
  prioritized: boolean,
): Pick<CreateFleetRequest, 'SpotOptions' | 'OnDemandOptions'> {
  if (capacityType === 'spot')
    return {
      SpotOptions: {
        AllocationStrategy: prioritized ? 'capacity-optimized-prioritized' : 'price-capacity-optimized',
      },
    };
  return { OnDemandOptions: { AllocationStrategy: prioritized ? 'prioritized' : 'lowest-price' } };
}

/**
 * The fleet's target capacity type: the attempt's, except a reserved attempt, which is `on-demand`
 * into ODCRs and `capacity-block` into Capacity Blocks (an attempt has one kind).
 */
function targetType(
  usable: readonly { readonly option: NodeClaimOption }[],
): CreateFleetRequest['TargetCapacitySpecification']['DefaultTargetCapacityType'] {
  const first = usable[0].option;
  if (first.capacityType === 'spot') return 'spot';
  return first.capacityType === 'reserved' && first.reservationType === 'capacity-block'
    ? 'capacity-block'
    : 'on-demand';
}

function unusable(option: NodeClaimOption, input: LaunchPlanInput): string | undefined {
  if (option.capacityType !== input.capacityType)
    return `capacity type ${option.capacityType} is not this attempt's`;
  if (option.capacityType === 'reserved' && option.reservationId === undefined)
    return `reserved option ${option.instanceType} in ${option.zone} names no capacity reservation`;
  if (!pickSubnet(input.resolved.subnets, option.zone)) return `no subnet in ${option.zone}`;
  const missing = input.resolved.multus.findIndex((m) => !pickSubnet(m.subnets, option.zone));
  if (missing !== -1 || input.resolved.multus.length < input.nodeClass.multusInterfaces.length) {
    return `no subnet for multusInterfaces[${missing === -1 ? input.resolved.multus.length : missing}] in ${option.zone}`;
  }
  const facts = input.instanceFacts(option.instanceType);
  if (facts && (input.claim.requests[EFA] ?? 0) > 0) {
    if (!facts.efaInterfaces)
      return `${option.instanceType} has no EFA interfaces for this NodeClass (its pods request ${EFA})`;
    const conflict = efaSlotConflict(
      facts.efaInterfaces,
      input.nodeClass.multusInterfaces,
      option.instanceType,
    );
    if (conflict) return conflict;
  }
  if (facts && !imageFor(input.resolved, facts.arch, facts.variant ?? 'standard')) {
    const variant = facts.variant ?? 'standard';
    return variant === 'standard' ? `no AMI for ${facts.arch}` : `no ${variant} AMI for ${facts.arch}`;
  }
  return undefined;
}
