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
  /** A provisioning run's scheduling simulation (seconds); dimension `controller` (`provisioner`). */
  schedulingDuration: 'karpenter_scheduler_scheduling_duration_seconds',
  /** From a pod's creation until it is running and Ready (seconds); no dimensions. */
  podStartupDuration: 'karpenter_pods_startup_duration_seconds',
  /** A disruption decision; dimensions `decision` (delete, replace), `reason`, `consolidation_type`. */
  disruptionDecisions: 'karpenter_voluntary_disruption_decisions_total',
  /** An interruption message; dimensions `message_type`, `actionable` (`true`, `false`). */
  interruptionMessages: 'karpenter_interruption_received_messages_total',
  /** A failed cloud call; dimensions `controller`, `method`, `provider` (`aws`), `error`. */
  cloudProviderErrors: 'karpenter_cloudprovider_errors_total',
} as const;

/** A disruption cause as Karpenter's `reason` label spells it (`deleted nodepool` -> `deleted_nodepool`). */
export function karpenterReason(cause: string): string {
  return cause.toLowerCase().replace(/\s+/g, '_');
}

/** An interruption notice as Karpenter's `message_type` label names it. */
export function karpenterMessageType(kind: string, state?: string): string {
  switch (kind) {
    case 'spot-interruption':
      return 'spot_interrupted';
    case 'rebalance':
      return 'rebalance_recommendation';
    case 'scheduled-change':
      return 'scheduled_change';
    case 'state-change':
      return state === 'stopping' || state === 'stopped' ? `instance_${state}` : 'instance_terminated';
    default:
      return 'no_op';
  }
}

/** The consolidation type Karpenter labels a decision with (`""` for drift, expiration, ...). */
export function karpenterConsolidationType(reason: string, nodes: number): string {
  if (reason === 'empty') return 'empty';
  if (reason !== 'underutilized') return '';
  return nodes > 1 ? 'multi' : 'single';
}
