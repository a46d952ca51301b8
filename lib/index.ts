export { createJoinerApp, type JoinerAppOptions } from './app.js';
export { ALARM_THRESHOLDS, JoinerAlarms, type JoinerAlarmsProps } from './constructs/alarms.js';
export { ClusterAccess, type ClusterAccessProps } from './constructs/cluster-access.js';
export {
  type ClusterDocument,
  ClusterInstaller,
  type ClusterInstallerProps,
  type InstallerProperties,
} from './constructs/cluster-installer.js';
export {
  CLUSTER_TAG_KEY,
  ControllerPermissions,
  type ControllerPermissionsProps,
} from './constructs/controller-permissions.js';
export { JoinerEventBus, type JoinerEventBusProps } from './constructs/event-bus.js';
export { HandlerFunction, type HandlerFunctionProps, type LogLevel } from './constructs/handler-function.js';
export { InterruptionRules, type InterruptionRulesProps } from './constructs/interruption-rules.js';
export { JoinerFunctions, type JoinerFunctionsProps } from './constructs/joiner-functions.js';
export { JoinerMetrics, type JoinerMetricsProps, METRIC_PERIOD } from './constructs/joiner-metrics.js';
export { KarpenterDashboard, type KarpenterDashboardProps } from './constructs/karpenter-dashboard.js';
export { NodeRole, type NodeRoleProps } from './constructs/node-role.js';
export { OperationsDashboard, type OperationsDashboardProps } from './constructs/operations-dashboard.js';
export { QueueSubscriptions, type QueueSubscriptionsProps } from './constructs/queue-subscriptions.js';
export { StateTable, type StateTableProps } from './constructs/state-table.js';
export { SweepSchedule, type SweepScheduleProps } from './constructs/sweep-schedule.js';
export { WebhookEndpoint, type WebhookEndpointProps } from './constructs/webhook-endpoint.js';
export { WorkQueues, type WorkQueuesProps } from './constructs/work-queues.js';
export { CONTEXT_KEYS, ContextError, type ContextProps, joinerPropsFromContext } from './context.js';
export { buildHandler, bundleHandler, handlerBuildOptions } from './handler-bundle.js';
export { Joiner, type JoinerProps } from './joiner.js';
export { JoinerStack, type JoinerStackProps } from './joiner-stack.js';
