import type { CapacityType } from '../model/instance-type.js';
import type { NodeClaim, NodeClaimState } from '../nodeclaim/nodeclaim.js';

/** An offering: instance type x zone x capacity type. */
export interface OfferingKey {
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
}

/** An offering marked unavailable (e.g. InsufficientInstanceCapacity) until `expiresAt`. */
export interface UnavailableOffering extends OfferingKey {
  readonly reason: string;
  readonly expiresAt: number;
}

/** How long an offering stays unavailable after a capacity error (Karpenter: 3 minutes). */
export const UNAVAILABLE_OFFERING_TTL_MS = 3 * 60_000;

/** A held lease. `token` increases with every acquisition (a fencing token). */
export interface Lease {
  readonly name: string;
  readonly holder: string;
  readonly expiresAt: number;
  readonly token: number;
  /** Requests for another run counted on the lease item when it was taken (see {@link StateStore.requestLeaseRun}). */
  readonly requests?: number;
}

/**
 * What {@link StateStore.releaseLeaseUnlessRequested} did: released, or not because requests came
 * (the lease is still held; `requests` is the count now).
 */
export type ConditionalRelease =
  | { readonly released: true }
  | { readonly released: false; readonly requests: number };

/** Thrown when an optimistic-concurrency write loses (the item changed since it was read). */
export class ConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}

/**
 * joiner's durable state (DynamoDB in production, dynalite in the simulated cloud). Every write
 * is a single-item conditional write, so concurrent invocations cannot corrupt one another.
 */
export interface StateStore {
  /** Writes a new claim (its version becomes 1). Returns false when a claim with that id exists. */
  createNodeClaim(claim: NodeClaim): Promise<boolean>;
  getNodeClaim(id: string): Promise<NodeClaim | undefined>;
  /**
   * Writes `claim` if the stored version still equals `claim.version` and, when `claim` carries a
   * lease token, the stored claim's token is not newer (a fenced write: a provisioning run that
   * lost its lease cannot overwrite what the next holder wrote); returns the stored claim
   * (version + 1). Throws {@link ConflictError} otherwise.
   */
  updateNodeClaim(claim: NodeClaim): Promise<NodeClaim>;
  /** All claims, optionally only those in `states`. */
  listNodeClaims(states?: readonly NodeClaimState[]): Promise<NodeClaim[]>;
  /** The claim whose launched instance is `instanceId` (GSI). */
  findNodeClaimByInstanceId(instanceId: string): Promise<NodeClaim | undefined>;
  /** Claims with a timer due at or before `now`, earliest first (sparse GSI over timer shards). */
  listDueNodeClaims(now: number, limit?: number): Promise<NodeClaim[]>;

  /** Marks offerings unavailable until `now + ttlMs` (default 3 min), visible to every invocation. */
  markOfferingsUnavailable(
    offerings: readonly OfferingKey[],
    reason: string,
    now: number,
    ttlMs?: number,
  ): Promise<void>;
  /** The offerings still unavailable at `now`. */
  listUnavailableOfferings(now: number): Promise<UnavailableOffering[]>;

  /**
   * Takes the lease `name` for `holder` until `now + ttlMs` if it is free, expired or already
   * held by `holder`. Returns undefined when someone else holds it.
   */
  acquireLease(name: string, holder: string, now: number, ttlMs: number): Promise<Lease | undefined>;
  /**
   * Extends `lease` to `now + ttlMs` if it is still the one held (same holder and token, even if it
   * has run out meanwhile). Returns undefined when it was released or someone else took it since.
   */
  renewLease(lease: Lease, now: number, ttlMs: number): Promise<Lease | undefined>;
  /** Releases a lease if it is still the one held (same token); otherwise does nothing. */
  releaseLease(lease: Lease): Promise<void>;
  /**
   * Asks the holder of the lease `name` to run once more: adds one to the lease's `requests` if
   * the lease is held and unexpired at `now`. Returns true when the request was counted (the holder
   * sees it when it releases), false when the lease is free (the caller takes it itself).
   */
  requestLeaseRun(name: string, now: number): Promise<boolean>;
  /**
   * Releases `lease` unless its `requests` count is no longer `seen` (another run asked for a run
   * since the holder last looked): then the lease stays held and the new count is returned. A lease
   * no longer held (released, or taken by another run) counts as released.
   */
  releaseLeaseUnlessRequested(lease: Lease, seen: number): Promise<ConditionalRelease>;

  /**
   * Records that `key` was processed. Returns true the first time (until `now + ttlMs`), false
   * for a duplicate.
   */
  recordOnce(key: string, now: number, ttlMs: number): Promise<boolean>;
}
