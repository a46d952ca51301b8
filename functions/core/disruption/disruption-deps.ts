/** What the disruption engine needs, and its tuning. */
import type { ClusterConfig } from '../lifecycle/cluster-config.js';
import type { Catalog } from '../model/instance-type.js';
import type { Clock } from '../ports/clock.js';
import type { CloudProvider } from '../ports/cloud-provider.js';
import type { ClusterApi } from '../ports/cluster-api.js';
import type { TimerScheduler } from '../ports/event-publisher.js';
import type { Log } from '../ports/log.js';
import type { StateStore } from '../ports/state-store.js';
import type { ProvisionResult } from '../provisioning/types.js';
import type { ConsolidationMemory } from './consolidation/search-fingerprint.js';

/** Tuning of the disruption engine; every field has a default. */
export interface DisruptionSettings {
  /** Pause between two drain steps (re-check replacements, retry evictions a PDB refused). */
  readonly drainStepMs: number;
  /**
   * Pause between two steps of a drain whose replacements are launched and will wake it when they
   * are initialized (lifecycle/wake-drains.ts): only a safety re-check, for a wake-up lost.
   */
  readonly replacementRecheckMs: number;
  /** How long a drain waits for its replacement capacity to be initialized. */
  readonly replaceWithinMs: number;
  /** When a due disruption timer cannot act (budget, do-not-disrupt, PDB): retry after this. */
  readonly blockedRetryMs: number;
  /** Time a spot instance has between its interruption warning and its termination. */
  readonly spotDeadlineMs: number;
  /** How long before the spot deadline the drain stops waiting for its replacement (`replaceBy`). */
  readonly spotEvictionLeadMs: number;
  /**
   * How near its deadline (`forceAt`) a forceful drain must be to evict while its replacement is
   * still on its way instead of waiting for it. PDB-bounded evictions move a budget's pods one at
   * a time, each once the one before runs again elsewhere: when that needs a node still launching
   * (about 1.5 min on EKS) and the pods left are deleted at the deadline less their grace (30 s by
   * default), waiting for the replacement first leaves no time for the waves. So a spot
   * interruption (2 min) evicts from its first step, as Karpenter does; a forceful drain with a
   * longer terminationGracePeriod keeps replacement-first until this close to its deadline.
   */
  readonly forcefulEvictionWindowMs: number;
  /** How long the disruption lease (one decision round at a time) lasts at most. */
  readonly leaseTtlMs: number;
  /** How long a drain step waits for the provisioning lease before trying again at the next step. */
  readonly provisioningLeaseWaitMs: number;
  /**
   * Node repair (Karpenter's `NodeRepair` feature, on in EKS Auto Mode): replace nodes unhealthy
   * past their toleration (node-repair.ts).
   */
  readonly nodeRepair: boolean;
}

/**
 * Defaults: steps every 5 s (30 s while launched replacements will wake the drain), replacements
 * within 15 min, spot: 2 min (evicting at once, the
 * replacement awaited until 90 s at most), forceful drains evict without waiting 5 min before
 * their deadline.
 */
export const DEFAULT_DISRUPTION_SETTINGS: DisruptionSettings = {
  drainStepMs: 5_000,
  replacementRecheckMs: 30_000,
  replaceWithinMs: 15 * 60_000,
  blockedRetryMs: 60_000,
  spotDeadlineMs: 120_000,
  spotEvictionLeadMs: 30_000,
  forcefulEvictionWindowMs: 5 * 60_000,
  leaseTtlMs: 60_000,
  provisioningLeaseWaitMs: 2_000,
  nodeRepair: true,
};

/** The ports and configuration the disruption engine works with. */
export interface DisruptionDeps {
  readonly clock: Clock;
  readonly log: Log;
  readonly cluster: ClusterApi;
  readonly store: StateStore;
  readonly cloud: CloudProvider;
  readonly timers: TimerScheduler;
  /** The cluster's NodePools and NodeClasses (read once per invocation). */
  readonly config: () => Promise<ClusterConfig>;
  /** Instance types for the replacement capacity the drain launches. */
  readonly catalog: Catalog;
  /** The node role ARNs joiner may pass (see ProvisionDeps.nodeRoles); default: not checked. */
  readonly nodeRoles?: readonly string[];
  /** Clock of the provisioning and disruption leases (the runtime's; see ProvisionDeps.leaseClock). */
  readonly leaseClock?: Clock;
  /** Waits of the drains' provisioning runs (the runtime's; see ProvisionDeps.sleep). */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly disruptionSettings?: Partial<DisruptionSettings>;
  /** Wall milliseconds left in the invocation (the provisioning runs of drains respect it). */
  readonly remainingMs?: () => number;
  /**
   * Kept by the function instance across its invocations: lets consolidation skip a search of a
   * cluster unchanged since a search found nothing in it. Absent: every round searches.
   */
  readonly consolidationMemory?: ConsolidationMemory;
  /**
   * Set for the drain steps of one batch (see withSharedReplacementRun): their provisioning run is
   * made once and its result shared. Absent: each step that needs one makes its own.
   */
  readonly replacementRun?: (start: () => Promise<ProvisionResult>) => Promise<ProvisionResult>;
}

/** The settings of `deps` with defaults filled in. */
export function disruptionSettings(deps: Pick<DisruptionDeps, 'disruptionSettings'>): DisruptionSettings {
  return { ...DEFAULT_DISRUPTION_SETTINGS, ...deps.disruptionSettings };
}
