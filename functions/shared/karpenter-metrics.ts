/**
 * joiner's metrics under Karpenter's Prometheus names and labels (as CloudWatch metric names and
 * dimensions, namespace `joiner`), where the meaning is the same, so dashboards and alerts built
 * on Karpenter's metrics carry over. docs/karpenter-metrics.md has the mapping table.
 */

/** Karpenter metric names joiner publishes. */
export const KARPENTER_METRICS = {
  /** A nodeclaim was created; dimensions `nodepool`, `reason` (`provisioning`). */
  nodeClaimsCreated: 'karpenter_nodeclaims_created_total',
  /** A nodeclaim's drain started; dimensions `nodepool`, `reason` (empty, underutilized, drifted, ...). */
  nodeClaimsDisrupted: 'karpenter_nodeclaims_disrupted_total',
  /** A nodeclaim's node was terminated; dimension `nodepool`. */
  nodeClaimsTerminated: 'karpenter_nodeclaims_terminated_total',
  /** A provisioning run's scheduling simulation (seconds); no dimensions. */
  schedulingDuration: 'karpenter_provisioner_scheduling_duration_seconds',
} as const;

/** A disruption cause as Karpenter's `reason` label spells it (`deleted nodepool` -> `deleted_nodepool`). */
export function karpenterReason(cause: string): string {
  return cause.toLowerCase().replace(/\s+/g, '_');
}
