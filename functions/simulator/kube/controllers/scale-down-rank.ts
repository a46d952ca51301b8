/**
 * Which pods a ReplicaSet deletes when it has too many, in the order the ReplicaSet controller
 * picks them (Kubernetes' `ActivePodsWithRanks`, with `LogarithmicScaleDown` on, its default since
 * 1.22): unassigned before assigned; Pending before Unknown before Running; not Ready before Ready;
 * a lower `controller.kubernetes.io/pod-deletion-cost` first; pods on a node with more of the
 * owner's active pods first (the counts taken once, before any deletion); then the pod Ready for
 * the shorter time, and then the newer one, both compared in powers of two of their age (pods in
 * the same band are ordered by uid, an arbitrary but stable choice). So a scale-down of pods that
 * started together takes them from every node, not from the nodes that got the newest pods.
 */
import type { Pod } from '../../../core/model/kube-objects.js';
import { isReady } from './replica-index.js';

const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
const PHASE_ORDER: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/** The first `count` of `pods` (one owner's active pods) in deletion order at `nowMs`. */
export function podsToDelete(pods: readonly Pod[], count: number, nowMs: number): Pod[] {
  if (count <= 0) return [];
  const onNode = new Map<string, number>();
  for (const p of pods) {
    const node = p.spec?.nodeName ?? '';
    onNode.set(node, (onNode.get(node) ?? 0) + 1);
  }
  const ranked = pods.map((pod) => ({
    pod,
    colocated: onNode.get(pod.spec?.nodeName ?? '') ?? 0,
    ready: isReady(pod),
    readyAt: readyTime(pod),
    createdAt: parseTime(pod.metadata.creationTimestamp),
    cost: deletionCost(pod),
  }));
  ranked.sort((a, b) => compare(a, b, nowMs));
  return ranked.slice(0, count).map((r) => r.pod);
}

interface Ranked {
  readonly pod: Pod;
  readonly colocated: number;
  readonly ready: boolean;
  readonly readyAt?: number;
  readonly createdAt?: number;
  readonly cost: number;
}

/** Negative when `a` is deleted before `b`. */
function compare(a: Ranked, b: Ranked, nowMs: number): number {
  const nodeA = a.pod.spec?.nodeName ?? '';
  const nodeB = b.pod.spec?.nodeName ?? '';
  if (nodeA !== nodeB && (nodeA === '' || nodeB === '')) return nodeA === '' ? -1 : 1;
  const phase = phaseOrder(a.pod) - phaseOrder(b.pod);
  if (phase !== 0) return phase;
  if (a.ready !== b.ready) return a.ready ? 1 : -1;
  if (a.cost !== b.cost) return a.cost - b.cost;
  if (a.colocated !== b.colocated) return b.colocated - a.colocated;
  if (a.ready && b.ready && a.readyAt !== b.readyAt) {
    const byReady = byAge(a, b, a.readyAt, b.readyAt, nowMs);
    if (byReady !== 0) return byReady;
  }
  if (a.createdAt !== b.createdAt) return byAge(a, b, a.createdAt, b.createdAt, nowMs);
  // Equal in every rank: Kubernetes' sort leaves them in any order; the uid makes it stable here.
  return byUid(a, b);
}

function byUid(a: Ranked, b: Ranked): number {
  const ua = a.pod.metadata.uid ?? '';
  const ub = b.pod.metadata.uid ?? '';
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

/**
 * The younger first, by the power-of-two band of the age; same band: by uid. A missing time counts
 * as the youngest (Kubernetes' "empty time first").
 */
function byAge(a: Ranked, b: Ranked, ta: number | undefined, tb: number | undefined, nowMs: number): number {
  if (ta === undefined || tb === undefined) return ta === undefined ? (tb === undefined ? 0 : -1) : 1;
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

function parseTime(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

function deletionCost(pod: Pod): number {
  const value = Number(pod.metadata.annotations?.[DELETION_COST] ?? 0);
  return Number.isInteger(value) ? value : 0;
}
