import type { Catalog } from '../../core/model/instance-type.js';
import type { SeededRandom, VirtualClock } from '../clock.js';
import type { FaultInjector } from '../faults.js';
import type { ServiceAuthorizer } from '../iam/authorization/authorization-request.js';
import type { InstanceObserver } from '../instance.js';
import type { ApiLatency } from '../latency/api-latency.js';
import { closeServer } from '../loopback-server.js';
import { loadEc2Reference } from './authorization/service-reference.js';
import {
  addCapacityReservations,
  type CapacityReservationChange,
  type CapacityReservationSpec,
  modifyCapacityReservation,
} from './capacity-reservations.js';
import { rebalanceEvent, scheduledChangeEvent, spotInterruptionEvent } from './cloud-events.js';
import { EventualConsistency, type EventualConsistencyOptions } from './consistency/eventual-consistency.js';
import { type CloudEvent, DEFAULT_EC2_TIMINGS, type Ec2Context, type Ec2Timings } from './context.js';
import { startEc2Server, WILDCARD_ACTIONS } from './ec2-server.js';
import { type CapacityTypeName, type Ec2Instance, Ec2State } from './ec2-state.js';
import { terminateInstance } from './instance-lifecycle.js';
import {
  type KmsKeyState,
  type LaunchFailureRule,
  validateKmsKeyState,
  validateLaunchFailure,
} from './launch-failures.js';
import { Ec2Market } from './market.js';
import { Ec2Throttling } from './throttling/ec2-throttling.js';
import type { Ec2ThrottlingConfig } from './throttling/throttle-limits.js';
import { defaultTopology, type VpcTopology } from './topology.js';

export interface Ec2SimulatorOptions {
  readonly clock: VirtualClock;
  readonly random: SeededRandom;
  readonly catalog: Catalog;
  /** Default: the catalog's region. */
  readonly region?: string;
  /** Default: `defaultTopology('joiner', region)`. */
  readonly topology?: VpcTopology;
  readonly observer?: InstanceObserver;
  /** Where EC2 / AWS Health events go (the EventBridge default bus). */
  readonly emit?: (event: CloudEvent) => void;
  readonly faults?: FaultInjector;
  /** Modeled latency of the EC2 calls (virtual time); none when absent. */
  readonly latency?: ApiLatency;
  readonly timings?: Partial<Ec2Timings>;
  /** Whether IAM has an instance profile (launches naming another are refused); default: any. */
  readonly instanceProfileExists?: Ec2Context['instanceProfileExists'];
  /**
   * The instance profile a launch names as IAM has it (undefined: none, the launch is refused),
   * with its role: with `iam`, launches must be allowed `iam:PassRole` on that role. Replaces
   * `instanceProfileExists` when given.
   */
  readonly instanceProfileOf?: Ec2Context['instanceProfileOf'];
  /**
   * The account's IAM: each request's access key names the caller (unknown: `AuthFailure`) and
   * every call is authorized per resource as EC2 does. Absent: every call is allowed.
   */
  readonly iam?: ServiceAuthorizer;
  /** Whether the account already has the spot service-linked role; default false (a fresh account). */
  readonly spotServiceLinkedRole?: boolean;
  /** The account's default EBS encryption key (customer-managed KMS key ARN); launches then need its grants. */
  readonly defaultEbsKmsKeyArn?: string;
  /**
   * The account's KMS keys and their states, by key id or ARN (a key not listed is taken as
   * enabled): volumes under a key that is not `Enabled` terminate their instance during launch.
   */
  readonly kmsKeys?: Readonly<Record<string, KmsKeyState>>;
  /** Describe* miss just-created instances, interfaces, launch templates and tags for up to `windowMs` (virtual). */
  readonly eventualConsistency?: EventualConsistencyOptions;
  /** The account's capacity reservations (ODCRs and Capacity Blocks). */
  readonly capacityReservations?: readonly CapacityReservationSpec[];
  /**
   * EC2's API throttling (token buckets per account, Region and action on the virtual clock), with
   * the documented limits unless changed here; on while the clock runs by itself (a simulation),
   * off when a test moves it by hand, unless `enabled` says otherwise.
   */
  readonly throttling?: Ec2ThrottlingConfig;
}

export interface Ec2Simulator {
  /** Endpoint for `new EC2Client({ endpoint })`. */
  readonly url: string;
  /** Everything the simulated region holds, for inspection in tests. */
  readonly state: Ec2State;
  /** The account's API throttling: its buckets and the requests it refused. */
  readonly throttling: Ec2Throttling;
  /** Whether the account has the spot service-linked role now (absent in a fresh account until a spot launch creates it). */
  spotServiceLinkedRoleExists(): boolean;
  /** Limits a capacity pool to `count` more instances (0: InsufficientInstanceCapacity). */
  setPoolCapacity(type: string, zone: string, capacityType: CapacityTypeName, count: number): void;
  /** Sets the spot price of a type in a zone from now on (DescribeSpotPriceHistory shows the change). */
  setSpotPrice(type: string, zone: string, price: number): void;
  /** Takes an offering off the market (`available: false`: gone from the APIs, launches get ICE) or brings it back. */
  setOffering(type: string, zone: string, capacityType: CapacityTypeName, available: boolean): void;
  /** Caps running spot instances (MaxSpotInstanceCountExceeded beyond); `undefined` removes the cap. */
  setSpotInstanceLimit(limit: number | undefined): void;
  /** Adds capacity reservations to the account (a Capacity Block's instances are reclaimed 30 minutes before its end). */
  addCapacityReservations(specs: readonly CapacityReservationSpec[]): void;
  /** Changes a reservation's instance count or end (ModifyCapacityReservation; a Capacity Block's extension). */
  modifyCapacityReservation(id: string, change: CapacityReservationChange): void;
  /** Sets a KMS key's state (`Deleted`: the key no longer exists); launches from now on see it. */
  setKmsKeyState(key: string, state: KmsKeyState): void;
  /**
   * From now on, instances launched into offerings matching `rule` are terminated during launch
   * with its state reason (the launch call itself succeeds, as in EC2).
   */
  failLaunches(rule: LaunchFailureRule): void;
  /** Removes every injected launch failure. */
  clearLaunchFailures(): void;
  /** Interruption warning now, termination two minutes (virtual) later. */
  interruptSpot(instanceId: string): void;
  rebalanceRecommendation(instanceId: string): void;
  /** An AWS Health scheduled change (instance retirement) for the instance. */
  scheduledChange(instanceId: string): void;
  close(): Promise<void>;
}

