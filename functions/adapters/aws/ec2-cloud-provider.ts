import type {
  CreateFleetCommandInput,
  CreateFleetCommandOutput,
  Filter,
  Instance,
} from '@aws-sdk/client-ec2';
import { bootstrapFamily } from '../../core/launch/bootstrap.js';
import type { ClusterInfo } from '../../core/launch/cluster-info.js';
import { type LaunchPlan, planLaunch } from '../../core/launch/fleet-request.js';
import { launchZonesWithIds } from '../../core/launch/launch-context.js';
import { isAuthorizationErrorCode } from '../../core/launch/launch-denial.js';
import { isInstanceProfilePropagationError } from '../../core/launch/node-role.js';
import { resourceTags, TAG } from '../../core/launch/tags.js';
import type { CapacityReservation } from '../../core/model/capacity-reservation.js';
import type { CapacityType } from '../../core/model/instance-type.js';
import type { NodeClass } from '../../core/model/node-class.js';
import {
  type CloudInstance,
  type CloudProvider,
  CloudThrottledError,
  type FleetError,
  type LaunchInput,
  type LaunchOutcome,
  type LaunchZone,
  type NodeClassResolution,
} from '../../core/ports/cloud-provider.js';
import type { CapacityReservationProvider } from './capacity-reservation-provider.js';
import type { Ec2Api } from './ec2-api.js';
import { isNotFoundYet, type Sleep, untilVisible, wallSleep } from './eventual-consistency.js';
import { DEFAULT_LAUNCH_CONCURRENCY, LaunchSlots } from './launch-slots.js';
import type { LaunchTemplateProvider } from './launch-template-provider.js';
import {
  type NodeClassProviders,
  resolveNodeClass,
  resolveNodeClassSelection,
} from './nodeclass-resolver.js';

const LIVE_STATES = ['pending', 'running', 'stopping', 'stopped', 'shutting-down'];

/** What the EC2 cloud provider is built from. */
export interface Ec2CloudProviderOptions {
  readonly ec2: Ec2Api;
  readonly providers: NodeClassProviders;
  readonly launchTemplates: LaunchTemplateProvider;
  /** The cluster nodes join, or its name and a lookup made on the first launch. */
  readonly cluster: ClusterInfo | ClusterLookup;
  /** The identity put on every instance as `joiner.sh/owner` (the state table's name). */
  readonly owner?: string;
  /** Waits between tries while EC2 does not see what it just created yet. @default the wall clock */
  readonly sleep?: Sleep;
  /** Launches in flight at once from this instance (default {@link DEFAULT_LAUNCH_CONCURRENCY}). */
  readonly launchConcurrency?: number;
  /** Reads the capacity reservations NodeClasses select; without it no reserved capacity is offered. */
  readonly capacityReservations?: CapacityReservationProvider;
}

/** A cluster whose name is known and whose join details are looked up when first needed. */
export interface ClusterLookup {
  readonly name: string;
  /** The join details; rejects with an error naming the cluster when the lookup fails. */
  readonly info: () => Promise<ClusterInfo>;
}

/**
 * joiner's {@link CloudProvider} on EC2: resolves the NodeClass, ensures the launch templates,
 * makes one CreateFleet call (which tags the fleet, instance and volumes; the launch template tags
 * the ENIs and, for spot, the spot request), then tags the instance's ENIs with the nodeclaim,
 * marks Multus ENIs `no_manage` and switches their source/dest check off where asked. A call IAM
 * denies ends the attempt with the error as its outcome (the claim fails naming the permission).
 */
export class Ec2CloudProvider implements CloudProvider {
  private readonly slots: LaunchSlots;

  constructor(private readonly options: Ec2CloudProviderOptions) {
    this.slots = new LaunchSlots(options.launchConcurrency ?? DEFAULT_LAUNCH_CONCURRENCY);
  }

  async prepareNodeClass(nodeClass: NodeClass): Promise<readonly LaunchZone[]> {
    return launchZonesWithIds(
      await resolveNodeClass(this.options.providers, await this.clusterInfo(), nodeClass),
    );
  }

  /** What `nodeClass` selects now, through the launch caches (needs no cluster lookup). */
  resolveNodeClass(nodeClass: NodeClass): Promise<NodeClassResolution> {
    return resolveNodeClassSelection(this.options.providers, this.options.cluster.name, nodeClass);
  }

  async capacityReservations(nodeClass: NodeClass): Promise<readonly CapacityReservation[]> {
    return (await this.options.capacityReservations?.list(nodeClass.capacityReservationSelectorTerms)) ?? [];
  }

  async prepare(input: Omit<LaunchInput, 'clientToken'>): Promise<void> {
    const plan = await this.plan({ ...input, clientToken: '' });
    if ('templates' in plan) await this.options.launchTemplates.ensure(plan.templates);
  }

