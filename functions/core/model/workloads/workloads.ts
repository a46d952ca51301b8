import type {
  DaemonSet,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodDisruptionBudget,
} from '../kube-objects.js';

/** The Kubernetes objects read from workload documents, controllers expanded into pods. */
export interface Workloads {
  pods: Pod[];
  nodes: Node[];
  daemonSets: DaemonSet[];
  persistentVolumes: PersistentVolume[];
  persistentVolumeClaims: PersistentVolumeClaim[];
  podDisruptionBudgets: PodDisruptionBudget[];
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
  };
}
