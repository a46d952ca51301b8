/**
 * NodePool `spec.replicas` (Karpenter v1.8 static capacity: a pool that keeps exactly N nodes
 * whatever the pods). Karpenter's NodePool CRD refuses two things on a static pool, and joiner
 * refuses the same: a limit other than `limits.nodes`, and `weight`. Consolidation settings are
 * accepted and ignored, as Karpenter ignores them (a static pool is never consolidated; the CRD
 * defaults them, so a warning would be said of every static pool read from a cluster).
 */
import type { ConvertIssue } from './convert-result.js';

/** The parts of a NodePool spec the static-capacity rules look at. */
export interface StaticCapacitySpec {
  readonly replicas?: number;
  readonly weight?: number;
  readonly limits?: Readonly<Record<string, unknown>>;
}

/** The errors of a static NodePool (none for a dynamic one). */
export function staticCapacityIssues(spec: StaticCapacitySpec): ConvertIssue[] {
  if (spec.replicas === undefined) return [];
  const issues: ConvertIssue[] = [];
  const otherLimits = Object.keys(spec.limits ?? {}).filter((k) => k !== 'nodes');
  if (otherLimits.length > 0)
    issues.push({
      severity: 'error',
      path: `spec.limits.${otherLimits[0]}`,
      message: `only 'limits.nodes' is supported on static NodePools (replicas is set), found ${otherLimits.join(', ')}`,
      hint: 'cap a static pool with limits.nodes, or remove replicas to make it a dynamic pool',
    });
  if (spec.weight !== undefined)
    issues.push({
      severity: 'error',
      path: 'spec.weight',
      message: "'weight' is not supported on static NodePools (replicas is set)",
      hint: 'remove weight: a static pool is not chosen for pending pods, it keeps replicas nodes',
    });
  return issues;
}
