/** Reasons a person understands for a pod that could not be placed. */

const TAINT = /^taint /;

/**
 * Combines why existing nodes refused a pod (kube-scheduler style counts) and why each NodePool
 * could not launch for it.
 */
export function unschedulableReason(
  nodeCount: number,
  nodeReasons: ReadonlyMap<string, number>,
  poolReasons: readonly string[],
): string {
  const parts: string[] = [];
  if (poolReasons.length > 0) {
    if (poolReasons.every((r) => TAINT.test(r))) {
      parts.push(`no NodePool tolerated by the pod: ${[...new Set(poolReasons)].join(', ')}`);
    } else {
      parts.push(poolReasons.map((r) => (TAINT.test(r) ? `a nodepool has untolerated ${r}` : r)).join('; '));
    }
  }
  if (nodeCount > 0) {
    const counts = [...nodeReasons]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([r, n]) => `${n} ${r}`);
    parts.push(`0/${nodeCount} nodes are available: ${counts.join(', ')}`);
  }
  if (parts.length === 0) return 'no nodes and no NodePools to place the pod on';
  return parts.join('; ');
}
