/**
 * The one description of joiner's Lambda functions and their SQS event sources. The CDK stack
 * (lib/) and the simulated cloud's Lambda runner (functions/simulator/) both read it, so the
 * batch sizes, batching windows and timeouts they use cannot drift apart.
 */

/** The Lambda functions joiner deploys. */
export type FunctionName =
  | 'webhook'
  | 'provisioner'
  | 'lifecycle'
  | 'interruption'
  | 'disruption'
  | 'installer';

/** The SQS queues joiner consumes. */
export type QueueName = 'provisioning' | 'lifecycle' | 'interruption' | 'timers';

export interface FunctionSpec {
  /** Handler module under `functions/handlers/`, without extension. */
  readonly entry: string;
  /** Lambda timeout in seconds. */
  readonly timeoutSeconds: number;
  readonly memoryMiB: number;
  /** Reserved concurrency, when the function must be bounded (undefined = unreserved). */
  readonly reservedConcurrency?: number;
}

export interface EventSourceSpec {
  readonly queue: QueueName;
  readonly function: FunctionName;
  /** Messages per invocation. */
  readonly batchSize: number;
  /** Seconds to gather a batch (SQS `MaximumBatchingWindowInSeconds`). */
  readonly batchingWindowSeconds: number;
  /** Concurrent invocations the event source may drive (SQS `ScalingConfig.MaximumConcurrency`, >= 2). */
  readonly maxConcurrency: number;
  /** Receives before a message moves to the queue's DLQ. */
  readonly maxReceiveCount: number;
  /** Always true: handlers report partial batch failures. */
  readonly reportBatchItemFailures: true;
}

export const FUNCTIONS: Readonly<Record<FunctionName, FunctionSpec>> = {
  webhook: { entry: 'webhook', timeoutSeconds: 5, memoryMiB: 256 },
  provisioner: { entry: 'provisioner', timeoutSeconds: 60, memoryMiB: 1024, reservedConcurrency: 5 },
  lifecycle: { entry: 'lifecycle', timeoutSeconds: 30, memoryMiB: 512 },
  interruption: { entry: 'interruption', timeoutSeconds: 60, memoryMiB: 512 },
  disruption: { entry: 'disruption', timeoutSeconds: 60, memoryMiB: 1024, reservedConcurrency: 2 },
  installer: { entry: 'installer', timeoutSeconds: 300, memoryMiB: 512 },
};

/** Default batching window of the provisioning queue (configurable at deploy time). */
export const DEFAULT_PROVISIONING_BATCHING_WINDOW_SECONDS = 1;

export const EVENT_SOURCES: readonly EventSourceSpec[] = [
  {
    queue: 'provisioning',
    function: 'provisioner',
    batchSize: 1000,
    batchingWindowSeconds: DEFAULT_PROVISIONING_BATCHING_WINDOW_SECONDS,
    maxConcurrency: 2,
    maxReceiveCount: 5,
    reportBatchItemFailures: true,
  },
  {
    queue: 'lifecycle',
    function: 'lifecycle',
    // Lambda requires a batching window of >= 1 s for batches over 10; these queues favour latency.
    batchSize: 10,
    batchingWindowSeconds: 0,
    maxConcurrency: 5,
    maxReceiveCount: 5,
    reportBatchItemFailures: true,
  },
  {
    queue: 'interruption',
    function: 'interruption',
    batchSize: 10,
    batchingWindowSeconds: 0,
    maxConcurrency: 5,
    maxReceiveCount: 5,
    reportBatchItemFailures: true,
  },
  {
    queue: 'timers',
    function: 'disruption',
    batchSize: 10,
    batchingWindowSeconds: 0,
    maxConcurrency: 2,
    maxReceiveCount: 5,
    reportBatchItemFailures: true,
  },
];

/** SQS visibility timeout for a queue: at least 6 x the consuming function's timeout (AWS guidance). */
export function visibilityTimeoutSeconds(source: EventSourceSpec): number {
  return 6 * FUNCTIONS[source.function].timeoutSeconds;
}

/** The safety-net / timer sweep schedule: every minute, invoking the disruption function. */
export const SWEEP_SCHEDULE = { rateMinutes: 1, function: 'disruption' as FunctionName };