  /**
   * One attempt, when one of the instance's launch slots is free (see launch-slots.ts) and
   * `input.beforeStart` allows it then.
   */
  launch(input: LaunchInput): Promise<LaunchOutcome> {
    return this.slots.run(async () => {
      await input.beforeStart?.();
      return this.launchNow(input);
    });
  }

  private async launchNow(input: LaunchInput): Promise<LaunchOutcome> {
    const plan = await this.plan(input);
    if (!('templates' in plan)) return plan;
    let out: CreateFleetCommandOutput;
    try {
      await this.options.launchTemplates.ensure(plan.templates);
      out = await this.createFleet(plan);
    } catch (error) {
      // A denied call is the attempt's outcome, not an error to retry: the claim fails with it.
      if (isAuthorizationError(error)) return { ok: false, errors: [errorOf(error)] };
      // Throttled past the SDK's retries: nothing was launched, the core tries again later.
      if (isThrottlingError(error)) {
        const { code, message } = errorOf(error);
        throw new CloudThrottledError(
          code,
          `EC2 throttled the launch of nodeclaim ${input.claim.id}: ${code}: ${message}`,
        );
      }
      throw error;
    }
    const errors = fleetErrors(out, input.capacityType);
    const fleetInstance = out.Instances?.find((i) => i.InstanceIds?.length);
    const instanceId = fleetInstance?.InstanceIds?.[0];
    if (!fleetInstance || !instanceId) {
      // A profile joiner ensured may have been deleted since (or is not visible to EC2 yet).
      if (errors.some(isInstanceProfilePropagationError))
        this.options.providers.instanceProfiles.invalidate();
      return { ok: false, errors };
    }
    const zone = fleetInstance.LaunchTemplateAndOverrides?.Overrides?.AvailabilityZone ?? '';
    await this.finishLaunch(instanceId, input, plan);
    return {
      ok: true,
      errors,
      instance: {
        instanceId,
        instanceType:
          fleetInstance.InstanceType ??
          fleetInstance.LaunchTemplateAndOverrides?.Overrides?.InstanceType ??
          '',
        zone,
        capacityType:
          input.capacityType === 'reserved'
            ? 'reserved'
            : fleetInstance.Lifecycle === 'spot'
              ? 'spot'
              : 'on-demand',
        ...reservationOf(input, fleetInstance.LaunchTemplateAndOverrides?.Overrides?.InstanceType, zone),
        providerId: `aws:///${zone}/${instanceId}`,
      },
    };
  }

  /** The launch templates and CreateFleet request of an attempt, or the configuration error as its outcome. */
  private async plan(input: LaunchInput): Promise<LaunchPlan | LaunchOutcome> {
    const cluster = await this.clusterInfo();
    try {
      const resolved = await resolveNodeClass(this.options.providers, cluster, input.nodeClass);
      return planLaunch({
        claim: input.claim,
        nodeClass: input.nodeClass,
        family: bootstrapFamily(input.nodeClass.amiFamily, input.nodeClass.amiSelectorTerms),
        resolved,
        options: input.options,
        capacityType: input.capacityType,
        clientToken: input.clientToken,
        instanceFacts: input.instanceFacts,
        ...(this.options.owner ? { owner: this.options.owner } : {}),
      });
    } catch (error) {
      // A NodeClass resolution IAM or EC2 refused (e.g. iam:GetInstanceProfile) keeps its code.
      if (isAuthorizationError(error)) return { ok: false, errors: [errorOf(error)] };
      return { ok: false, errors: [{ code: 'LaunchConfigurationError', message: (error as Error).message }] };
    }
  }

  /**
   * CreateFleet; when EC2 does not see a launch template just created yet (eventual
   * consistency), asks again after a while with the same ClientToken (idempotent).
   */
  private async createFleet(plan: LaunchPlan): Promise<CreateFleetCommandOutput> {
    const { ec2 } = this.options;
    const request = plan.request as unknown as CreateFleetCommandInput;
    let failure: unknown;
    const out = await untilVisible(
      async () => {
        try {
          failure = undefined;
          return await ec2.createFleet(request);
        } catch (error) {
          if (!isNotFoundYet(error)) throw error;
          failure = error;
          return undefined;
        }
      },
      (o) => o !== undefined && !templateNotFoundYet(o),
      this.sleep,
    );
    if (out === undefined) throw failure;
    return out;
  }

  private get sleep(): Sleep {
    return this.options.sleep ?? wallSleep;
  }

