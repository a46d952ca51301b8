/**
 * How disruption classifies the pods of a node, as Karpenter does: which ones must find room
 * elsewhere, which ones a drain evicts and waits for and in what order, which ones keep a node
 * from being disrupted, and when a node counts as empty. Pure functions over the object shapes.
 */
import { DISRUPTED_TAINT, isDaemonSetPod } from '../lifecycle/node-labels.js';
import type { Node, Pod } from '../model/kube-objects.js';
import { toleratesTaint } from '../scheduling/tolerations.js';

/** Pod or node annotation that keeps Karpenter from disrupting it voluntarily (value `"true"`). */
export const ANNOTATION_DO_NOT_DISRUPT = 'karpenter.sh/do-not-disrupt';
/** The v1alpha5 pod annotation with the meaning of {@link ANNOTATION_DO_NOT_DISRUPT}. */
export const ANNOTATION_DO_NOT_EVICT = 'karpenter.sh/do-not-evict';
/** The v1alpha5 node annotation with the meaning of {@link ANNOTATION_DO_NOT_DISRUPT}. */
export const ANNOTATION_DO_NOT_CONSOLIDATE = 'karpenter.sh/do-not-consolidate';

/** The annotation the kubelet puts on the API mirror of a static pod. */
const ANNOTATION_MIRROR = 'kubernetes.io/config.mirror';
/** Priority classes Karpenter's terminator evicts last. */
const CRITICAL_PRIORITY_CLASSES: readonly string[] = ['system-cluster-critical', 'system-node-critical'];
/** How long past its deletion timestamp a terminating pod is still waited for. */
const STUCK_TERMINATING_MS = 60_000;

/** Whether the pod is the mirror of a static pod: the kubelet, not the API, owns it. */
export function isMirrorPod(pod: Pod): boolean {
  if (pod.metadata.annotations?.[ANNOTATION_MIRROR] !== undefined) return true;
  return (pod.metadata.ownerReferences ?? []).some((o) => o.kind === 'Node');
}

/** Whether the pod has finished (phase `Succeeded` or `Failed`). */
export function isTerminalPod(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** Whether the pod is being deleted (its deletion timestamp is set). */
export function isTerminatingPod(pod: Pod): boolean {
  return pod.metadata.deletionTimestamp !== undefined;
}

/**
 * Whether the pod is terminating and more than a minute past its deletion timestamp (the end
 * of its grace period), so that a drain stops waiting for it (Karpenter's IsStuckTerminating).
 */
export function isStuckTerminating(pod: Pod, now: number): boolean {
  const at = pod.metadata.deletionTimestamp;
  return at !== undefined && now - Date.parse(at) > STUCK_TERMINATING_MS;
}

/** Whether the pod runs at a system-critical priority class (`system-cluster-critical`, `system-node-critical`). */
export function isCriticalPod(pod: Pod): boolean {
  const name = pod.spec.priorityClassName;
  return name !== undefined && CRITICAL_PRIORITY_CLASSES.includes(name);
}

/** Whether the pod tolerates the `karpenter.sh/disrupted:NoSchedule` taint of a node being disrupted. */
export function toleratesDisruptedTaint(pod: Pod): boolean {
  return (pod.spec.tolerations ?? []).some((t) => toleratesTaint(t, DISRUPTED_TAINT));
}

/**
 * Whether the pod asks not to be disrupted: `karpenter.sh/do-not-disrupt: "true"`, or the v1alpha5
 * `karpenter.sh/do-not-evict: "true"`.
 */
export function hasDoNotDisrupt(pod: Pod): boolean {
  const annotations = pod.metadata.annotations ?? {};
  return annotations[ANNOTATION_DO_NOT_DISRUPT] === 'true' || annotations[ANNOTATION_DO_NOT_EVICT] === 'true';
}

/**
 * Whether the node asks not to be disrupted: `karpenter.sh/do-not-disrupt: "true"`, or the
 * v1alpha5 `karpenter.sh/do-not-consolidate: "true"`.
 */
export function nodeHasDoNotDisrupt(node: Node): boolean {
  const annotations = node.metadata.annotations ?? {};
  return (
    annotations[ANNOTATION_DO_NOT_DISRUPT] === 'true' || annotations[ANNOTATION_DO_NOT_CONSOLIDATE] === 'true'
  );
}

/**
 * Whether the pod must find room on another node when its node goes: it is neither finished nor
 * terminating (except a terminating StatefulSet pod, whose replacement is created only once it
 * is gone, so room is kept for it as Karpenter does), and neither a DaemonSet pod nor a mirror pod.
 */
export function isReschedulable(pod: Pod): boolean {
  const active = !isTerminalPod(pod) && !isTerminatingPod(pod);
  const leavingStatefulSetPod = isTerminatingPod(pod) && isOwnedBy(pod, 'StatefulSet');
  return (active || leavingStatefulSetPod) && !isDaemonSetPod(pod) && !isMirrorPod(pod);
}

/**
 * Whether a drain of the pod's node evicts the pod and waits for it to go: the pod does not
 * tolerate the disrupted taint (so it would not come straight back), is not a mirror pod (the API
 * cannot delete those) and has not finished. Terminating pods are drainable: the drain waits for
 * them but does not evict them again; Karpenter stops waiting for one a minute past its deletion
 * timestamp (see {@link isStuckTerminating}). Pods with do-not-disrupt are drainable too: the drain
 * waits for them without evicting them.
 */
export function isDrainable(pod: Pod): boolean {
  return !toleratesDisruptedTaint(pod) && !isMirrorPod(pod) && !isTerminalPod(pod);
}

/**
 * The drainable pods not yet terminating, in the order Karpenter's terminator evicts them:
 * non-critical non-DaemonSet pods, non-critical DaemonSet pods, critical non-DaemonSet pods,
 * critical DaemonSet pods (critical: see {@link isCriticalPod}). Empty groups are left out. A
 * group is started only once the groups before it are gone. Pods with do-not-disrupt stay in
 * their group, so that later groups wait for them, but are not to be evicted.
 */
export function evictionGroups(pods: readonly Pod[]): Pod[][] {
  const groups: Pod[][] = [[], [], [], []];
  for (const pod of pods) {
    if (!isDrainable(pod) || isTerminatingPod(pod)) continue;
    groups[(isCriticalPod(pod) ? 2 : 0) + (isDaemonSetPod(pod) ? 1 : 0)].push(pod);
  }
  return groups.filter((g) => g.length > 0);
}

/**
 * Whether a node with `pods` is empty: none of them has to find room elsewhere (see
 * {@link isReschedulable}), that is only DaemonSet, mirror, finished or terminating pods are
 * left (a terminating StatefulSet pod still counts).
 */
export function isEmptyNode(pods: readonly Pod[]): boolean {
  return !pods.some(isReschedulable);
}

/**
 * The first live pod (not finished, not terminating) with do-not-disrupt, which keeps its node from
 * voluntary disruption; DaemonSet and mirror pods included, as in Karpenter.
 */
export function blockingDoNotDisrupt(pods: readonly Pod[]): Pod | undefined {
  return pods.find((p) => !isTerminalPod(p) && !isTerminatingPod(p) && hasDoNotDisrupt(p));
}

function isOwnedBy(pod: Pod, kind: string): boolean {
  return (pod.metadata.ownerReferences ?? []).some((o) => o.kind === kind);
}
