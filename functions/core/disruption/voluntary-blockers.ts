/**
 * What keeps a node from being disrupted voluntarily (emptiness, drift, consolidation), in
 * Karpenter's words: a do-not-disrupt annotation on the node or one of its pods, or a
 * PodDisruptionBudget that allows no eviction of one of its pods.
 */
import type { Node, Pod, PodDisruptionBudget } from '../model/kube-objects.js';
import { matchesSelector } from '../scheduling/label-selector.js';
import { blockingDoNotDisrupt, isReschedulable, nodeHasDoNotDisrupt } from './pod-policy.js';

/** Why a node cannot be disrupted now, and the pod responsible (if one is). */
export interface Blocker {
  readonly message: string;
  readonly pod?: Pod;
}

/** `namespace/name` of an object. */
export function refOf(o: { metadata: { namespace?: string; name: string } }): string {
  return `${o.metadata.namespace ?? 'default'}/${o.metadata.name}`;
}

/** The PodDisruptionBudgets that select `pod` (same namespace, selector matches). */
export function budgetsOf(pod: Pod, pdbs: readonly PodDisruptionBudget[]): PodDisruptionBudget[] {
  const namespace = pod.metadata.namespace ?? 'default';
  return pdbs.filter(
    (b) =>
      (b.metadata.namespace ?? 'default') === namespace &&
      matchesSelector(b.spec.selector, pod.metadata.labels ?? {}),
  );
}

/** The first budget that allows no disruption of one of `pods` now, with that pod. */
export function blockingBudget(
  pods: readonly Pod[],
  pdbs: readonly PodDisruptionBudget[],
): { pdb: PodDisruptionBudget; pod: Pod } | undefined {
  for (const pod of pods) {
    const pdb = budgetsOf(pod, pdbs).find((b) => (b.status?.disruptionsAllowed ?? 0) <= 0);
    if (pdb) return { pdb, pod };
  }
  return undefined;
}

/** The message of an eviction a budget refused. */
export function pdbMessage(pdb: PodDisruptionBudget): string {
  return `pdb ${refOf(pdb)} prevents pod evictions`;
}

/**
 * Why `node` with `pods` cannot be disrupted voluntarily now, or undefined when it can.
 * `podsMayBlock: false` (drift of a node whose NodePool sets terminationGracePeriod, as in
 * Karpenter) leaves out what its pods say: their do-not-disrupt and PDBs hold the drain until
 * that grace period, not the decision.
 */
export function voluntaryBlocker(
  node: Node,
  pods: readonly Pod[],
  pdbs: readonly PodDisruptionBudget[],
  now: number,
  podsMayBlock = true,
): Blocker | undefined {
  if (nodeHasDoNotDisrupt(node))
    return { message: `node ${node.metadata.name} has do-not-disrupt annotation` };
  if (!podsMayBlock) return undefined;
  const pinned = blockingDoNotDisrupt(pods, now);
  if (pinned) return { message: `pod ${refOf(pinned)} has do-not-disrupt annotation`, pod: pinned };
  const budget = blockingBudget(pods.filter(isReschedulable), pdbs);
  if (budget) return { message: pdbMessage(budget.pdb), pod: budget.pod };
  return undefined;
}
