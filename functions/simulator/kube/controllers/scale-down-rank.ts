/**
 * Which pods a ReplicaSet deletes when it has too many, in the order the ReplicaSet controller
 * picks them (Kubernetes' `getPodsToDelete` and `ActivePodsWithRanks`, with `LogarithmicScaleDown`
 * on, its default since 1.22):
 *
 * 1. unassigned before assigned;
 * 2. Pending before Unknown before Running;
 * 3. not Ready before Ready;
 * 4. a lower `controller.kubernetes.io/pod-deletion-cost` first;
 * 5. a pod on a node with more of the owner's related active pods first (the ReplicaSet's and, for
 *    one a Deployment owns, its sibling ReplicaSets' pods; counted once, before any deletion);
 * 6. both Ready: the one Ready for the shorter time, compared in powers of two of the time (same
 *    band: by uid, and the later keys are not read);
 * 7. more container restarts first;
 * 8. the newer creation, in powers of two of the age (same band: by uid).
 *
 * Pods equal in every key keep no defined order in Kubernetes; here the uid decides, so the choice
 * never rests on a store's order. A scale-down of pods that started together therefore takes them
 * from every node, not from the nodes that got the newest pods.
 */
import type { Pod } from '../../../core/model/kube-objects.js';
import { isActive, isReady } from './replica-index.js';

const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
const PHASE_ORDER: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * The first `count` of `pods` (one ReplicaSet's active pods) in deletion order at `nowMs`.
 * `related` are the pods whose node counts rank key 5 reads (Kubernetes: every pod of the
 * ReplicaSet's owner's ReplicaSets); they default to `pods`.
 */
export function podsToDelete(
  pods: readonly Pod[],
  count: number,
  nowMs: number,
  related: readonly Pod[] = pods,
): Pod[] {
  if (count <= 0) return [];
  const onNode = new Map<string, number>();
  for (const p of related) {
    if (!isActive(p)) continue;
    const node = p.spec?.nodeName ?? '';
    onNode.set(node, (onNode.get(node) ?? 0) + 1);
  }
  const ranked = pods.map(
    (pod): Ranked => ({
      pod,
      node: pod.spec?.nodeName ?? '',
      colocated: onNode.get(pod.spec?.nodeName ?? '') ?? 0,
      ready: isReady(pod),
      readyAt: readyTime(pod),
      createdAt: parseTime(pod.metadata.creationTimestamp),
      restarts: maxRestarts(pod),
      cost: deletionCost(pod),
      uid: pod.metadata.uid ?? '',
    }),
  );
  ranked.sort((a, b) => compare(a, b, nowMs));
  return ranked.slice(0, count).map((r) => r.pod);
}

interface Ranked {
  readonly pod: Pod;
  readonly node: string;
  readonly colocated: number;
  readonly ready: boolean;
  readonly readyAt?: number;
  readonly createdAt?: number;
  readonly restarts: number;
  readonly cost: number;
  readonly uid: string;
}

/** Negative when `a` is deleted before `b`. */
function compare(a: Ranked, b: Ranked, nowMs: number): number {
  if (a.node !== b.node && (a.node === '' || b.node === '')) return a.node === '' ? -1 : 1;
  const phase = phaseOrder(a.pod) - phaseOrder(b.pod);
  if (phase !== 0) return phase;
  if (a.ready !== b.ready) return a.ready ? 1 : -1;
  if (a.cost !== b.cost) return a.cost - b.cost;
  if (a.colocated !== b.colocated) return b.colocated - a.colocated;
  if (a.ready && b.ready && a.readyAt !== b.readyAt) return byAge(a, b, a.readyAt, b.readyAt, nowMs);
  if (a.restarts !== b.restarts) return b.restarts - a.restarts;
  if (a.createdAt !== b.createdAt) return byAge(a, b, a.createdAt, b.createdAt, nowMs);
  return byUid(a, b);
}

function byUid(a: Ranked, b: Ranked): number {
  return a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0;
}

/**
 * The younger first by the power-of-two band of the age; same band: by uid. A missing time goes
 * first (Kubernetes' "empty time first").
 */
function byAge(a: Ranked, b: Ranked, ta: number | undefined, tb: number | undefined, nowMs: number): number {
  if (ta === undefined || tb === undefined) return ta === undefined ? -1 : 1;
  const diff = band(nowMs - ta) - band(nowMs - tb);
  return diff !== 0 ? diff : byUid(a, b);
}

/** `floor(log2(age in nanoseconds))`, -1 for no age (Kubernetes' logarithmicRankDiff). */
function band(ageMs: number): number {
  return ageMs > 0 ? Math.floor(Math.log2(ageMs * 1e6)) : -1;
}

function phaseOrder(pod: Pod): number {
  return PHASE_ORDER[pod.status?.phase ?? 'Pending'] ?? 0;
}

function readyTime(pod: Pod): number | undefined {
  const ready = (pod.status?.conditions ?? []).find((c) => c.type === 'Ready' && c.status === 'True');
  return parseTime((ready as { lastTransitionTime?: string } | undefined)?.lastTransitionTime);
}

function maxRestarts(pod: Pod): number {
  const statuses = (pod.status as { containerStatuses?: readonly { restartCount?: number }[] } | undefined)
    ?.containerStatuses;
  return Math.max(0, ...(statuses ?? []).map((s) => s.restartCount ?? 0));
}

function parseTime(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The annotation as an int32; missing or not an int32: 0, as Kubernetes reads it. */
function deletionCost(pod: Pod): number {
  const text = pod.metadata.annotations?.[DELETION_COST];
  if (text === undefined || !/^[+-]?\d+$/.test(text)) return 0;
  const value = Number(text);
  return value >= INT32_MIN && value <= INT32_MAX ? value : 0;
}
