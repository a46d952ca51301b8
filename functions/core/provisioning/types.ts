/** The provisioner's ports, options and result. */
import type { PodRefDetail } from '../events/joiner-events.js';
import type { KarpenterKinds } from '../model/config/karpenter-kinds.js';
import type { Catalog } from '../model/instance-type.js';
import type { NodeClaimTimeouts } from '../nodeclaim/state-machine.js';
import type { Clock } from '../ports/clock.js';
import type { CloudProvider } from '../ports/cloud-provider.js';
import type { ClusterApi } from '../ports/cluster-api.js';
import type { EventPublisher, TimerScheduler } from '../ports/event-publisher.js';
import type { Log } from '../ports/log.js';
import type { StateStore } from '../ports/state-store.js';
import type { BatchEvents, BatchWindow, GatherResult } from './batch-window.js';

/** The ports a provisioning run uses. */
export interface ProvisionDeps {
  readonly cluster: ClusterApi;
  readonly store: StateStore;
  readonly cloud: CloudProvider;
  readonly timers: TimerScheduler;
  readonly clock: Clock;
  readonly log: Log;
  /** The instance types (with offerings and prices) the NodePools may launch. */
  readonly catalog: Catalog;
  /**
   * The node role ARNs joiner may pass to EC2 (JOINER_NODE_ROLE_ARNS): a NodeClass naming another
   * role launches nothing and its pods get the reason. Default: roles are not checked.
   */
  readonly nodeRoles?: readonly string[];
  /**
   * Whether NodePools of Karpenter's kinds are acted on (JOINER_KARPENTER_KINDS): with `ignore`
   * they are left to Karpenter, logged once per run, and named in the reason of the pods no other
   * NodePool takes. Default `manage`.
   */
  readonly karpenterKinds?: KarpenterKinds;
  /**
   * The clock of the provisioning lease and the batch window: the time the invocation runs on (the
   * Lambda runtime's: wall time in AWS, the virtual clock in the simulated cloud). Tests give
   * `clock` a fixed time and this one a moving one. Default: the system clock.
   */
  readonly leaseClock?: Clock;
  /**
   * Waits `ms` of the same time as `leaseClock` (batch-window polls, lease and launch retries).
   * Default: setTimeout.
   */
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * Wall milliseconds left before the invocation's deadline (Lambda's
   * `context.getRemainingTimeInMillis`). With it, the lease lasts until shortly after the deadline
   * and no launch starts within the launch reserve of it. Default: no deadline.
   */
  readonly remainingMs?: () => number;
  /**
   * The batch window (Karpenter's 1 s idle / 10 s max): with the batch's event times in the
   * input, the run first waits for the burst to end. Default: 1 s idle, 10 s max.
   */
  readonly batchWindow?: BatchWindow;
  /**
   * joiner's bus: a run that stops launching before its deadline hands the rest over to a new
   * invocation with a hint (handover.ts). Default: nothing is handed over, the sweep resumes it.
   */
  readonly events?: EventPublisher;
}

/** Tuning of a run; every field has a default. */
export interface ProvisionOptions {
  /** Who holds the provisioning lease (e.g. the Lambda request id). Default: a random id. */
  readonly holder?: string;
  /**
   * How long the lease is held at most (a crashed run frees it after this). Default: until 5 s
   * after the invocation's deadline, 70 s when there is none.
   */
  readonly leaseTtlMs?: number;
  /** How long a run waits for a lease another run holds before deferring. Default 20 s. */
  readonly leaseWaitMs?: number;
  /** Pause between lease attempts. Default 100 ms. */
  readonly leaseRetryMs?: number;
  /**
   * No launch starts with less than this left of the lease or of the invocation. Default 10 s
   * (at most a quarter of the invocation's remaining time at the start).
   */
  readonly launchReserveMs?: number;
  /** Launch and registration timeouts armed on new claims. Default 5 min / 15 min. */
  readonly timeouts?: NodeClaimTimeouts;
  /** CreateFleet attempts per claim and run. Default 6. */
  readonly maxLaunchAttempts?: number;
  /**
   * A run that finds the lease held asks its holder to plan once more and returns at once
   * (`absorbed`) instead of waiting: for runs whose work is every pending pod (a batch of pod
   * events), not for runs that need their own pass (a drain's replacements). Default false.
   */
  readonly absorb?: boolean;
}