  /**
   * Tags ENIs with the nodeclaim; Multus ENIs get no_manage and source/dest check off. Volumes
   * are tagged by the CreateFleet request. DescribeInstances right after CreateFleet may not see
   * the instance yet: it is asked again, a bounded number of times.
   */
  private async finishLaunch(instanceId: string, input: LaunchInput, plan: LaunchPlan): Promise<void> {
    const { ec2 } = this.options;
    const [instance] =
      (await untilVisible(
        () => ec2.describeInstances([], [instanceId]),
        (found) => found.length > 0,
        this.sleep,
      )) ?? [];
    if (!instance) {
      throw new Error(
        `instance ${instanceId} launched by CreateFleet is still not visible to DescribeInstances; its ENIs are tagged when the launch is resumed`,
      );
    }
    const enis = instance.NetworkInterfaces ?? [];
    const tags = resourceTags({
      clusterName: this.options.cluster.name,
      nodePool: input.claim.nodePool,
      nodeClass: input.nodeClass.name,
      nodeClaimId: input.claim.id,
      extra: input.nodeClass.tags,
    });
    const eniIds = enis.map((e) => e.NetworkInterfaceId!).filter(Boolean);
    if (eniIds.length) await ec2.createTags(eniIds, tags);
    const multus = enis.filter(
      (e) => (e.Attachment?.DeviceIndex ?? 0) > 0 || (e.Attachment?.NetworkCardIndex ?? 0) > 0,
    );
    const multusIds = multus.map((e) => e.NetworkInterfaceId!).filter(Boolean);
    if (multusIds.length) await ec2.createTags(multusIds, { [TAG.noManage]: 'true' });
    const off = plan.templates[0]?.sourceDestCheckOff ?? [];
    await Promise.all(
      multus
        .filter((e) =>
          off.some(
            (o) =>
              o.deviceIndex === e.Attachment?.DeviceIndex &&
              o.networkCardIndex === (e.Attachment?.NetworkCardIndex ?? 0),
          ),
        )
        .map((e) => ec2.disableSourceDestCheck(e.NetworkInterfaceId!)),
    );
  }

  async collectNodeClassResources(nodeClassNames: ReadonlySet<string>): Promise<readonly string[]> {
    const live = await this.options.ec2.describeInstances(this.filters());
    const inUse = new Set(
      live.map((i) => i.IamInstanceProfile?.Arn?.split('/').pop()).filter((name): name is string => !!name),
    );
    return this.options.providers.instanceProfiles.collect(nodeClassNames, inUse);
  }

  async terminate(instanceIds: readonly string[]): Promise<void> {
    if (instanceIds.length === 0) return;
    try {
      await this.options.ec2.terminateInstances([...instanceIds]);
    } catch (error) {
      if ((error as { name?: string }).name !== 'InvalidInstanceID.NotFound') throw error;
      // Some ids are gone already: terminate the ones that still exist.
      const live = await this.options.ec2.describeInstances(this.filters(), undefined);
      const wanted = live.map((i) => i.InstanceId!).filter((id) => instanceIds.includes(id));
      if (wanted.length) await this.options.ec2.terminateInstances(wanted);
    }
  }

  async get(instanceId: string): Promise<CloudInstance | undefined> {
    try {
      const [instance] = await this.options.ec2.describeInstances([], [instanceId]);
      return instance ? toCloudInstance(instance) : undefined;
    } catch (error) {
      if ((error as { name?: string }).name === 'InvalidInstanceID.NotFound') return undefined;
      throw error;
    }
  }

  async findByNodeClaim(nodeClaimId: string): Promise<CloudInstance | undefined> {
    const found = await this.options.ec2.describeInstances([
      ...this.filters(),
      { Name: `tag:${TAG.nodeClaim}`, Values: [nodeClaimId] },
    ]);
    return found.map(toCloudInstance).sort((a, b) => a.launchTime - b.launchTime)[0];
  }

  async list(): Promise<CloudInstance[]> {
    return (await this.options.ec2.describeInstances(this.filters())).map(toCloudInstance);
  }

  /** The cluster's join details (a lookup failure throws: the launch is retried, not failed). */
  private clusterInfo(): Promise<ClusterInfo> {
    const { cluster } = this.options;
    return 'info' in cluster ? cluster.info() : Promise.resolve(cluster);
  }

  private filters(): Filter[] {
    return [
      { Name: `tag:${TAG.cluster}`, Values: [this.options.cluster.name] },
      { Name: 'instance-state-name', Values: LIVE_STATES },
    ];
  }
}

/** A CreateFleet answer whose only errors are a launch template EC2 does not see yet. */
function templateNotFoundYet(out: CreateFleetCommandOutput): boolean {
  const launched = (out.Instances ?? []).some((i) => (i.InstanceIds ?? []).length > 0);
  const errors = out.Errors ?? [];
  return !launched && errors.length > 0 && errors.every((e) => isNotFoundYet({ name: e.ErrorCode }));
}

