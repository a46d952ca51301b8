/**
 * Which nodes consolidation may take, in Karpenter's order: initialized nodes of NodePools that
 * consolidate underutilized nodes (v1 `WhenEmptyOrUnderutilized`, v1beta1 `WhenUnderutilized`,
 * v1alpha5 `consolidation.enabled`), on which no pod was added or removed for `consolidateAfter`,
 * not blocked by do-not-disrupt or a PDB; cheapest to disrupt first (fewer pods, lower
 * `controller.kubernetes.io/pod-deletion-cost` and priority, closer to expiry).
 */
import type { Node, Pod } from '../../model/kube-objects.js';
import { isStatic, type NodePool } from '../../model/node-pool.js';
import type { NodeClaim } from '../../nodeclaim/nodeclaim.js';
import type { DisruptionView } from '../disruption-view.js';
import { expiryOf } from '../expiration.js';
import { isReschedulable } from '../pod-policy.js';
import { voluntaryBlocker } from '../voluntary-blockers.js';

/** A node consolidation may remove. */
export interface Candidate {
  readonly claim: NodeClaim;
  readonly node: Node;
  readonly pool: NodePool;
  /** Pods that would move. */
  readonly pods: readonly Pod[];
  /** Hourly price of the node (NodeOverlay-adjusted when an overlay prices its offering). */
  readonly price: number;
  /** True when a NodeOverlay set {@link price}. */
  readonly priceOverlaid?: boolean;
  /** Karpenter's disruption cost: lower goes first. */
  readonly cost: number;
}

const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

/** Karpenter's eviction cost of a pod: 1, plus its deletion cost and priority, scaled down. */
export function evictionCost(pod: Pod): number {
  const raw = Number(pod.metadata.annotations?.[DELETION_COST] ?? 0);
  const deletion = Number.isFinite(raw) ? Math.max(-(2 ** 27), Math.min(2 ** 27, raw)) / 2 ** 27 : 0;
  const priority = (pod.spec as { priority?: number } | undefined)?.priority ?? 0;
  return Math.max(0, 1 + deletion + priority / 2 ** 25);
}

/** Whether the pool consolidates underutilized nodes (a static pool never does, as in Karpenter v1.8). */
export function consolidatesUnderutilized(pool: NodePool): boolean {
  return (
    !isStatic(pool) &&
    pool.disruption.consolidationPolicy === 'WhenEmptyOrUnderutilized' &&
    pool.disruption.consolidateAfterMs !== null
  );
}

/** The last time a pod was added to or removed from the claim's node. */
export function lastPodEvent(claim: NodeClaim, pods: readonly Pod[]): number {
  let last = Math.max(claim.timestamps.Initialized ?? 0, claim.lastPodRemovedAt ?? 0);
  for (const pod of pods) {
    const started = Date.parse(
      (pod.status as { startTime?: string } | undefined)?.startTime ?? pod.metadata.creationTimestamp ?? '',
    );
    if (Number.isFinite(started)) last = Math.max(last, started);
  }
  return last;
}

/**
 * The candidates of a view, cheapest to disrupt first, and why others are not. A node is one once
 * it has been initialized for `settleMs` and `consolidateAfter` has passed since its last pod event.
 */
export function consolidationCandidates(
  view: DisruptionView,
  settleMs: number,
): { candidates: Candidate[]; blocked: { claim: NodeClaim; node: Node; message: string; pod?: Pod }[] } {
  const candidates: Candidate[] = [];
  const blocked: { claim: NodeClaim; node: Node; message: string; pod?: Pod }[] = [];
  for (const claim of view.claims) {
    if (claim.state !== 'Initialized') continue;
    const node = view.nodeOf(claim);
    const pool = view.poolOf(claim);
    if (!node || !pool || !consolidatesUnderutilized(pool)) continue;
    const all = view.podsOn(node.metadata.name);
    // Karpenter's consolidatable condition: consolidateAfter since the last pod event (or since
    // the node was initialized). `settleMs` applies to the initialization only: also holding back
    // the nodes a pod just left would, after a scale-down that takes pods from every node, leave
    // the few untouched nodes as the only candidates, and the search would empty those into the
    // nodes that are about to go.
    const after = pool.disruption.consolidateAfterMs ?? 0;
    if (view.now - (claim.timestamps.Initialized ?? 0) < settleMs) continue;
    if (view.now - lastPodEvent(claim, all) < after) continue;
    const blocker = voluntaryBlocker(node, all, view.pdbs, view.now);
    if (blocker) {
      blocked.push({ claim, node, message: blocker.message, pod: blocker.pod });
      continue;
    }
    const pods = all.filter(isReschedulable);
    const price = claim.instance?.price ?? claim.options[0]?.price ?? 0;
    candidates.push({
      claim,
      node,
      pool,
      pods,
      price,
      ...(claim.instance?.priceOverlaid ? { priceOverlaid: true } : {}),
      cost: disruptionCost(claim, pool, pods, view.now),
    });
  }
  candidates.sort((a, b) => a.cost - b.cost || b.price - a.price || a.claim.id.localeCompare(b.claim.id));
  return { candidates, blocked };
}

/** Sum of eviction costs, scaled by how much of the node's life remains (Karpenter's lifetime remaining). */
export function disruptionCost(claim: NodeClaim, pool: NodePool, pods: readonly Pod[], now: number): number {
  const cost = pods.reduce((sum, p) => sum + evictionCost(p), 0);
  const expiry = expiryOf(claim, pool);
  const created = claim.timestamps.Pending ?? now;
  if (expiry === undefined || expiry <= created) return cost;
  const remaining = Math.max(0, Math.min(1, (expiry - now) / (expiry - created)));
  return cost * remaining;
}
