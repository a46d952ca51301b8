import type { CapacityType } from '../model/instance-type.js';
import type { Requirement } from '../model/requirement.js';
import type { Resources } from '../model/resources.js';
import type { Taint } from '../model/taint.js';
import type { ConsolidationProposal, DisruptionBlock, DisruptionRecord } from './disruption-record.js';

/**
 * The states of a nodeclaim. `Gone` is terminal: the instance is terminated and the record stays
 * only until DynamoDB TTL collects it, so a late duplicate event cannot resurrect the claim.
 */
export type NodeClaimState =
  | 'Pending'
  | 'Launched'
  | 'Registered'
  | 'Initialized'
  | 'Draining'
  | 'Terminating'
  | 'Gone';

/** Every state, in lifecycle order. */
export const NODE_CLAIM_STATES: readonly NodeClaimState[] = [
  'Pending',
  'Launched',
  'Registered',
  'Initialized',
  'Draining',
  'Terminating',
  'Gone',
];

/** A place and way an instance type may be bought for this claim, with its hourly price. */
export interface NodeClaimOption {
  readonly instanceType: string;
  readonly zone: string;
  /** The zone's ID (`topology.k8s.aws/zone-id`), when the NodeClass's subnets gave it. */
  readonly zoneId?: string;
  readonly capacityType: CapacityType;
  readonly price: number;
  /** True when a NodeOverlay set the price: the launch asks EC2 for joiner's order (prioritized). */
  readonly priceOverlaid?: boolean;
  /** The type's values of the labels the claim's `minValues` requirements count (when it has any). */
  readonly labels?: Readonly<Record<string, string>>;
  /** A `reserved` option's capacity reservation, its type and end (epoch ms, when it has one). */
  readonly reservationId?: string;
  readonly reservationType?: 'default' | 'capacity-block';
  readonly reservationEndTime?: number;
}

/** A pod a nodeclaim was planned for. */
export interface PodRef {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  /**
   * The pod's requests when it was planned (canonical units): the part of the claim's `requests`
   * it holds, given back to other pods once it no longer needs the room (deleted, evicted, bound
   * elsewhere). Absent on claims written before it was recorded: their pods keep their room.
   */
  readonly requests?: Readonly<Resources>;
}

/** The timers a nodeclaim can carry. Each is a due time in epoch milliseconds. */
export type TimerKind =
  | 'launchTimeout'
  | 'registrationTimeout'
  | 'launchRetry'
  | 'emptiness'
  | 'expiration'
  | 'drainStep'
  | 'terminationCheck'
  /** An AWS Health scheduled change starts: drain then. */
  | 'interruption'
  /** A consolidation proposal is re-validated (and acted on) then. */
  | 'consolidation'
  /** Its Node or NodeClaim resource was deleted: a disruption round starts the termination then. */
  | 'deletion';

/**
 * One CreateFleet attempt: its capacity type and the offerings it offered (keys
 * `instanceType|zone|capacityType`, in request order). Sent again with the same ClientToken it
 * returns the same instance, so a run resuming a claim whose attempt may still be in flight never
 * launches a second one.
 */
export interface LaunchAttempt {
  readonly capacityType: CapacityType;
  readonly offerings: readonly string[];
}

/** What was actually launched. */
export interface LaunchedInstance {
  readonly instanceId: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  /** Hourly price the launch was decided at (the option's: NodeOverlay-adjusted when one priced it). */
  readonly price?: number;
  /** True when a NodeOverlay set that price (the list price differs). */
  readonly priceOverlaid?: boolean;
  readonly imageId?: string;
  readonly providerId?: string;
  /** The capacity reservation it runs in (capacity type `reserved`), its type and end (epoch ms). */
  readonly reservationId?: string;
  readonly reservationType?: 'default' | 'capacity-block';
  readonly reservationEndTime?: number;
  /**
   * The launched type's labels from the catalog (family, size, cpu, memory...), put on the node at
   * registration as Karpenter puts its instance type's labels; absent on an instance adopted
   * without its pool's instance types at hand.
   */
  readonly labels?: Readonly<Record<string, string>>;
}

