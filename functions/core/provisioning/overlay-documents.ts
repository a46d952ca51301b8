/** NodeOverlay documents as read from the API server (see model/node-overlay.ts). */
import type { ClusterApi, ConfigDocument } from '../ports/cluster-api.js';

/** The apiVersion of Karpenter's NodeOverlay. */
export const NODE_OVERLAY_API_VERSION = 'karpenter.sh/v1alpha1';

/** Whether `doc` is a NodeOverlay (of any version of Karpenter's group). */
export function isNodeOverlayDocument(doc: ConfigDocument): boolean {
  return (
    doc.kind === 'NodeOverlay' &&
    typeof doc.apiVersion === 'string' &&
    doc.apiVersion.startsWith('karpenter.sh/')
  );
}

/** The cluster's NodeOverlay documents; none when the port cannot list them. */
export async function listNodeOverlayDocuments(
  cluster: Pick<ClusterApi, 'listNodeOverlayDocuments'>,
): Promise<ConfigDocument[]> {
  return cluster.listNodeOverlayDocuments ? cluster.listNodeOverlayDocuments() : [];
}
