/**
 * Evicting a draining node's pods, as Karpenter's terminator does: through the Eviction API in
 * waves (non-critical non-DaemonSet pods, then non-critical DaemonSet pods, then the critical
 * ones), the next wave only once the previous one is gone; a pod a PodDisruptionBudget protects
 * (429) is tried again at the next step, never deleted, and so is one whose call failed while others
 * of the wave went through; do-not-disrupt pods are left for the
 * terminationGracePeriod. Past that deadline (less each pod's own grace period) the pods left are
 * deleted with the grace that remains.
 */

import { isDaemonSetPod } from '../lifecycle/node-labels.js';
import type { Node, Pod, PodDisruptionBudget } from '../model/kube-objects.js';
import type { ClusterEvent } from '../ports/cluster-api.js';
import type { DisruptionDeps } from './disruption-deps.js';
import {
  hasDoNotDisrupt,
  isCriticalPod,
  isDrainable,
  isStuckTerminating,
  isTerminatingPod,
} from './pod-policy.js';
import { budgetsOf, pdbMessage, refOf } from './voluntary-blockers.js';

/** What one eviction pass did. */
export interface EvictionPass {
  /** Drainable pods still on the node (terminating ones included): 0 means the drain is done. */
  readonly remaining: number;
  readonly evicted: number;
  /** Pods a PodDisruptionBudget kept this time. */
  readonly refused: number;
  /** Pods deleted because the deadline is near. */
  readonly deleted: number;
}

const DEFAULT_POD_GRACE_S = 30;
/** Evictions sent at once. */
const CONCURRENCY = 16;

/**
 * The pods of a node the drain waits for at `now` (see isDrainable); a pod terminating for more
 * than a minute past its deletion is no longer waited for, as Karpenter does.
 */
export function drainablePods(pods: readonly Pod[], now: number): Pod[] {
  return pods.filter((p) => isDrainable(p) && !isStuckTerminating(p, now));
}

/**
 * Deletes the pods whose time has come before `forceAt` (each at `forceAt` less its own grace
 * period, with the grace that is left), whatever phase the drain is in. Returns how many.
 */
export async function deleteDuePods(
  deps: Pick<DisruptionDeps, 'cluster' | 'log'>,
  node: Node,
  pods: readonly Pod[],
  now: number,
  forceAt: number | undefined,
): Promise<Pod[]> {
  if (forceAt === undefined) return [];
  const due = drainablePods(pods, now).filter((p) => deleteNow(p, now, forceAt));
  const left = Math.max(0, Math.floor((forceAt - now) / 1000));
  for (const pod of due) {
    await deps.cluster.deletePod(
      pod.metadata.namespace ?? 'default',
      pod.metadata.name,
      Math.min(left, podGrace(pod)),
    );
  }
  if (due.length > 0)
    deps.log.info('deleting pod(s) at the end of the termination grace period', {
      node: node.metadata.name,
      pods: due.map(refOf),
    });
  return due;
}

