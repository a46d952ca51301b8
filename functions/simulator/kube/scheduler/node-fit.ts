/**
 * The kube-scheduler's filters for existing nodes (readiness, cordon, taints, node selector and
 * required node affinity, resources), with the reasons the real scheduler prints for nodes that
 * do not fit. Used by the simulated kube-scheduler; topology spread and inter-pod affinity are
 * left to joiner's full scheduler.
 */
import type { NodeSelectorRequirement, NodeSelectorTerm, Pod } from '../../../core/model/kube-objects.js';
import type { Resources } from '../../../core/model/resources.js';
import { podRequests } from '../../../core/scheduling/pod-requests.js';
import { untoleratedTaint } from '../../../core/scheduling/tolerations.js';
import type { ExistingNode } from '../../../core/scheduling/types.js';

/** A node as the simulated scheduler sees it. */
export interface SchedulerNode extends ExistingNode {
  readonly ready: boolean;
}

function requirementHolds(r: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
      return value !== undefined && Number(value) > Number(values[0]);
    case 'Lt':
      return value !== undefined && Number(value) < Number(values[0]);
    default:
      return false;
  }
}

function termHolds(term: NodeSelectorTerm, node: SchedulerNode): boolean {
  const exprs = (term.matchExpressions ?? []).every((r) => requirementHolds(r, node.labels[r.key]));
  const fields = (term.matchFields ?? []).every((r) =>
    requirementHolds(r, r.key === 'metadata.name' ? node.name : undefined),
  );
  return exprs && fields && ((term.matchExpressions?.length ?? 0) > 0 || (term.matchFields?.length ?? 0) > 0);
}

/** Whether the pod's nodeSelector and required node affinity accept the node. */
export function nodeAffinityMatches(pod: Pod, node: SchedulerNode): boolean {
  const selector = pod.spec.nodeSelector ?? {};
  if (!Object.entries(selector).every(([k, v]) => node.labels[k] === v)) return false;
  const terms =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  return !terms || terms.some((t) => termHolds(t, node));
}

/** Free resources of a node: allocatable minus the requests of its pods. */
export function freeResources(node: SchedulerNode): Resources {
  const free: Resources = { ...node.allocatable };
  for (const p of node.pods) {
    for (const [k, v] of Object.entries(podRequests(p))) free[k] = (free[k] ?? 0) - v;
  }
  return free;
}

/** Why the node cannot take the pod (the real scheduler's wording), or undefined when it fits. */
export function whyNotFit(
  pod: Pod,
  node: SchedulerNode,
  requests: Resources,
  free: Resources,
): string[] | undefined {
  if (!node.ready) return ['node(s) had untolerated taint {node.kubernetes.io/not-ready: }'];
  if (node.unschedulable) return ['node(s) were unschedulable'];
  const taint = untoleratedTaint(pod.spec.tolerations, node.taints);
  if (taint) return [`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`];
  if (!nodeAffinityMatches(pod, node)) return ["node(s) didn't match Pod's node affinity/selector"];
  const short = Object.entries(requests)
    .filter(([k, v]) => v > 0 && (free[k] ?? 0) < v)
    .map(([k]) => (k === 'pods' ? 'Too many pods' : `Insufficient ${k}`));
  return short.length > 0 ? short : undefined;
}

/** The real scheduler's summary: `0/3 nodes are available: 1 Insufficient cpu, 2 node(s) ...`. */
export function unschedulableMessage(nodeCount: number, reasons: Map<string, number>): string {
  if (nodeCount === 0) return 'no nodes available to schedule pods';
  const parts = [...reasons.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([r, n]) => `${n} ${r}`);
  return (
    `0/${nodeCount} nodes are available: ${parts.join(', ')}. ` +
    `preemption: 0/${nodeCount} nodes are available: ${nodeCount} Preemption is not helpful for scheduling.`
  );
}