/** Why a nodeclaim stopped (launch failed, timeout, interruption, disruption...). */
export interface NodeClaimFailure {
  readonly reason: string;
  readonly message: string;
}

/**
 * A nodeclaim: joiner's record of one node it decided to launch, from the plan to the end of the
 * instance. It is written (state Pending, with its launch token) before anything is launched.
 */
export interface NodeClaim {
  readonly id: string;
  readonly nodePool: string;
  readonly nodeClass: string;
  /** Drift hash of the NodePool's nodeclaim template when the claim was made. */
  readonly nodePoolHash: string;
  /** Drift hash of the NodeClass spec (selector terms excluded) when the claim was made. */
  readonly nodeClassHash: string;
  /** Version of the NodePool hash; hashes of another version are not compared (no drift). */
  readonly nodePoolHashVersion?: string;
  /** Version of the NodeClass hash; hashes of another version are not compared (no drift). */
  readonly nodeClassHashVersion?: string;
  readonly requirements: readonly Requirement[];
  readonly labels: Readonly<Record<string, string>>;
  /** The NodePool template's annotations (`spec.template.metadata.annotations`), set on the node. */
  readonly annotations?: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  readonly startupTaints: readonly Taint[];
  /**
   * The NodePool's `expireAfter` when the claim was made (ms; null for `Never`), as Karpenter
   * copies it into the NodeClaim; absent on claims made before joiner recorded it.
   */
  readonly expireAfterMs?: number | null;
  /** The NodePool's `terminationGracePeriod` when the claim was made (ms), as Karpenter copies it. */
  readonly terminationGracePeriodMs?: number;
  /** Ranked options (cheapest first) the launch may choose from. */
  readonly options: readonly NodeClaimOption[];
  readonly pods: readonly PodRef[];
  /**
   * Made to keep a static NodePool's `replicas` (Karpenter v1.8), not for pods: it is launched
   * even though no pod waits for it, and a resumed launch is never cancelled for want of pods.
   */
  readonly static?: boolean;
  /**
   * Fencing token of the provisioning lease the claim was written under. Of two claims planned
   * for the same pod, the one written under the older lease was written by a run that had lost
   * its lease (and so never launched it): it is superseded.
   */
  readonly leaseToken?: number;
  /** Summed requests of the pods (plus daemonset overhead), canonical units. */
  readonly requests: Readonly<Resources>;
  /** Base of the CreateFleet ClientToken; derived from the id. */
  readonly launchToken: string;
  /** Number of CreateFleet attempts made so far (each attempt has its own ClientToken). */
  readonly launchAttempts: number;
  /** What the latest attempt asked for, recorded before it was sent, so a resumed launch can replay it. */
  readonly lastAttempt?: LaunchAttempt;
  readonly state: NodeClaimState;
  /** Optimistic-concurrency version; the store bumps it on every write. */
  readonly version: number;
  /** Epoch ms of entering each state (`Pending` = created). */
  readonly timestamps: Readonly<Partial<Record<NodeClaimState, number>>>;
  readonly timers: Readonly<Partial<Record<TimerKind, number>>>;
  readonly instance?: LaunchedInstance;
  readonly nodeName?: string;
  readonly failure?: NodeClaimFailure;
  /** The disruption in progress (set on entering `Draining`). */
  readonly disruption?: DisruptionRecord;
  /** Why the last due disruption timer was re-armed instead of acted on. */
  readonly blocked?: DisruptionBlock;
  /** When a pod last left the claim's node (consolidateAfter counts from pod events). */
  readonly lastPodRemovedAt?: number;
  /** A consolidation proposal this node is part of, re-validated when its timer is due. */
  readonly consolidation?: ConsolidationProposal;
  /**
   * The Draining claims whose drains wait for this claim (one of their replacements) to be
   * initialized: the lifecycle wakes them when it initializes this claim (see
   * lifecycle/wake-drains.ts). Written by the drains, only once this claim is Launched.
   */
  readonly wakesDrains?: readonly string[];
}
