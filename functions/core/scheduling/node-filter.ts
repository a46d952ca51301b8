/**
 * Which nodes a topology spread constraint counts (PodTopologySpread's node inclusion policies):
 * with `nodeAffinityPolicy: Honor` (the default) only nodes that match the pod's nodeSelector and
 * required node affinity, with `nodeTaintsPolicy: Honor` (the default is `Ignore`) only nodes whose
 * NoSchedule / NoExecute taints the pod tolerates. Pods on other nodes are not counted, and their
 * domains are not candidates for the minimum.
 */
import type { Pod, TopologySpreadConstraint } from '../model/kube-objects.js';
import type { Toleration } from '../model/taint.js';
import { requiredNodeAlternatives } from './node-affinity.js';
import type { Requirements } from './requirements.js';

/** The nodes a spread constraint counts; absent parts admit every node. */
export interface NodeFilter {
  /** Stable text of the filter (part of its group's key). */
  readonly key: string;
  /** The pod's node constraints (OR of alternatives) a counted node must match. */
  readonly affinity?: readonly Requirements[];
  /** The pod's tolerations a counted node's taints must be tolerated by. */
  readonly tolerations?: readonly Toleration[];
}

/**
 * The node filter of one of a pod's spread constraints, or undefined when every node counts
 * (policy `Ignore`, or `Honor` with nothing to honour).
 */
export function spreadNodeFilter(pod: Pod, c: TopologySpreadConstraint): NodeFilter | undefined {
  const affinityPolicy = c.nodeAffinityPolicy ?? 'Honor';
  const taintsPolicy = c.nodeTaintsPolicy ?? 'Ignore';
  let affinity: Requirements[] | undefined;
  if (affinityPolicy === 'Honor') {
    const alts = requiredNodeAlternatives(pod);
    if (alts.some((a) => a.size > 0)) affinity = alts;
  }
  const tolerations = taintsPolicy === 'Honor' ? (pod.spec.tolerations ?? []) : undefined;
  if (!affinity && !tolerations) return undefined;
  const key = `${affinity ? affinity.map((a) => a.key()).join('|') : '*'}#${tolerations ? JSON.stringify(tolerations) : '*'}`;
  return { key, ...(affinity ? { affinity } : {}), ...(tolerations ? { tolerations } : {}) };
}
