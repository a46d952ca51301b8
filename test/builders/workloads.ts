/**
 * Builders of plain Kubernetes objects (the shapes of functions/core/model/kube-objects.ts) for tests:
 * `pod({...})`, `node({...})`, `daemonSet({...})`. Every option has a sensible default.
 */
import type {
  Affinity,
  DaemonSet,
  Node,
  Pod,
  TopologySpreadConstraint,
  Volume,
} from '../../functions/core/model/kube-objects.js';
import type { Taint, Toleration } from '../../functions/core/model/taint.js';

/** Options of `pod()`. */
export interface PodOptions {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  /** Requests of the single container, e.g. `{ cpu: '1', memory: '1Gi' }`. */
  requests?: Record<string, string | number>;
  limits?: Record<string, string | number>;
  initRequests?: Record<string, string | number>;
  overhead?: Record<string, string>;
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  tolerations?: Toleration[];
  topologySpreadConstraints?: TopologySpreadConstraint[];
  volumes?: Volume[];
  nodeName?: string;
  /** Adds the PodScheduled=False/Unschedulable condition (default true when no nodeName). */
  unschedulable?: boolean;
  ownerKind?: string;
}

let podCounter = 0;

/** A pod with one container. */
export function pod(o: PodOptions = {}): Pod {
  const name = o.name ?? `pod-${++podCounter}`;
  const unschedulable = o.unschedulable ?? o.nodeName === undefined;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      uid: `uid-${name}`,
      labels: o.labels ?? {},
      ...(o.ownerKind
        ? {
            ownerReferences: [
              { apiVersion: 'apps/v1', kind: o.ownerKind, name: `${name}-owner`, controller: true },
            ],
          }
        : {}),
    },
    spec: {
      containers: [
        {
          name: 'main',
          image: 'registry.example/app:1',
          resources: { requests: o.requests ?? {}, ...(o.limits ? { limits: o.limits } : {}) },
        },
      ],
      ...(o.initRequests
        ? { initContainers: [{ name: 'init', resources: { requests: o.initRequests } }] }
        : {}),
      ...(o.overhead ? { overhead: o.overhead } : {}),
      ...(o.nodeSelector ? { nodeSelector: o.nodeSelector } : {}),
      ...(o.affinity ? { affinity: o.affinity } : {}),
      ...(o.tolerations ? { tolerations: o.tolerations } : {}),
      ...(o.topologySpreadConstraints ? { topologySpreadConstraints: o.topologySpreadConstraints } : {}),
      ...(o.volumes ? { volumes: o.volumes } : {}),
      ...(o.nodeName ? { nodeName: o.nodeName } : {}),
    },
    status: unschedulable
      ? { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] }
      : { phase: o.nodeName ? 'Running' : 'Pending' },
  };
}

/** `count` pods named `<prefix>-<i>` (i from 1) with the same options. */
export function pods(count: number, prefix: string, o: PodOptions = {}): Pod[] {
  return Array.from({ length: count }, (_, i) => pod({ ...o, name: `${prefix}-${i + 1}` }));
}

/** Options of `node()`. */
export interface NodeOptions {
  name?: string;
  labels?: Record<string, string>;
  taints?: Taint[];
  /** Allocatable (and capacity), e.g. `{ cpu: '4', memory: '16Gi', pods: '110' }`. */
  allocatable?: Record<string, string>;
  capacity?: Record<string, string>;
  unschedulable?: boolean;
  ready?: boolean;
  zone?: string;
  instanceType?: string;
  nodePool?: string;
}

let nodeCounter = 0;

/** A Ready node with the usual well-known labels. */
export function node(o: NodeOptions = {}): Node {
  const name = o.name ?? `node-${++nodeCounter}`;
  const allocatable = o.allocatable ?? { cpu: '4', memory: '16Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'topology.kubernetes.io/zone': o.zone ?? 'us-west-2a',
        'node.kubernetes.io/instance-type': o.instanceType ?? 'm5.xlarge',
        ...(o.nodePool ? { 'karpenter.sh/nodepool': o.nodePool } : {}),
        ...o.labels,
      },
    },
    spec: { taints: o.taints ?? [], ...(o.unschedulable ? { unschedulable: true } : {}) },
    status: {
      capacity: o.capacity ?? allocatable,
      allocatable,
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
    },
  };
}

/** Options of `daemonSet()`. */
export interface DaemonSetOptions {
  name?: string;
  namespace?: string;
  requests?: Record<string, string | number>;
  tolerations?: Toleration[];
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  labels?: Record<string, string>;
}

/** A DaemonSet whose pod template has one container. */
export function daemonSet(o: DaemonSetOptions = {}): DaemonSet {
  const name = o.name ?? 'ds';
  const labels = o.labels ?? { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: o.namespace ?? 'kube-system' },
    spec: {
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [{ name: 'main', resources: { requests: o.requests ?? {} } }],
          ...(o.tolerations ? { tolerations: o.tolerations } : {}),
          ...(o.nodeSelector ? { nodeSelector: o.nodeSelector } : {}),
          ...(o.affinity ? { affinity: o.affinity } : {}),
        },
      },
    },
  };
}
