/**
 * Node repair, as Karpenter's node health controller with the AWS provider's repair policies
 * (Karpenter v1.1+, `NodeRepair`; on by default in EKS Auto Mode and in joiner): a node whose
 * condition has been unhealthy longer than its toleration is replaced forcefully — its pods are
 * deleted at once, PDBs notwithstanding — unless more than 20% of its NodePool's nodes (rounded up)
 * are unhealthy, when repairing would make things worse and the node is left alone.
 */
import type { Node } from '../model/kube-objects.js';

/** One repair policy: a node condition type, the status that is unhealthy and how long it is tolerated. */
export interface RepairPolicy {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly toleratedMs: number;
}

const MIN = 60_000;

/**
 * The AWS provider's policies: kubelet Ready False / Unknown for 30 minutes; the node monitoring
 * agent's AcceleratedHardwareReady False for 10 minutes, StorageReady, NetworkingReady,
 * KernelReady and ContainerRuntimeReady False for 30 minutes.
 */
export const REPAIR_POLICIES: readonly RepairPolicy[] = [
  { type: 'Ready', status: 'False', toleratedMs: 30 * MIN },
  { type: 'Ready', status: 'Unknown', toleratedMs: 30 * MIN },
  { type: 'AcceleratedHardwareReady', status: 'False', toleratedMs: 10 * MIN },
  { type: 'StorageReady', status: 'False', toleratedMs: 30 * MIN },
  { type: 'NetworkingReady', status: 'False', toleratedMs: 30 * MIN },
  { type: 'KernelReady', status: 'False', toleratedMs: 30 * MIN },
  { type: 'ContainerRuntimeReady', status: 'False', toleratedMs: 30 * MIN },
];

/** Share of a NodePool's nodes that may be unhealthy before repair stops (rounded up). */
export const ALLOWED_UNHEALTHY_PERCENT = 20;

/** An unhealthy condition of a node and when its toleration ends. */
export interface UnhealthyCondition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  /** When the toleration ends (lastTransitionTime + toleration). */
  readonly repairAt: number;
}

/**
 * The unhealthy condition of `node` whose toleration ends first, or undefined when it is healthy
 * (a condition without a lastTransitionTime is not judged).
 */
export function unhealthyCondition(node: Node): UnhealthyCondition | undefined {
  let found: UnhealthyCondition | undefined;
  for (const policy of REPAIR_POLICIES) {
    const c = node.status?.conditions?.find((x) => x.type === policy.type);
    if (!c || c.status !== policy.status) continue;
    // Without a transition time how long it has lasted is unknown: not judged.
    const since = Date.parse(c.lastTransitionTime ?? '');
    if (!Number.isFinite(since)) continue;
    const repairAt = since + policy.toleratedMs;
    if (!found || repairAt < found.repairAt)
      found = { type: c.type, status: c.status, reason: c.reason, repairAt };
  }
  return found;
}

/**
 * Whether a NodePool with these nodes is healthy enough to repair: at most 20% of them (rounded
 * up, so one of three may be) match a repair policy, however long they have.
 */
export function poolRepairable(nodes: readonly Node[]): boolean {
  const unhealthy = nodes.filter((n) => unhealthyCondition(n) !== undefined).length;
  return unhealthy <= Math.ceil((nodes.length * ALLOWED_UNHEALTHY_PERCENT) / 100);
}

/** What repair decides for one node at `now`. */
export type RepairFinding =
  | { readonly repair: true; readonly message: string }
  | { readonly repair: false; readonly blocked: string };

/**
 * Repair of `node` of a pool whose nodes are `poolNodes`: undefined when the node is healthy or
 * still within its toleration; a repair, or the reason it is blocked.
 */
export function repairOf(node: Node, poolNodes: readonly Node[], now: number): RepairFinding | undefined {
  const c = unhealthyCondition(node);
  if (!c || now < c.repairAt) return undefined;
  if (!poolRepairable(poolNodes))
    return {
      repair: false,
      blocked: `more than ${ALLOWED_UNHEALTHY_PERCENT}% nodes are unhealthy in the nodepool`,
    };
  return {
    repair: true,
    message: `node condition ${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''} past its toleration`,
  };
}
