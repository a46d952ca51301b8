/**
 * PodDisruptionBudget arithmetic, computed from the live pods as the disruption controller does:
 * expected pods, healthy pods (Running, Ready, not terminating, not just evicted), desired healthy
 * and the disruptions allowed.
 */
import type { PodDisruptionBudget } from '../../../core/model/kube-objects.js';
import { matchesLabelSelector } from './label-selector.js';
import type { KubeObject } from './object-store.js';

/** The status a PDB has for the given pods of its namespace. */
export interface BudgetStatus {
  readonly expectedPods: number;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  readonly disruptionsAllowed: number;
}

/** Whether a pod counts as healthy for budgets. */
export function isHealthyPod(pod: KubeObject): boolean {
  const status = pod.status as
    | { phase?: string; conditions?: { type: string; status: string }[] }
    | undefined;
  if (pod.metadata.deletionTimestamp || status?.phase !== 'Running') return false;
  return (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

function scaled(value: number | string, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  if (!m) return Number(value) || 0;
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** The pods (of the PDB's namespace) the budget selects. */
export function podsOfBudget(pdb: PodDisruptionBudget, pods: readonly KubeObject[]): KubeObject[] {
  return pods.filter(
    (p) =>
      p.metadata.namespace === pdb.metadata.namespace &&
      matchesLabelSelector(pdb.spec.selector, p.metadata.labels) &&
      !['Succeeded', 'Failed'].includes(String((p.status as { phase?: string })?.phase)),
  );
}

/** How long an evicted pod stays in `status.disruptedPods` waiting for its deletion (as Kubernetes' DeletionTimeout). */
export const DISRUPTED_POD_TIMEOUT_MS = 2 * 60_000;

/**
 * `status.disruptedPods`: pods the Eviction API let go whose deletion has not shown yet (pod name ->
 * when). They no longer count as healthy, so that evictions racing each other cannot all pass.
 */
export function disruptedPodsOf(pdb: PodDisruptionBudget): Readonly<Record<string, string>> {
  return (pdb.status as { disruptedPods?: Record<string, string> } | undefined)?.disruptedPods ?? {};
}

/** The `disruptedPods` entries still pending: the pod exists, is not terminating, and the entry is recent. */
export function pendingDisruptedPods(
  pdb: PodDisruptionBudget,
  pods: readonly KubeObject[],
  nowMs: number,
): Record<string, string> {
  const waiting = new Set(
    pods
      .filter((p) => p.metadata.namespace === pdb.metadata.namespace && !p.metadata.deletionTimestamp)
      .map((p) => p.metadata.name),
  );
  return Object.fromEntries(
    Object.entries(disruptedPodsOf(pdb)).filter(
      ([name, at]) => waiting.has(name) && nowMs - Date.parse(at) < DISRUPTED_POD_TIMEOUT_MS,
    ),
  );
}

/** The scale (`spec.replicas`) of the controller with this uid, if the cluster has it. */
export type ControllerScale = (controllerUid: string) => number | undefined;

/**
 * The pods a budget expects, as the disruption controller counts them: for an integer
 * `minAvailable`, the pods it selects; otherwise (`maxUnavailable`, a percentage) the replicas the
 * pods' controllers want, so a pod being replaced is not counted twice (the leaving one and its
 * replacement). Without a scale for every controller, the selected pods.
 */
function expectedCount(
  pdb: PodDisruptionBudget,
  selected: readonly KubeObject[],
  scaleOf?: ControllerScale,
): number {
  const integerMin =
    typeof pdb.spec.minAvailable === 'number' || /^\d+$/.test(String(pdb.spec.minAvailable ?? ''));
  if (!scaleOf || (pdb.spec.minAvailable !== undefined && integerMin)) return selected.length;
  const controllers = new Set<string>();
  for (const pod of selected) {
    const ref = (pod.metadata.ownerReferences ?? []).find((o) => o.controller);
    if (!ref?.uid) return selected.length;
    controllers.add(ref.uid);
  }
  let total = 0;
  for (const uid of controllers) {
    const scale = scaleOf(uid);
    if (scale === undefined) return selected.length;
    total += scale;
  }
  return total;
}

/** Computes a PDB's status from the pods it selects (and, given `scaleOf`, their controllers' scale). */
export function budgetStatus(
  pdb: PodDisruptionBudget,
  pods: readonly KubeObject[],
  scaleOf?: ControllerScale,
): BudgetStatus {
  const selected = podsOfBudget(pdb, pods);
  const expectedPods = expectedCount(pdb, selected, scaleOf);
  const disrupted = disruptedPodsOf(pdb);
  const currentHealthy = selected.filter((p) => isHealthyPod(p) && !(p.metadata.name in disrupted)).length;
  let desiredHealthy = 0;
  if (pdb.spec.minAvailable !== undefined) desiredHealthy = scaled(pdb.spec.minAvailable, expectedPods, true);
  else if (pdb.spec.maxUnavailable !== undefined) {
    desiredHealthy = Math.max(0, expectedPods - scaled(pdb.spec.maxUnavailable, expectedPods, true));
  }
  const disruptionsAllowed = Math.max(0, currentHealthy - desiredHealthy);
  return { expectedPods, currentHealthy, desiredHealthy, disruptionsAllowed };
}
