import type {
  DaemonSet,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodDisruptionBudget,
  RuntimeClass,
  StorageClass,
} from '../kube-objects.js';

/** The Kubernetes objects read from workload documents, controllers expanded into pods. */
export interface Workloads {
  pods: Pod[];
  nodes: Node[];
  daemonSets: DaemonSet[];
  persistentVolumes: PersistentVolume[];
  persistentVolumeClaims: PersistentVolumeClaim[];
  podDisruptionBudgets: PodDisruptionBudget[];
  storageClasses: StorageClass[];
  runtimeClasses: RuntimeClass[];
}

/** Workloads with nothing in them. */
export function emptyWorkloads(): Workloads {
  return {
    pods: [],
    nodes: [],
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    podDisruptionBudgets: [],
    storageClasses: [],
    runtimeClasses: [],
  };
}
