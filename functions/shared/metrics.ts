/**
 * The CloudWatch metrics joiner's functions publish (Powertools EMF) that the stack's dashboard and
 * alarms read. Handlers record them under these names, the CDK constructs query the same names, so
 * a renamed metric cannot leave an alarm watching nothing.
 */

/** CloudWatch namespace of every joiner metric. */
export const METRICS_NAMESPACE = 'joiner';

/** The `service` dimension Powertools adds to every metric of joiner's functions. */
export const METRICS_SERVICE = 'joiner';

/** Names of the metrics the operations dashboard and alarms use. */
export const METRIC_NAMES = {
  /** Provisioner: pending pods read in a run (Count). */
  pendingPods: 'PendingPods',
  /** Provisioner: age of the oldest pending pod when a run read the cluster (Milliseconds). */
  oldestPendingPodAge: 'OldestPendingPodAge',
  /** Provisioner: nodeclaims launched (Count). */
  nodeClaimsLaunched: 'NodeClaimsLaunched',
  /** Provisioner: nodeclaims whose launch failed (Count). */
  nodeClaimsFailed: 'NodeClaimsFailed',
  /** Provisioner: offerings marked unavailable after an insufficient-capacity error (Count). */
  insufficientCapacityErrors: 'InsufficientCapacityErrors',
  /** Provisioner: pods no NodePool can place (Count). */
  unschedulablePods: 'UnschedulablePods',
  /** Provisioner: wall time of a run (Milliseconds). */
  provisioningTime: 'ProvisioningTime',
  /** Lifecycle, interruption, disruption: messages reported as batch item failures (Count). */
  failedMessages: 'FailedMessages',
  /** Interruption: EC2 / AWS Health events handled (Count). */
  interruptionEvents: 'InterruptionEvents',
  /** Provisioner, disruption: plans made with the bundled catalog because no snapshot was readable (Count). */
  catalogFallbacks: 'CatalogFallbacks',
  /** Catalog refresh: refreshes that failed (Count). */
  catalogRefreshFailures: 'CatalogRefreshFailures',
} as const;
