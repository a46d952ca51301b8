/** Reads what a provisioning run plans from: the API server's view of the cluster and its configuration. */
import { formatDiagnostic } from '../model/config/diagnostic.js';
import {
  DEFAULT_KARPENTER_KINDS,
  type KarpenterKinds,
  managedNodeClasses,
  selectManagedNodePools,
  type UnmanagedNodePool,
} from '../model/config/karpenter-kinds.js';
import { loadDocuments } from '../model/config/load.js';
import type { RawDocument } from '../model/config/raw-document.js';
import type {
  DaemonSet,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  StorageClass,
} from '../model/kube-objects.js';
import type { NodeClass } from '../model/node-class.js';
import type { NodeOverlay } from '../model/node-overlay.js';
import type { NodePool } from '../model/node-pool.js';
import type { ClusterApi, ConfigDocument } from '../ports/cluster-api.js';
import { type Log, silentLog } from '../ports/log.js';
import {
  type InvalidDocument,
  invalidDocuments,
  reportInvalidDocuments,
  truncated,
} from '../status/invalid-config.js';
import { isNodeOverlayDocument, listNodeOverlayDocuments } from './overlay-documents.js';

/** The cluster as the API server shows it at the start of a run. */
export interface ClusterSnapshot {
  readonly pendingPods: readonly Pod[];
  readonly nodes: readonly Node[];
  /** Pods bound to nodes. */
  readonly boundPods: readonly Pod[];
  readonly daemonSets: readonly DaemonSet[];
  readonly persistentVolumes: readonly PersistentVolume[];
  readonly persistentVolumeClaims: readonly PersistentVolumeClaim[];
  readonly storageClasses: readonly StorageClass[];
  readonly nodePools: readonly NodePool[];
  readonly nodeClasses: readonly NodeClass[];
  /** NodeOverlays (valid ones); none when absent. */
  readonly nodeOverlays?: readonly NodeOverlay[];
  /** Configuration documents left out because they are invalid. */
  readonly invalidDocuments: number;
  /** NodePool documents joiner does not act on (Karpenter's kinds when they are ignored). */
  readonly unmanagedNodePools: readonly UnmanagedNodePool[];
}

/** Where documents read from the API server say they come from. */
export const CLUSTER_SOURCE = 'cluster';

/**
 * Reads the valid NodeClasses (of NodeClass documents and of Provisioners with an inline provider)
 * and nothing else; invalid documents are left to the run's full read to report. Used to resolve
 * them in the cloud while the batch window is still open (see provision.ts).
 */
export async function readNodeClasses(
  cluster: ClusterApi,
  karpenterKinds: KarpenterKinds = DEFAULT_KARPENTER_KINDS,
): Promise<readonly NodeClass[]> {
  const [pools, classes] = await Promise.all([
    cluster.listNodePoolDocuments(),
    cluster.listNodeClassDocuments(),
  ]);
  return parseConfiguration([...pools, ...classes], silentLog, karpenterKinds).nodeClasses;
}

/**
 * Reads pending pods, nodes, bound pods, daemonsets, PVs/PVCs and the NodePool / NodeClass
 * documents in parallel. Invalid documents are logged with their diagnostics and skipped.
 * `onNodeClasses` is given the valid NodeClasses (of NodeClass documents and of Provisioners with
 * an inline provider) as soon as the configuration is read, before the rest. NodePools of
 * Karpenter's kinds are left out when `karpenterKinds` is `ignore` (see karpenter-kinds.ts).
 * Errors of the API server propagate (the run is retried as a whole).
 */
export async function readClusterSnapshot(
  cluster: ClusterApi,
  log: Log,
  onNodeClasses?: (nodeClasses: readonly NodeClass[]) => void,
  karpenterKinds: KarpenterKinds = DEFAULT_KARPENTER_KINDS,
  now: () => number = Date.now,
): Promise<ClusterSnapshot> {
  const pools = cluster.listNodePoolDocuments();
  const classes = cluster.listNodeClassDocuments();
  const overlays = listNodeOverlayDocuments(cluster);
  if (onNodeClasses)
    Promise.all([pools, classes]).then(
      ([p, c]) => onNodeClasses(parseConfiguration([...p, ...c], silentLog, karpenterKinds).nodeClasses),
      () => {},
    );
  const [
    { pending: pendingPods, bound: boundPods },
    nodes,
    daemonSets,
    pvs,
    pvcs,
    storageClasses,
    poolDocs,
    classDocs,
    overlayDocs,
  ] = await Promise.all([
    // One list for both: a pod evicted between two lists would be counted on its draining node
    // and its replacement pending too, and the run would launch capacity for both.
    cluster.listPendingAndBoundPods(),
    cluster.listNodes(),
    cluster.listDaemonSets(),
    cluster.listPersistentVolumes(),
    cluster.listPersistentVolumeClaims(),
    cluster.listStorageClasses(),
    pools,
    classes,
    overlays,
  ]);
  const { invalid, ...config } = parseConfiguration(
    [...poolDocs, ...classDocs, ...overlayDocs],
    log,
    karpenterKinds,
  );
  // Invalid objects are reported once per change (their status remembers it), not once per run.
  await reportInvalidDocuments(cluster, log, invalid, now());
  return {
    pendingPods,
    nodes,
    boundPods,
    daemonSets,
    persistentVolumes: pvs,
    persistentVolumeClaims: pvcs,
    storageClasses,
    ...config,
  };
}

/**
 * Converts cluster documents into NodePools and NodeClasses; bad ones are left out and returned
 * in `invalid` with their errors (see status/invalid-config.ts), warnings are logged. NodePools
 * joiner does not manage are not converted (their problems are not joiner's to report) and are
 * returned by name with the reason.
 */
export function parseConfiguration(
  documents: readonly ConfigDocument[],
  log: Log,
  karpenterKinds: KarpenterKinds = DEFAULT_KARPENTER_KINDS,
): {
  nodePools: NodePool[];
  nodeClasses: NodeClass[];
  nodeOverlays: NodeOverlay[];
  invalidDocuments: number;
  unmanagedNodePools: UnmanagedNodePool[];
  invalid: InvalidDocument[];
} {
  // NodeOverlays are not NodePools: they apply to every NodePool joiner manages.
  const overlays = documents.filter(isNodeOverlayDocument);
  const selected = selectManagedNodePools(
    documents.filter((d) => !isNodeOverlayDocument(d)),
    karpenterKinds,
  );
  const managed = [...selected.managed, ...overlays];
  const unmanaged = selected.unmanaged;
  const raw: RawDocument[] = managed.map((object, index) => ({
    file: CLUSTER_SOURCE,
    index,
    object,
  }));
  const loaded = loadDocuments(raw);
  for (const d of loaded.diagnostics) {
    if (d.severity === 'error') continue;
    const fields = { document: d.document, path: d.path, ...(d.hint ? { hint: d.hint } : {}) };
    log.warn(`configuration warning: ${truncated(formatDiagnostic(d), 500)}`, fields);
  }
  return {
    nodePools: loaded.nodePools,
    nodeClasses: managedNodeClasses(loaded.nodeClasses, loaded.nodePools, karpenterKinds),
    nodeOverlays: loaded.nodeOverlays,
    invalidDocuments: loaded.documents.filter((d) => !d.ok).length,
    unmanagedNodePools: unmanaged,
    invalid: invalidDocuments(managed, loaded.documents, loaded.diagnostics),
  };
}
