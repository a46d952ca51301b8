/**
 * The one description of joiner's Lambda functions and their SQS event sources. The CDK stack
 * (lib/) and the simulated cloud's Lambda runner (functions/simulator/) both read it, so the
 * batch sizes, batching windows and timeouts they use cannot drift apart.
 */
import type { TargetInput } from './target-input.js';

/** The Lambda functions joiner deploys. */
export type FunctionName =
  | 'webhook'
  | 'provisioner'
  | 'lifecycle'
  | 'interruption'
  | 'disruption'
  | 'installer'
  | 'catalog';

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
  // Reserved: a flood of webhook calls runs at most this many at once and cannot take the
  // account's concurrency from the controllers (nor can they starve the webhook).
  webhook: { entry: 'webhook', timeoutSeconds: 5, memoryMiB: 256, reservedConcurrency: 20 },
  provisioner: { entry: 'provisioner', timeoutSeconds: 60, memoryMiB: 1024, reservedConcurrency: 5 },
  lifecycle: { entry: 'lifecycle', timeoutSeconds: 30, memoryMiB: 512 },
  interruption: { entry: 'interruption', timeoutSeconds: 60, memoryMiB: 512 },
  disruption: { entry: 'disruption', timeoutSeconds: 60, memoryMiB: 1024, reservedConcurrency: 2 },
  installer: { entry: 'installer', timeoutSeconds: 300, memoryMiB: 512 },
  // One refresh at a time: a slow one is simply followed by the next schedule.
  catalog: { entry: 'catalog-refresh', timeoutSeconds: 120, memoryMiB: 512, reservedConcurrency: 1 },
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
    // Hints come in bursts (a drain's evictions are a PodGone each) and a batch is handled once per
    // node (core/lifecycle/batch-hints.ts): up to 100 a batch, gathered for at most 1 s (Lambda
    // requires a window of >= 1 s for batches over 10). A node's registration and Ready hints wait
    // at most that second more; the interruption and timers queues below favour latency.
    batchSize: 100,
    batchingWindowSeconds: 1,
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

/** An EventBridge schedule rule that invokes one function. */
export interface ScheduleSpec {
  /** Construct id and simulated rule name suffix. */
  readonly id: string;
  readonly rateMinutes: number;
  readonly function: FunctionName;
  /** Retries of a failed asynchronous invocation (the next run replaces a missed one). */
  readonly retryAttempts: number;
  /** Age after which an undelivered event is dropped. */
  readonly maxEventAgeSeconds: number;
  /**
   * What the function receives (`Input` / `InputPath` / `InputTransformer`).
   * @default the whole "Scheduled Event", which is how the disruption handler tells a sweep apart
   */
  readonly input?: TargetInput;
}

/** The safety-net / timer sweep schedule: every minute, invoking the disruption function. */
export const SWEEP_SCHEDULE: ScheduleSpec = {
  id: 'Sweep',
  rateMinutes: 1,
  function: 'disruption',
  retryAttempts: 0,
  maxEventAgeSeconds: 60,
};

/** What a catalog refresh renews: only the spot prices, or the whole catalog (types, offerings, prices). */
export type CatalogRefreshScope = 'spot-prices' | 'catalog';

/** The payload of a catalog refresh schedule (its target's constant `Input`). */
export interface CatalogRefreshInput {
  readonly refresh: CatalogRefreshScope;
}

function catalogRefreshInput(refresh: CatalogRefreshScope): TargetInput {
  return { Input: JSON.stringify({ refresh } satisfies CatalogRefreshInput) };
}

/** Spot prices drift all day: refreshed every 5 minutes. */
export const CATALOG_SPOT_SCHEDULE: ScheduleSpec = {
  id: 'CatalogSpotPrices',
  rateMinutes: 5,
  function: 'catalog',
  retryAttempts: 0,
  maxEventAgeSeconds: 300,
  input: catalogRefreshInput('spot-prices'),
};

/** Instance types, zone offerings and on-demand prices change rarely: refreshed every 6 hours. */
export const CATALOG_TYPES_SCHEDULE: ScheduleSpec = {
  id: 'CatalogTypes',
  rateMinutes: 360,
  function: 'catalog',
  retryAttempts: 2,
  maxEventAgeSeconds: 3600,
  input: catalogRefreshInput('catalog'),
};

/** Every schedule rule of the stack; the simulated Lambda service fires the same ones. */
export const SCHEDULES: readonly ScheduleSpec[] = [
  SWEEP_SCHEDULE,
  CATALOG_SPOT_SCHEDULE,
  CATALOG_TYPES_SCHEDULE,
];

/** The EventBridge schedule expression of a schedule, as the template holds it. */
export function scheduleExpression(schedule: ScheduleSpec): string {
  const n = schedule.rateMinutes;
  if (n % 60 === 0) return `rate(${n / 60} ${n === 60 ? 'hour' : 'hours'})`;
  return `rate(${n} ${n === 1 ? 'minute' : 'minutes'})`;
}