/** What a provisioning run is given. */
export interface ProvisionInput {
  /** Pod refs of the batch (hints: the API server is re-read). */
  readonly hints: readonly PodRefDetail[];
  /** When the batch's events were sent; without it the run plans at once (no batch window). */
  readonly events?: BatchEvents;
  readonly options?: ProvisionOptions;
}

/** A pod the run could not place, with the scheduler's reason. */
export interface UnschedulableResult {
  readonly pod: string;
  readonly reason: string;
}

/** A nodeclaim this run launched (or adopted after a crashed run). */
export interface LaunchedClaimResult {
  readonly nodeClaim: string;
  readonly nodePool: string;
  readonly instanceId: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: string;
  readonly price?: number;
  readonly pods: number;
  readonly adopted: boolean;
}

/** A nodeclaim whose launch failed or was interrupted by an error. */
export interface FailedClaimResult {
  readonly nodeClaim: string;
  readonly reason: string;
  /** The claim's pool, when its launch ended with a recorded failure. */
  readonly nodePool?: string;
  /** The failure the claim recorded (reason code and message), when its launch ended with one. */
  readonly failure?: { readonly reason: string; readonly message: string };
}

/**
 * The outcome of one run. Times are real elapsed milliseconds; `deferred` means another run held
 * the provisioning lease for longer than the wait, so nothing was done and the batch should be retried.
 */
export interface ProvisionResult {
  readonly deferred: boolean;
  /** The run in progress took this run's work (it plans every pending pod before it releases). */
  readonly absorbed?: boolean;
  /**
   * True when a launch ended with an error and left its claim Pending: the next run resumes it
   * (adopting an instance the attempt may have made), so the batch should be retried.
   */
  readonly incomplete: boolean;
  /** Distinct pod refs in the hints. */
  readonly hints: number;
  /** Hinted pods that were no longer pending (bound or gone). */
  readonly staleHints: number;
  /** Pending pods read from the API server (including pods not in the hints). */
  readonly pendingPods: number;
  /** Age of the oldest of those pending pods (ms since its creation; 0 when none is pending). */
  readonly oldestPendingPodAgeMs: number;
  /** Pending pods already waiting for an in-flight nodeclaim. */
  readonly waitingForInFlight: number;
  /** Ids of the nodeclaims this run wrote. */
  readonly created: readonly string[];
  readonly launched: readonly LaunchedClaimResult[];
  readonly failed: readonly FailedClaimResult[];
  /** Pending claims of earlier runs this run resumed (launched, adopted or failed above). */
  readonly resumed: readonly string[];
  /** Pending claims of earlier runs cancelled because none of their pods is pending any more. */
  readonly cancelled: readonly string[];
  /** Pods nominated to a new or in-flight nodeclaim or an existing node. */
  readonly nominated: number;
  /** Pods placed on existing nodes (the kube-scheduler binds them). */
  readonly placedOnExisting: number;
  /** Pods placed on in-flight nodeclaims (they wait for that node). */
  readonly placedOnInFlight: number;
  /**
   * The nodeclaims (new or in flight) pods were nominated to, by pod uid: a drain waits for the
   * claims its pods will land on, not only for those planned for them.
   */
  readonly claimOfPod: Readonly<Record<string, string>>;
  readonly unschedulable: readonly UnschedulableResult[];
  /** Offerings marked unavailable during this run (`type/zone/capacity-type`). */
  readonly markedUnavailable: readonly string[];
  /** Configuration documents skipped because they are invalid. */
  readonly invalidDocuments: number;
  readonly schedulingMs: number;
  readonly totalMs: number;
  /** What the batch window did before the run (absent when the run had no event times). */
  readonly batch?: GatherResult;
  /**
   * Pods of the nodeclaims the run stopped before launching (left Pending, or planned and not
   * written) because it ran out of lease or invocation time.
   */
  readonly leftForNextRun?: readonly PodRefDetail[];
  /** The run published a hint so a new invocation launches what it left (handover.ts). */
  readonly handedOver?: boolean;
}