/** One pass over `node`'s `pods` at `now` (see the file comment). */
export async function evictPass(
  deps: Pick<DisruptionDeps, 'cluster' | 'log'>,
  node: Node,
  pods: readonly Pod[],
  pdbs: readonly PodDisruptionBudget[],
  now: number,
  forceAt: number | undefined,
): Promise<EvictionPass> {
  const drainable = drainablePods(pods, now);
  const pass = { remaining: drainable.length, evicted: 0, refused: 0, deleted: 0 };
  if (drainable.length === 0) return pass;
  const events: ClusterEvent[] = [];
  const due = await deleteDuePods(deps, node, pods, now, forceAt);
  pass.deleted = due.length;
  const dueSet = new Set(due);
  // The next wave starts once every pod of the waves before it (terminating ones included) is gone.
  const current = Math.min(...drainable.map(waveOf));
  const wave = drainable.filter((p) => waveOf(p) === current && !isTerminatingPod(p) && !dueSet.has(p));
  const toEvict = wave.filter((p) => !hasDoNotDisrupt(p, now));
  for (const pod of wave.filter((p) => hasDoNotDisrupt(p, now))) {
    events.push(...blockedEvents(node, pod, `pod ${refOf(pod)} has do-not-disrupt annotation`));
  }
  const failures: { pod: string; error: unknown }[] = [];
  for (let i = 0; i < toEvict.length; i += CONCURRENCY) {
    const chunk = toEvict.slice(i, i + CONCURRENCY);
    const results = await Promise.allSettled(
      chunk.map((p) => deps.cluster.evictPod(p.metadata.namespace ?? 'default', p.metadata.name)),
    );
    chunk.forEach((pod, j) => {
      const result = results[j] as PromiseSettledResult<string>;
      if (result.status === 'rejected') {
        // A failed call (an API server 5xx, say) is tried again at the next step, like a refusal;
        // the other evictions of the wave stand.
        failures.push({ pod: refOf(pod), error: result.reason });
      } else if (result.value === 'blocked-by-pdb') {
        pass.refused++;
        const pdb = budgetsOf(pod, pdbs)[0];
        events.push(
          ...blockedEvents(node, pod, pdb ? pdbMessage(pdb) : `eviction of pod ${refOf(pod)} refused`),
        );
      } else pass.evicted++;
    });
  }
  if (pass.evicted > 0) deps.log.info('evicted pod(s)', { node: node.metadata.name, pods: pass.evicted });
  if (pass.refused > 0)
    deps.log.info('disruption budgets refused eviction(s), retrying at the next step', {
      node: node.metadata.name,
      pods: pass.refused,
    });
  if (events.length > 0) await deps.cluster.createEvents(dedupe(events));
  // Nothing went through: the step fails (and is retried) with the first error, so an API that
  // refuses every call is seen.
  if (failures.length > 0 && failures.length === toEvict.length) throw failures[0]?.error;
  if (failures.length > 0)
    deps.log.warn('eviction(s) failed, retrying at the next step', {
      node: node.metadata.name,
      pods: failures.map((f) => f.pod),
      error: failures[0]?.error instanceof Error ? failures[0].error.message : String(failures[0]?.error),
    });
  return pass;
}

function podGrace(pod: Pod): number {
  const spec = pod.spec as { terminationGracePeriodSeconds?: number } | undefined;
  return spec?.terminationGracePeriodSeconds ?? DEFAULT_POD_GRACE_S;
}

/** Karpenter deletes a pod at `forceAt - its grace`, so it ends by the deadline. */
function deleteNow(pod: Pod, now: number, forceAt: number): boolean {
  if (isTerminatingPod(pod)) return false;
  return now >= forceAt - podGrace(pod) * 1000;
}

/** Karpenter's eviction order: non-critical non-DaemonSet, non-critical DaemonSet, critical ones. */
function waveOf(pod: Pod): number {
  return (isCriticalPod(pod) ? 2 : 0) + (isDaemonSetPod(pod) ? 1 : 0);
}

/** DisruptionBlocked on the node and on the pod, Karpenter's reason. */
export function blockedEvents(node: Node | undefined, pod: Pod | undefined, message: string): ClusterEvent[] {
  const out: ClusterEvent[] = [];
  if (node)
    out.push({
      involvedObject: { kind: 'Node', name: node.metadata.name, uid: node.metadata.uid, apiVersion: 'v1' },
      type: 'Normal',
      reason: 'DisruptionBlocked',
      message,
    });
  if (pod)
    out.push({
      involvedObject: {
        kind: 'Pod',
        name: pod.metadata.name,
        namespace: pod.metadata.namespace ?? 'default',
        uid: pod.metadata.uid,
        apiVersion: 'v1',
      },
      type: 'Normal',
      reason: 'DisruptionBlocked',
      message,
    });
  return out;
}

function dedupe(events: readonly ClusterEvent[]): ClusterEvent[] {
  const seen = new Set<string>();
  return events.filter((e) => {
    const key = `${e.involvedObject.kind}/${e.involvedObject.namespace}/${e.involvedObject.name}/${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
