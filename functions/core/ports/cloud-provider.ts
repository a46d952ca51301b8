import type { ResolvedImages } from '../launch/ami-variant.js';
import type { InstanceFacts } from '../launch/launch-context.js';
import type { CapacityReservation } from '../model/capacity-reservation.js';
import type { CapacityType } from '../model/instance-type.js';
import type { NodeClass } from '../model/node-class.js';
import type { NodePool } from '../model/node-pool.js';
import type { LaunchedInstance, NodeClaim, NodeClaimOption } from '../nodeclaim/nodeclaim.js';

/** One error CreateFleet reported, for one override (or for the whole request when no override). */
export interface FleetError {
  readonly code: string;
  readonly message: string;
  readonly instanceType?: string;
  readonly zone?: string;
  readonly subnetId?: string;
  readonly capacityType?: CapacityType;
}

/** One CreateFleet attempt for a nodeclaim. */
export interface LaunchInput {
  readonly claim: NodeClaim;
  readonly nodePool: NodePool;
  readonly nodeClass: NodeClass;
  /** The options to try in this attempt: all of one capacity type, available, cheapest first. */
  readonly options: readonly NodeClaimOption[];
  /** `reserved`: into the options' capacity reservations (one launch template per reservation). */
  readonly capacityType: CapacityType;
  /** CreateFleet ClientToken of this attempt (stable for a claim and attempt number). */
  readonly clientToken: string;
  /** Architecture and max pods (ENI-limited, Multus ENIs subtracted) of an instance type on this NodeClass. */
  readonly instanceFacts: (instanceType: string) => InstanceFacts | undefined;
  /**
   * Awaited when the launch is about to make its first cloud call, after any wait for the
   * provider's own pacing of launches; when it rejects, the launch ends with that error and nothing
   * started. The provisioning run checks its lease and remaining time here, so a launch that queued
   * while the run's time ran out does not start near the invocation's deadline.
   */
  readonly beforeStart?: () => Promise<void>;
}

/** What one attempt gave: an instance, and/or the errors of the overrides that failed. */
export type LaunchOutcome =
  | { readonly ok: true; readonly instance: LaunchedInstance; readonly errors: readonly FleetError[] }
  | { readonly ok: false; readonly errors: readonly FleetError[] };

/**
 * The cloud refused a call for its request rate (EC2's `RequestLimitExceeded`) after the client's
 * own retries: nothing was launched by that call; the launch is to be tried again later, it is
 * neither a failure of the claim nor a lack of capacity.
 */
export class CloudThrottledError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CloudThrottledError';
  }
}

/** An instance joiner launched, as EC2 describes it (found through joiner's tags). */
export interface CloudInstance {
  readonly instanceId: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  /** The capacity reservation it runs in (capacity type `reserved`). */
  readonly reservationId?: string;
  readonly state: 'pending' | 'running' | 'shutting-down' | 'terminated' | 'stopping' | 'stopped';
  readonly launchTime: number;
  readonly imageId?: string;
  /** Subnet of the primary network interface. */
  readonly subnetId?: string;
  /** Security groups of the primary network interface. */
  readonly securityGroupIds?: readonly string[];
  readonly nodeClaimId?: string;
  /** The identity of the joiner that launched it (`joiner.sh/owner`: its state table's name). */
  readonly owner?: string;
  readonly nodePool?: string;
  readonly privateDnsName?: string;
  /** Why it left `pending`/`running` (EC2's StateReason), when EC2 says. */
  readonly stateReason?: { readonly code: string; readonly message: string };
  readonly tags: Readonly<Record<string, string>>;
}

/** A zone a NodeClass can launch in, with its zone ID (`usw2-az1`) when its subnets give it. */
export interface LaunchZone {
  readonly name: string;
  readonly id?: string;
}

/** What a NodeClass's selector terms resolve to now (drift checks compare instances against it). */
export interface NodeClassResolution {
  /** The selected image of every architecture (and AMI variant). */
  readonly imageIds: string[];
  /** The same images per architecture and variant, so drift compares a node with its own variant's image. */
  readonly images?: ResolvedImages;
  readonly subnetIds: string[];
  readonly securityGroupIds: string[];
  /** The zones it can launch in: where its own and every Multus interface's subnets have one. */
  readonly zones: string[];
}

/**
 * The compute side of joiner (EC2 in production and in the simulated cloud). `launch` makes one
 * CreateFleet attempt; retries with other options are the core's decision.
 */
export interface CloudProvider {
  launch(input: LaunchInput): Promise<LaunchOutcome>;
  /**
   * Gets ready for `launch` with these inputs without launching (e.g. resolves the NodeClass and
   * creates its launch templates), so the launch that follows only sends CreateFleet. Optional;
   * a failure here is left for the launch to report.
   */
  prepare?(input: Omit<LaunchInput, 'clientToken'>): Promise<void>;
  /**
   * Resolves what every launch with `nodeClass` needs, whatever it launches (e.g. its subnets,
   * security groups and images), before the claims are planned, and returns the zones it can
   * launch in (where all of its interfaces have a subnet); nothing when any zone will do.
   * Optional; a failure here is left for the launch to report.
   */
  prepareNodeClass?(nodeClass: NodeClass): Promise<readonly LaunchZone[] | undefined>;
  /**
   * What `nodeClass` selects now (images, subnets, security groups), from the same caches launches
   * use, so a drift check within their time-to-live calls nothing. Optional: without it cloud
   * drift is not checked. Rejects when a selector matches nothing or a call fails.
   */
  resolveNodeClass?(nodeClass: NodeClass): Promise<NodeClassResolution>;
  /**
   * Deletes what joiner made in the cloud for NodeClasses that no longer exist (the instance
   * profiles of their roles), except what a live instance still uses. `nodeClassNames` are the
   * NodeClasses that exist, valid or not. Returns what was deleted. Optional.
   */
  collectNodeClassResources?(nodeClassNames: ReadonlySet<string>): Promise<readonly string[]>;
  /**
   * The capacity reservations `nodeClass`'s `capacityReservationSelectorTerms` select now (active
   * ones, with the instances they can still take), read once per run. Optional: without it no
   * reserved capacity is offered. Rejects when a call fails.
   */
  capacityReservations?(nodeClass: NodeClass): Promise<readonly CapacityReservation[]>;
  /** Terminates instances; already-terminated or unknown instances are not an error. */
  terminate(instanceIds: readonly string[]): Promise<void>;
  get(instanceId: string): Promise<CloudInstance | undefined>;
  /** The live (not terminated) instance tagged with this nodeclaim id, if any (adoption after a crash). */
  findByNodeClaim(nodeClaimId: string): Promise<CloudInstance | undefined>;
  /** Every live instance tagged for this cluster (orphan GC). */
  list(): Promise<CloudInstance[]>;
}
