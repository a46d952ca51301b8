import type { DurationMs } from './duration.js';
import type { KubeletConfiguration } from './node-class.js';
import type { Requirement } from './requirement.js';
import type { Resources } from './resources.js';
import type { Taint } from './taint.js';

/** Where a configuration document came from, for error messages and `joiner validate`. */
export interface DocumentSource {
  /** File path, or `cluster` for custom resources read from the API server. */
  readonly file: string;
  /** 0-based index of the document in its file. */
  readonly index: number;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
}

/** Reasons a disruption budget can be limited to (Karpenter v1). */
export type DisruptionReason = 'Underutilized' | 'Empty' | 'Drifted';

/** A disruption budget (Karpenter v1 `spec.disruption.budgets[]`). */
export interface DisruptionBudget {
  /** Either an absolute count (`{ count: 3 }`) or a percentage of the pool's nodes (`{ percent: 10 }`). */
  readonly nodes: { readonly count: number } | { readonly percent: number };
  /** Cron schedule (5 fields or a macro such as `@daily`) at which the budget becomes active. */
  readonly schedule?: string;
  /** How long the budget stays active after each schedule hit; required with `schedule`. */
  readonly durationMs?: number;
  /** Reasons the budget applies to; all reasons when absent. */
  readonly reasons?: readonly DisruptionReason[];
}

/** The disruption settings of a NodePool. */
export interface Disruption {
  readonly consolidationPolicy: 'WhenEmpty' | 'WhenEmptyOrUnderutilized';
  /** `null` = `Never`. Default 0 (v1). */
  readonly consolidateAfterMs: DurationMs;
  readonly budgets: readonly DisruptionBudget[];
}

/** The reference from a NodePool to its NodeClass. */
export interface NodeClassRef {
  readonly group: string;
  readonly kind: string;
  readonly name: string;
}

/**
 * joiner's internal NodePool: every supported input version (karpenter.sh v1, v1beta1, v1alpha5
 * Provisioner, joiner.sh v1) converts into this one shape, defaults applied.
 */
export interface NodePool {
  readonly name: string;
  readonly source: DocumentSource;
  /** Heavier pools are tried first. Default 0. */
  readonly weight: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  /** Taints present at startup and removed later; ignored for placement. */
  readonly startupTaints: readonly Taint[];
  readonly requirements: readonly Requirement[];
  readonly nodeClassRef: NodeClassRef;
  /** `null` = `Never`. Default 720h. */
  readonly expireAfterMs: DurationMs;
  /** `undefined` = wait forever for pods to drain. */
  readonly terminationGracePeriodMs?: number;
  /** Upper bounds over all nodes of the pool (cpu millicores, memory bytes, `nodes` count, ...). */
  readonly limits: Readonly<Partial<Resources>>;
  readonly disruption: Disruption;
  /** Kubelet settings carried on the NodePool by v1beta1 / v1alpha5 (v1 moved them to the NodeClass). */
  readonly kubelet?: KubeletConfiguration;
  /**
   * Karpenter v1.8 static capacity: the pool keeps exactly this many nodes whatever the pods
   * (`kubectl scale nodepool` sets it). Absent for a dynamic pool.
   */
  readonly replicas?: number;
}

/** Whether a pool is static (Karpenter v1.8 `replicas`): it keeps N nodes and is never consolidated. */
export function isStatic(pool: Pick<NodePool, 'replicas'>): boolean {
  return pool.replicas !== undefined;
}

/**
 * Karpenter's label naming the NodeClass a node was launched from, `<group>/<kind in lower case>`
 * (`karpenter.k8s.aws/ec2nodeclass: default`, `joiner.sh/nodeclass: multus`): Karpenter adds it
 * to every NodePool's template labels, so every node carries it and a pod may select it. A
 * v1alpha5 Provisioner's nodes never had it (Karpenter v0.32 did not set it): none for those.
 */
export function nodeClassLabel(pool: Pick<NodePool, 'nodeClassRef' | 'source'>): Record<string, string> {
  if (pool.source.apiVersion.endsWith('/v1alpha5')) return {};
  const { group, kind, name } = pool.nodeClassRef;
  return { [`${group}/${kind.toLowerCase()}`]: name };
}
