import {
  DEFAULT_KARPENTER_KINDS,
  type KarpenterKinds,
  managedNodeClasses,
  selectManagedNodePools,
} from '../model/config/karpenter-kinds.js';
import { loadDocuments } from '../model/config/load.js';
import type { NodeClass } from '../model/node-class.js';
import type { NodeOverlay } from '../model/node-overlay.js';
import type { NodePool } from '../model/node-pool.js';
import type { ClusterApi } from '../ports/cluster-api.js';
import { listNodeOverlayDocuments } from '../provisioning/overlay-documents.js';

/** The NodePools and NodeClasses of the cluster, converted into joiner's model. */
export interface ClusterConfig {
  readonly nodePools: readonly NodePool[];
  readonly nodeClasses: readonly NodeClass[];
  /** NodeOverlays (valid ones); none when absent. */
  readonly nodeOverlays?: readonly NodeOverlay[];
  /**
   * Names of every NodePool / Provisioner document in the cluster, valid or not: a pool missing
   * from `nodePools` but named here is invalid, not deleted, and its nodes stay.
   */
  readonly nodePoolNames: ReadonlySet<string>;
  /**
   * Names of every NodeClass in the cluster, valid or not (Provisioners' own included): what
   * joiner made for a NodeClass (its instance profile) stays while its name is here.
   */
  readonly nodeClassNames?: ReadonlySet<string>;
}

/**
 * Reads the NodePool and NodeClass custom resources from the API server and converts them. Bad
 * documents are left out (the provisioner reports their diagnostics); the good ones are returned.
 * NodePools joiner does not manage (`karpenterKinds: ignore`) are not in `nodePools` but are
 * named in `nodePoolNames`: joiner's own nodes of such a pool stay, nothing is launched for it.
 */
export async function readClusterConfig(
  cluster: Pick<ClusterApi, 'listNodePoolDocuments' | 'listNodeClassDocuments' | 'listNodeOverlayDocuments'>,
  karpenterKinds: KarpenterKinds = DEFAULT_KARPENTER_KINDS,
): Promise<ClusterConfig> {
  const [pools, classes, overlays] = await Promise.all([
    cluster.listNodePoolDocuments(),
    cluster.listNodeClassDocuments(),
    listNodeOverlayDocuments(cluster),
  ]);
  const { managed } = selectManagedNodePools(pools, karpenterKinds);
  const documents = [...managed, ...classes, ...overlays].map((object, index) => ({
    file: 'cluster',
    index,
    object,
  }));
  const loaded = loadDocuments(documents);
  return {
    nodePools: loaded.nodePools,
    nodeClasses: managedNodeClasses(loaded.nodeClasses, loaded.nodePools, karpenterKinds),
    nodeOverlays: loaded.nodeOverlays,
    nodePoolNames: new Set(pools.map((d) => d.metadata.name)),
    nodeClassNames: new Set([
      ...classes.map((d) => d.metadata.name),
      ...loaded.nodeClasses.map((c) => c.name),
    ]),
  };
}
