/**
 * What a nodeclaim records about its disruption: why it is leaving, how far the drain got, and
 * the deadlines that bound it. It lives on the claim item, so a drain that a crash interrupted
 * resumes from it at the next step.
 */

/** Why a node leaves, in Karpenter's words (`disrupting node(s) via delete ... reason`). */
export type DisruptionCause =
  | 'empty'
  | 'expired'
  | 'drifted'
  | 'deleted nodepool'
  | 'interrupted'
  | 'underutilized'
  | 'unhealthy'
  /** The user deleted the NodeClaim or the Node (`kubectl delete`): Karpenter's termination flow. */
  | 'deleted'
  /** A static NodePool scaled down below its nodes (Karpenter v1.8 `replicas`): forceful like a deletion. */
  | 'overprovisioned'
  /** An instance of this table whose claim was retired while its node still ran pods (sweep/orphans.ts). */
  | 'orphaned';

/** The drain's phases: replacement capacity first, then evictions. */
export type DrainPhase = 'replacing' | 'evicting';

/** A disruption in progress (state `Draining`). */
export interface DisruptionRecord {
  readonly cause: DisruptionCause;
  /** Human detail, e.g. the drift found or the interruption notice. */
  readonly message: string;
  /** The failure reason the retired claim records (default: the cause's, e.g. `Drifted`). */
  readonly reason?: string;
  /**
   * Forceful disruptions (expiration, NodePool deletion, interruption) are not budgeted and do not
   * give up: past `replaceBy` they evict without replacement. Voluntary ones (emptiness, drift) are
   * cancelled when their replacement does not come.
   */
  readonly forceful: boolean;
  readonly startedAt: number;
  readonly phase: DrainPhase;
  /** The replacement capacity must be initialized by then. */
  readonly replaceBy: number;
  /**
   * Once passed, the pods left are deleted and the instance terminated, PDBs and do-not-disrupt
   * notwithstanding (NodePool `terminationGracePeriod`, the spot interruption deadline).
   */
  readonly forceAt?: number;
  /** When the first eviction wave was sent. */
  readonly evictingSince?: number;
  /**
   * The nodeclaims still on their way that the drain's pods were last found waiting for: a step
   * reads these few instead of every nodeclaim of the cluster (see disruption/replacements.ts).
   */
  readonly replacements?: readonly string[];
}

/** Why a due disruption timer was re-armed instead of acted on (shown in logs and events). */
export interface DisruptionBlock {
  readonly reason: string;
  readonly at: number;
}

/**
 * A consolidation found in one round and acted on in a later one, after a short wait, only if it
 * still holds then (Karpenter re-validates after 15 s before tainting anything).
 */
export interface ConsolidationProposal {
  /** The claims removed together. */
  readonly claims: readonly string[];
  /** `delete` (their pods fit elsewhere) or `replace` (plus one cheaper node). */
  readonly method: 'delete' | 'replace';
  readonly proposedAt: number;
  /** Human detail for logs and events. */
  readonly message: string;
  /**
   * Hourly price of the new nodes the move planned (0 for a delete); acting on it, the drain must
   * launch no dearer ones. Absent on proposals written before it was recorded.
   */
  readonly newNodesPrice?: number;
}
