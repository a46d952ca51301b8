/**
 * How disruption classifies the pods of a node, as Karpenter does: which ones must find room
 * elsewhere, which ones a drain evicts and waits for and in what order, which ones keep a node
 * from being disrupted, and when a node counts as empty. Pure functions over the object shapes.
 */
import { DISRUPTED_TAINT, isDaemonSetPod } from '../lifecycle/node-labels.js';
import { durationToMs } from '../model/config/duration.js';
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

/** What a pod's do-not-disrupt annotation says at a given time. */
export interface DoNotDisrupt {
  readonly active: boolean;
  /** The end of its grace period (a duration value), while it protects the pod. */
  readonly until?: number;
  /** Why the value is ignored (not `"true"`, not a positive duration). */
  readonly invalid?: string;
}

/**
 * The pod's `karpenter.sh/do-not-disrupt` at `now`, as Karpenter reads it: `"true"` protects it for
 * good; a Go duration (`"30m"`) protects it for that long after it started (for good while it has
 * no start time); any other value, or a duration that is not positive, is ignored (with the
 * reason). The v1alpha5 `karpenter.sh/do-not-evict: "true"` protects it for good too.
 */
export function doNotDisrupt(pod: Pod, now: number): DoNotDisrupt {
  const annotations = pod.metadata.annotations ?? {};
  const value = annotations[ANNOTATION_DO_NOT_DISRUPT];
  if (value === undefined || value === 'true')
    return { active: value === 'true' || annotations[ANNOTATION_DO_NOT_EVICT] === 'true' };
  const ms = goDurationMs(value.trim().replace(/^-/, ''));
  if (ms === undefined)
    return { active: false, invalid: `failed to parse ${JSON.stringify(value)} as a duration` };
  if (ms <= 0 || value.trim().startsWith('-'))
    return { active: false, invalid: `duration ${JSON.stringify(value)} must be positive` };
  const started = Date.parse(String(pod.status?.startTime ?? ''));
  if (Number.isNaN(started)) return { active: true };
  const until = started + ms;
  return now < until ? { active: true, until } : { active: false };
}

/** A Go duration (a unit is required, except for "0"), or undefined when it is not one. */
function goDurationMs(text: string): number | undefined {
  if (text !== '0' && /^[\d.]+$/.test(text)) return undefined;
  try {
    return durationToMs(text) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Whether the pod's do-not-disrupt protects it at `now` (see {@link doNotDisrupt}). */
export function hasDoNotDisrupt(pod: Pod, now: number): boolean {
  return doNotDisrupt(pod, now).active;
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
export function blockingDoNotDisrupt(pods: readonly Pod[], now: number): Pod | undefined {
  return pods.find((p) => !isTerminalPod(p) && !isTerminatingPod(p) && hasDoNotDisrupt(p, now));
}

function isOwnedBy(pod: Pod, kind: string): boolean {
  return (pod.metadata.ownerReferences ?? []).some((o) => o.kind === kind);
}
