/**
 * The subset of Kubernetes object shapes (as JSON on the wire / in YAML) that joiner's core reads.
 * They are plain data, so the core needs no Kubernetes client: the adapters, the simulator and the
 * file loader all hand the core objects of these shapes.
 */
import type { Taint, Toleration } from './taint.js';

export type { Taint, Toleration };

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generateName?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: { apiVersion: string; kind: string; name: string; uid?: string; controller?: boolean }[];
  finalizers?: string[];
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface NodeSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  namespaces?: string[];
  namespaceSelector?: LabelSelector;
  topologyKey: string;
}

export interface Affinity {
  nodeAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms: NodeSelectorTerm[] };
    preferredDuringSchedulingIgnoredDuringExecution?: { weight: number; preference: NodeSelectorTerm }[];
  };
  podAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
    preferredDuringSchedulingIgnoredDuringExecution?: { weight: number; podAffinityTerm: PodAffinityTerm }[];
  };
  podAntiAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
    preferredDuringSchedulingIgnoredDuringExecution?: { weight: number; podAffinityTerm: PodAffinityTerm }[];
  };
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  labelSelector?: LabelSelector;
  minDomains?: number;
  matchLabelKeys?: string[];
  nodeAffinityPolicy?: 'Honor' | 'Ignore';
  nodeTaintsPolicy?: 'Honor' | 'Ignore';
}

export interface ResourceRequirements {
  requests?: Record<string, string | number>;
  limits?: Record<string, string | number>;
}

/** A port of a container; `hostPort` reserves the port on the node. */
export interface ContainerPort {
  containerPort: number;
  hostPort?: number;
  /** Defaults to `0.0.0.0` (every address of the node). */
  hostIP?: string;
  /** Defaults to `TCP`. */
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  name?: string;
}

export interface Container {
  name: string;
  image?: string;
  resources?: ResourceRequirements;
  ports?: ContainerPort[];
  restartPolicy?: string;
  [key: string]: unknown;
}

export interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  ephemeral?: { volumeClaimTemplate?: { spec: PersistentVolumeClaimSpec } };
  [key: string]: unknown;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  overhead?: Record<string, string>;
  /** The RuntimeClass whose overhead and scheduling the API server adds to the pod at creation. */
  runtimeClassName?: string;
  /** Pod-level resources (KEP-2837): replace the containers' sum for cpu, memory and hugepages. */
  resources?: ResourceRequirements;
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  tolerations?: Toleration[];
  topologySpreadConstraints?: TopologySpreadConstraint[];
  volumes?: Volume[];
  priority?: number;
  priorityClassName?: string;
  schedulerName?: string;
  [key: string]: unknown;
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface Pod {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: PodSpec;
  status?: { phase?: string; conditions?: Condition[]; [key: string]: unknown };
}

export interface PodTemplate {
  metadata?: Partial<ObjectMeta>;
  spec: PodSpec;
}

export interface Node {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: { providerID?: string; taints?: Taint[]; unschedulable?: boolean; [key: string]: unknown };
  status?: {
    capacity?: Record<string, string>;
    allocatable?: Record<string, string>;
    conditions?: Condition[];
    [key: string]: unknown;
  };
}

export interface DaemonSet {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: { selector?: LabelSelector; template: PodTemplate; [key: string]: unknown };
}

export interface PersistentVolumeClaimSpec {
  accessModes?: string[];
  storageClassName?: string | null;
  volumeName?: string;
  resources?: ResourceRequirements;
  [key: string]: unknown;
}

export interface PersistentVolumeClaim {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: PersistentVolumeClaimSpec;
  status?: { phase?: string; [key: string]: unknown };
}

export interface PersistentVolume {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: {
    claimRef?: { namespace?: string; name?: string };
    nodeAffinity?: { required?: { nodeSelectorTerms: NodeSelectorTerm[] } };
    storageClassName?: string;
    [key: string]: unknown;
  };
}

/** A term of a StorageClass's `allowedTopologies`: label expressions (operator `In`), AND-ed. */
export interface TopologySelectorTerm {
  matchLabelExpressions?: { key: string; values: string[] }[];
}

export interface StorageClass {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  provisioner: string;
  /** `Immediate` (the default) or `WaitForFirstConsumer`. */
  volumeBindingMode?: 'Immediate' | 'WaitForFirstConsumer';
  /** Where volumes may be provisioned; the terms are OR-ed. */
  allowedTopologies?: TopologySelectorTerm[];
  parameters?: Record<string, string>;
}

/** A RuntimeClass (node.k8s.io/v1): the pod overhead and scheduling constraints of a runtime. */
export interface RuntimeClass {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  handler: string;
  overhead?: { podFixed?: Record<string, string> };
  scheduling?: { nodeSelector?: Record<string, string>; tolerations?: Toleration[] };
}

export interface PodDisruptionBudget {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: { minAvailable?: number | string; maxUnavailable?: number | string; selector?: LabelSelector };
  status?: {
    disruptionsAllowed?: number;
    currentHealthy?: number;
    desiredHealthy?: number;
    expectedPods?: number;
  };
}
