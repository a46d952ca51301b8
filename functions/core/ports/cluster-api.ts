import type {
  DaemonSet,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodDisruptionBudget,
  StorageClass,
  Taint,
} from '../model/kube-objects.js';
import type { ClusterStatusWriter } from './cluster-status.js';

/** A Kubernetes Event to create (core/v1 Event, `involvedObject` = the object it is about). */
export interface ClusterEvent {
  readonly involvedObject: {
    readonly kind: string;
    readonly name: string;
    readonly namespace?: string;
    readonly uid?: string;
    readonly apiVersion?: string;
  };
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

/** A raw configuration document (NodePool, NodeClass, EC2NodeClass, Provisioner...) read from the cluster. */
export interface ConfigDocument {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly [key: string]: unknown };
  readonly [key: string]: unknown;
}

/** The outcome of an eviction request. */
export type EvictionResult = 'evicted' | 'blocked-by-pdb' | 'not-found';

/** Label / taint changes to a node; omitted fields stay as they are. */
export interface NodePatch {
  /** Labels to set; a `null` value removes the label. */
  readonly labels?: Readonly<Record<string, string | null>>;
  /** Annotations to set; a `null` value removes the annotation. */
  readonly annotations?: Readonly<Record<string, string | null>>;
  /** The complete new taint list. */
  readonly taints?: readonly Taint[];
  readonly unschedulable?: boolean;
  /** The complete new finalizer list. */
  readonly finalizers?: readonly string[];
}

/** The pods a provisioning run plans with, read together (see ClusterApi.listPendingAndBoundPods). */
export interface PendingAndBoundPods {
  readonly pending: Pod[];
  readonly bound: Pod[];
}

/**
 * What joiner needs from the Kubernetes API server. The adapter (functions/adapters/kube) speaks
 * to EKS or to the simulated API server; the core never sees a Kubernetes client.
 */
export interface ClusterApi extends ClusterStatusWriter {
  /** Pods that are not bound and whose PodScheduled condition is False/Unschedulable. */
  listPendingPods(): Promise<Pod[]>;
  /** Pods bound to a node (all nodes when `nodeName` is omitted). */
  listPodsOnNode(nodeName?: string): Promise<Pod[]>;
  /**
   * The pending pods (as {@link listPendingPods}) and the bound pods (as {@link listPodsOnNode}
   * of all nodes) from one list of the pods, so one state of the cluster: read by two lists, a pod
   * evicted between them can be counted on its node and its replacement pending too.
   */
  listPendingAndBoundPods(): Promise<PendingAndBoundPods>;
  getPod(namespace: string, name: string): Promise<Pod | undefined>;
  listNodes(): Promise<Node[]>;
  getNode(name: string): Promise<Node | undefined>;
  listDaemonSets(): Promise<DaemonSet[]>;
  listPersistentVolumes(): Promise<PersistentVolume[]>;
  listPersistentVolumeClaims(): Promise<PersistentVolumeClaim[]>;
  /** StorageClasses: where claims that wait for their first consumer can be provisioned. */
  listStorageClasses(): Promise<StorageClass[]>;
  listPodDisruptionBudgets(): Promise<PodDisruptionBudget[]>;
  /** NodePool-like documents (joiner.sh NodePool, karpenter.sh NodePool / Provisioner). */
  listNodePoolDocuments(): Promise<ConfigDocument[]>;
  /** NodeClass-like documents (joiner.sh NodeClass, karpenter.k8s.aws EC2NodeClass). */
  listNodeClassDocuments(): Promise<ConfigDocument[]>;
  /**
   * NodeOverlay documents (`karpenter.sh/v1alpha1`); an API server without the kind has none.
   * Optional: a port without it has no overlays.
   */
  listNodeOverlayDocuments?(): Promise<ConfigDocument[]>;
  /**
   * NodeClaims of Karpenter's kind (`karpenter.sh` v1, else v1beta1); an API server without the
   * kind has none. Optional: a port without it reads none (see hand-made-nodeclaims.ts).
   */
  listKarpenterNodeClaimDocuments?(): Promise<ConfigDocument[]>;
  /** Patches labels/annotations (merge patch) and taints/unschedulable; returns the new node. */
  patchNode(name: string, patch: NodePatch): Promise<Node>;
  /**
   * Deletes the Node `name` (absent: nothing to do). With `instanceId`, only while that Node is the
   * instance's (its providerID): node names are private DNS names, which EC2 reuses, so a Node of
   * the same name that another instance registered since is left alone (delete preconditions on
   * its uid close the race between the check and the delete).
   */
  deleteNode(name: string, instanceId?: string): Promise<void>;
  /** Creates Events; failures are logged by the adapter, never thrown (events are best effort). */
  createEvents(events: readonly ClusterEvent[]): Promise<void>;
  /** Evicts a pod through the Eviction API (respecting PDBs: a 429 is `blocked-by-pdb`). */
  evictPod(namespace: string, name: string): Promise<EvictionResult>;
  /**
   * Deletes a pod directly (no PodDisruptionBudget check), with the grace period given or the
   * pod's own `terminationGracePeriodSeconds`; `not-found` when the pod is already gone.
   */
  deletePod(namespace: string, name: string, gracePeriodSeconds?: number): Promise<'deleted' | 'not-found'>;
}
