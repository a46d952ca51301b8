/**
 * Which nodes a topology spread constraint counts (PodTopologySpread's node inclusion policies):
 * with `nodeAffinityPolicy: Honor` (the default) only nodes that match the pod's nodeSelector and
 * required node affinity, with `nodeTaintsPolicy: Honor` (the default is `Ignore`) only nodes whose
 * NoSchedule / NoExecute taints the pod tolerates. Pods on other nodes are not counted, and their
 * domains are not candidates for the minimum.
 */
import type { Pod, TopologySpreadConstraint } from '../model/kube-objects.js';
import type { Taint, Toleration } from '../model/taint.js';
import { requiredNodeAlternatives } from './node-affinity.js';
import type { Requirements } from './requirements.js';
import { untoleratedTaint } from './tolerations.js';
import { HOSTNAME } from './well-known.js';

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

/** Whether a node with these labels and taints passes a spread group's node filter. */
export function nodeAdmitted(
  filter: NodeFilter,
  labels: Readonly<Record<string, string>>,
  taints: readonly Taint[],
): boolean {
  if (filter.affinity && !filter.affinity.some((alt) => alt.matchesLabels(labels))) return false;
  return !filter.tolerations || untoleratedTaint(filter.tolerations, taints) === undefined;
}

/** Domains of `key` that a filtered spread group counts (cached until nodes or domains change). */
export function filteredDomainsOf(
  topo: {
    /** Declared domains of each key, with the taints of the NodePools that declared them. */
    readonly declared: ReadonlyMap<string, ReadonlyMap<string, readonly (readonly Taint[])[]>>;
    readonly hostLabels: ReadonlyMap<string, Readonly<Record<string, string>>>;
    readonly hostTaints: ReadonlyMap<string, readonly Taint[]>;
  },
  key: string,
  filter: NodeFilter,
): string[] {
  const out = new Set<string>();
  if (key !== HOSTNAME)
    for (const [d, sources] of topo.declared.get(key) ?? []) {
      if (filter.affinity && !filter.affinity.some((alt) => alt.allows(key, d))) continue;
      // nodeTaintsPolicy Honor: only domains a NodePool whose taints the pod tolerates can bring.
      const tolerations = filter.tolerations;
      if (tolerations && !sources.some((t) => untoleratedTaint(tolerations, t) === undefined)) continue;
      out.add(d);
    }
  for (const [host, labels] of topo.hostLabels) {
    const value = key === HOSTNAME ? host : labels[key];
    if (value === undefined || out.has(value)) continue;
    if (nodeAdmitted(filter, labels, topo.hostTaints.get(host) ?? [])) out.add(value);
  }
  return [...out].sort();
}
