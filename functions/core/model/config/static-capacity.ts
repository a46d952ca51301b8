/**
 * NodePool `spec.replicas` (Karpenter v1.8 static capacity: a pool that keeps exactly N nodes
 * whatever the pods). joiner does not keep static pools yet, so a NodePool that sets it is
 * refused with an error naming the field, never read as a dynamic pool with the field ignored.
 */
import type { ConvertIssue } from './convert-result.js';

/** The error for a NodePool that sets `replicas`; none when it does not. */
export function staticCapacityIssues(replicas: number | undefined): ConvertIssue[] {
  if (replicas === undefined) return [];
  return [
    {
      severity: 'error',
      path: 'spec.replicas',
      message: `replicas (${replicas}) asks for a static NodePool (Karpenter v1.8), which joiner does not keep yet: it launches nodes for pending pods only`,
      hint: 'remove replicas (and do not kubectl scale the NodePool); joiner then provisions this pool for pending pods',
    },
  ];
}