/** Whether a thrown AWS error is IAM (or EC2 for IAM) refusing the call. */
/** EC2's throttling codes (the SDK's classification, for a call it gave up retrying). */
const THROTTLING_CODES = new Set([
  'RequestLimitExceeded',
  'Throttling',
  'ThrottlingException',
  'RequestThrottled',
]);

function isThrottlingError(error: unknown): boolean {
  return THROTTLING_CODES.has((error as { name?: string } | undefined)?.name ?? '');
}

function isAuthorizationError(error: unknown): boolean {
  return isAuthorizationErrorCode((error as { name?: string } | undefined)?.name ?? '');
}

function errorOf(error: unknown): FleetError {
  const e = error as { name?: string; message?: string };
  return { code: e.name ?? 'Unknown', message: e.message ?? String(error) };
}

/** The reservation a reserved attempt launched into: its option of that type and zone. */
function reservationOf(
  input: LaunchInput,
  instanceType: string | undefined,
  zone: string,
): { reservationId?: string } {
  if (input.capacityType !== 'reserved') return {};
  const option = input.options.find((o) => o.instanceType === instanceType && o.zone === zone);
  return option?.reservationId ? { reservationId: option.reservationId } : {};
}

/** Errors of the fleet; a reserved attempt's are `reserved` (EC2 reports them as on-demand). */
function fleetErrors(out: CreateFleetCommandOutput, attempted: CapacityType): FleetError[] {
  return (out.Errors ?? []).map((e) => {
    const o = e.LaunchTemplateAndOverrides?.Overrides;
    return {
      code: e.ErrorCode ?? 'Unknown',
      message: e.ErrorMessage ?? '',
      ...(o?.InstanceType ? { instanceType: o.InstanceType } : {}),
      ...(o?.AvailabilityZone ? { zone: o.AvailabilityZone } : {}),
      ...(o?.SubnetId ? { subnetId: o.SubnetId } : {}),
      ...(attempted === 'reserved'
        ? { capacityType: 'reserved' as CapacityType }
        : e.Lifecycle
          ? { capacityType: (e.Lifecycle === 'spot' ? 'spot' : 'on-demand') as CapacityType }
          : {}),
    };
  });
}

function toCloudInstance(i: Instance): CloudInstance {
  const tags = Object.fromEntries((i.Tags ?? []).map((t) => [t.Key ?? '', t.Value ?? '']));
  return {
    instanceId: i.InstanceId ?? '',
    instanceType: i.InstanceType ?? '',
    zone: i.Placement?.AvailabilityZone ?? '',
    capacityType: i.CapacityReservationId
      ? 'reserved'
      : i.InstanceLifecycle === 'spot'
        ? 'spot'
        : 'on-demand',
    ...(i.CapacityReservationId ? { reservationId: i.CapacityReservationId } : {}),
    state: (i.State?.Name ?? 'pending') as CloudInstance['state'],
    launchTime: i.LaunchTime ? i.LaunchTime.getTime() : 0,
    ...(i.ImageId ? { imageId: i.ImageId } : {}),
    ...primaryNetwork(i),
    ...(tags[TAG.nodeClaim] ? { nodeClaimId: tags[TAG.nodeClaim] } : {}),
    ...(tags[TAG.owner] ? { owner: tags[TAG.owner] } : {}),
    ...(tags[TAG.nodePool] ? { nodePool: tags[TAG.nodePool] } : {}),
    ...(i.PrivateDnsName ? { privateDnsName: i.PrivateDnsName } : {}),
    ...(i.StateReason?.Code
      ? { stateReason: { code: i.StateReason.Code, message: i.StateReason.Message ?? '' } }
      : {}),
    tags,
  };
}

/**
 * The subnet and security groups of the instance's primary network interface (device 0 of card
 * 0), else the instance-level ones: Multus interfaces have their own and are not compared.
 */
function primaryNetwork(i: Instance): Pick<CloudInstance, 'subnetId' | 'securityGroupIds'> {
  const primary = (i.NetworkInterfaces ?? []).find(
    (e) => (e.Attachment?.DeviceIndex ?? 0) === 0 && (e.Attachment?.NetworkCardIndex ?? 0) === 0,
  );
  const subnetId = primary?.SubnetId ?? i.SubnetId;
  const groups = (primary?.Groups ?? i.SecurityGroups ?? [])
    .map((g) => g.GroupId)
    .filter((id): id is string => !!id);
  return {
    ...(subnetId ? { subnetId } : {}),
    ...(groups.length > 0 ? { securityGroupIds: groups } : {}),
  };
}
