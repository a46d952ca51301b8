import type { NodePatch } from '../../core/ports/cluster-api.js';

/** The JSON merge patch (RFC 7386) of a node patch's labels, annotations and unschedulable flag. */
export function metadataMergePatch(patch: NodePatch): Record<string, unknown> | undefined {
  const metadata: Record<string, unknown> = {};
  if (patch.labels && Object.keys(patch.labels).length > 0) metadata.labels = { ...patch.labels };
  if (patch.annotations && Object.keys(patch.annotations).length > 0)
    metadata.annotations = { ...patch.annotations };
  if (patch.finalizers) metadata.finalizers = patch.finalizers.length > 0 ? [...patch.finalizers] : null;
  const body: Record<string, unknown> = {};
  if (Object.keys(metadata).length > 0) body.metadata = metadata;
  if (patch.unschedulable !== undefined) body.spec = { unschedulable: patch.unschedulable };
  return Object.keys(body).length > 0 ? body : undefined;
}

/**
 * The merge patch that replaces a node's taints, guarded by the node's resourceVersion: if the
 * node changed since it was read (another controller added a taint), the API server answers 409
 * and the caller re-reads and retries, so no one's taint is lost.
 */
export function taintsMergePatch(patch: NodePatch, resourceVersion: string): Record<string, unknown> {
  return {
    metadata: { resourceVersion },
    spec: { taints: patch.taints && patch.taints.length > 0 ? patch.taints : null },
  };
}
