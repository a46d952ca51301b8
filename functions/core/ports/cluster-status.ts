import type { NodeClaimResource } from '../status/nodeclaim-resource.js';

/** A configuration object (NodePool, EC2NodeClass, ...) whose status joiner writes. */
export interface ConfigObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
}

/** A NodeClaim resource as read back: its name, labels and status (to skip unchanged writes). */
export interface MirroredNodeClaim {
  readonly name: string;
  readonly resource: unknown;
  /** It has a deletionTimestamp: someone deleted it (`kubectl delete nodeclaim`), its finalizer holds it. */
  readonly deleting?: boolean;
}

/**
 * What joiner writes into the cluster for people to read with kubectl: the NodeClaim mirror of
 * its DynamoDB nodeclaims, and the status of NodePools and NodeClasses. Every write is best
 * effort: DynamoDB stays the truth and the sweep repairs what a failed write left behind.
 */
export interface ClusterStatusWriter {
  /**
   * Creates or updates NodeClaim resources (labels, owner, spec and status). `fresh`: they are
   * most likely new (create first, one request), else most likely there (patch first).
   */
  applyNodeClaims(
    resources: readonly NodeClaimResource[],
    options?: { readonly fresh?: boolean },
  ): Promise<void>;
  /** Deletes NodeClaim resources, their finalizer removed first; missing ones are not an error. */
  deleteNodeClaims(names: readonly string[]): Promise<void>;
  /** The NodeClaim resources in the cluster. */
  listNodeClaims(): Promise<MirroredNodeClaim[]>;
  /** Replaces the status of a NodePool / NodeClass object (its `status` subresource). */
  patchConfigStatus(ref: ConfigObjectRef, status: Readonly<Record<string, unknown>>): Promise<void>;
}
