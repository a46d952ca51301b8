/**
 * One scheduling decision over existing nodes: each pending pod (in priority, then creation order)
 * goes to the fitting node with the most free CPU share (the default scheduler's
 * least-allocated spreading); the rest are reported with the real scheduler's message.
 */
import type { Pod } from '../../../core/model/kube-objects.js';
import { podRequests } from '../../../core/scheduling/pod-requests.js';
import type { ExistingPlacement, UnschedulablePod } from '../../../core/scheduling/types.js';
import { freeResources, type SchedulerNode, unschedulableMessage, whyNotFit } from './node-fit.js';

/** Where pods go and which cannot go anywhere. */
export interface PlacementResult {
  readonly existingPlacements: ExistingPlacement[];
  readonly unschedulable: UnschedulablePod[];
}

const podKey = (p: Pod): string => `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`;

/** Places pending pods onto existing nodes. */
export function placePods(pods: readonly Pod[], nodes: readonly SchedulerNode[]): PlacementResult {
  const free = new Map(nodes.map((n) => [n.name, freeResources(n)]));
  const placed = new Map<string, string[]>();
  const unschedulable: UnschedulablePod[] = [];
  const ordered = [...pods].sort(
    (a, b) =>
      (b.spec.priority ?? 0) - (a.spec.priority ?? 0) ||
      String(a.metadata.creationTimestamp ?? '').localeCompare(String(b.metadata.creationTimestamp ?? '')) ||
      podKey(a).localeCompare(podKey(b)),
  );
  for (const pod of ordered) {
    const requests = podRequests(pod);
    const reasons = new Map<string, number>();
    let best: { node: SchedulerNode; score: number } | undefined;
    for (const node of nodes) {
      const f = free.get(node.name)!;
      const why = whyNotFit(pod, node, requests, f);
      if (why) {
        for (const r of why) reasons.set(r, (reasons.get(r) ?? 0) + 1);
        continue;
      }
      const score = ((f.cpu ?? 0) - (requests.cpu ?? 0)) / Math.max(1, node.allocatable.cpu ?? 1);
      if (!best || score > best.score) best = { node, score };
    }
    if (!best) {
      unschedulable.push({ pod: podKey(pod), reason: unschedulableMessage(nodes.length, reasons) });
      continue;
    }
    const f = free.get(best.node.name)!;
    for (const [k, v] of Object.entries(requests)) f[k] = (f[k] ?? 0) - v;
    placed.set(best.node.name, [...(placed.get(best.node.name) ?? []), podKey(pod)]);
  }
  return { existingPlacements: [...placed].map(([node, p]) => ({ node, pods: p })), unschedulable };
}