/** Starts the simulated EC2 on 127.0.0.1 and a free port. */
export async function startEc2Simulator(options: Ec2SimulatorOptions): Promise<Ec2Simulator> {
  const region = options.region ?? options.catalog.region;
  const topology = options.topology ?? defaultTopology('joiner', region);
  const state = new Ec2State(topology, region, options.catalog.instanceTypes);
  state.market = new Ec2Market(state, options.clock.now() - 3600_000);
  const market = state.market;
  state.spotServiceLinkedRole = options.spotServiceLinkedRole ?? false;
  if (
    options.defaultEbsKmsKeyArn !== undefined &&
    !/^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/\S+$/.test(options.defaultEbsKmsKeyArn)
  ) {
    throw new Error(
      `defaultEbsKmsKeyArn must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>), got '${options.defaultEbsKmsKeyArn}'`,
    );
  }
  for (const [key, keyState] of Object.entries(options.kmsKeys ?? {}))
    state.kmsKeys.set(key, validateKmsKeyState(key, keyState));
  const ctx: Ec2Context = {
    state,
    clock: options.clock,
    random: options.random,
    region,
    timings: { ...DEFAULT_EC2_TIMINGS, ...options.timings },
    observer: options.observer,
    emit: options.emit,
    instanceProfileExists: options.instanceProfileExists,
    instanceProfileOf: options.instanceProfileOf,
    defaultEbsKmsKeyArn: options.defaultEbsKmsKeyArn,
    consistency: options.eventualConsistency
      ? new EventualConsistency(options.clock, options.random, options.eventualConsistency.windowMs)
      : undefined,
  };
  addCapacityReservations(ctx, options.capacityReservations ?? []);
  const iam = options.iam
    ? { authorizer: options.iam, reference: await loadEc2Reference(WILDCARD_ACTIONS) }
    : undefined;
  const throttling = new Ec2Throttling(
    region,
    () => options.clock.now(),
    options.throttling,
    () => options.clock.autoSpeed !== undefined,
  );
  const { server, url } = await startEc2Server(ctx, {
    faults: options.faults,
    latency: options.latency,
    iam,
    throttling,
  });
  const live = (instanceId: string): Ec2Instance => {
    const instance = state.instances.get(instanceId);
    if (!instance) throw new Error(`simulated EC2: no instance ${instanceId}`);
    if (instance.state === 'shutting-down' || instance.state === 'terminated') {
      throw new Error(`simulated EC2: instance ${instanceId} is already ${instance.state}`);
    }
    return instance;
  };
  return {
    url,
    state,
    throttling,
    spotServiceLinkedRoleExists: () => state.spotServiceLinkedRole,
    setPoolCapacity: (type, zone, capacityType, count) => {
      if (!Number.isInteger(count) || count < 0)
        throw new Error(`pool capacity must be a non-negative integer, got ${count}`);
      state.setPoolCapacity(type, zone, capacityType, count);
    },
    setSpotPrice: (type, zone, price) => market.setSpotPrice(type, zone, price, options.clock.now()),
    setOffering: (type, zone, capacityType, available) =>
      market.setOffering(type, zone, capacityType, available),
    setSpotInstanceLimit: (limit) => {
      state.spotInstanceLimit = limit;
    },
    addCapacityReservations: (specs) => addCapacityReservations(ctx, specs),
    modifyCapacityReservation: (id, change) => modifyCapacityReservation(ctx, id, change),
    setKmsKeyState: (key, keyState) => {
      state.kmsKeys.set(key, validateKmsKeyState(key, keyState));
    },
    failLaunches: (rule) => {
      state.launchFailures.push(validateLaunchFailure(rule));
    },
    clearLaunchFailures: () => {
      state.launchFailures = [];
    },
    interruptSpot: (instanceId) => interruptSpot(ctx, live(instanceId)),
    rebalanceRecommendation: (instanceId) => options.emit?.(rebalanceEvent(ctx, live(instanceId))),
    scheduledChange: (instanceId) => options.emit?.(scheduledChangeEvent(ctx, live(instanceId))),
    close: () => closeServer(server),
  };
}

function interruptSpot(ctx: Ec2Context, instance: Ec2Instance): void {
  if (instance.capacityType !== 'spot')
    throw new Error(`simulated EC2: ${instance.instanceId} is not a spot instance`);
  if (instance.interruptionNoticeAt !== undefined) return;
  instance.interruptionNoticeAt = ctx.clock.now();
  ctx.emit?.(spotInterruptionEvent(ctx, instance));
  ctx.clock.setTimeout(
    () =>
      terminateInstance(ctx, instance, {
        code: 'Server.SpotInstanceTermination',
        message: 'Server.SpotInstanceTermination: Spot instance termination',
      }),
    ctx.timings.spotInterruptionNoticeMs,
  );
}
