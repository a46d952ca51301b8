import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import middy, { type MiddlewareObj, type MiddyfiedHandler } from '@middy/core';
import type { Context } from 'aws-lambda';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '../../shared/metrics.js';
import { withEarlyTimeout } from './early-timeout.js';

/** Service name of joiner's logs and metrics (POWERTOOLS_SERVICE_NAME overrides it). */
export const SERVICE_NAME = 'joiner';

/** The Powertools logger of this Lambda process (JSON lines with the invocation context). */
export const logger = new Logger({ serviceName: SERVICE_NAME });

/**
 * The Powertools metrics of this Lambda process (EMF, flushed after each invocation), in the
 * namespace and with the `service` dimension the stack's dashboard and alarms query.
 */
export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE });

/** A plain async Lambda handler. */
export type LambdaFunction<TEvent, TResult> = (event: TEvent, context: Context) => Promise<TResult>;

/** Adds counts (unit Count) and durations (unit Milliseconds) to this invocation's metrics. */
export function recordMetrics(
  counts: Readonly<Record<string, number>>,
  durationsMs: Readonly<Record<string, number>> = {},
): void {
  for (const [name, value] of Object.entries(counts)) metrics.addMetric(name, MetricUnit.Count, value);
  for (const [name, value] of Object.entries(durationsMs))
    metrics.addMetric(name, MetricUnit.Milliseconds, value);
}

/**
 * Records one metric with its own dimensions (e.g. a NodePool and a reason), published at once as
 * its own EMF line when running in Lambda; dropped elsewhere, as {@link recordMetrics} is.
 */
export function recordDimensionedMetric(
  name: string,
  value: number,
  unit: 'Count' | 'Milliseconds' | 'Seconds',
  dimensions: Readonly<Record<string, string>>,
): void {
  if (!process.env.AWS_LAMBDA_FUNCTION_NAME) return;
  const single = metrics.singleMetric();
  for (const [key, v] of Object.entries(dimensions)) single.addDimension(key, v);
  single.addMetric(
    name,
    unit === 'Count' ? MetricUnit.Count : unit === 'Seconds' ? MetricUnit.Seconds : MetricUnit.Milliseconds,
    value,
  );
}

/**
 * Publishes the invocation's metrics as EMF when running in Lambda; elsewhere (the simulated
 * cloud and tests run handlers in-process) they are dropped, so they never mix into CLI output.
 * An invocation that recorded nothing publishes nothing.
 */
function flushMetrics(): void {
  if (!metrics.hasStoredMetrics()) return;
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) metrics.publishStoredMetrics();
  else metrics.clearMetrics();
}

const metricsFlush: MiddlewareObj = { after: flushMetrics, onError: flushMetrics };

/**
 * Wraps a handler in middy with the Powertools logger middleware (the logger gets the Lambda
 * context: request id, cold start) and flushes the metrics the handler recorded. The handler fails
 * shortly before its deadline (early-timeout.ts) on the timers the context's remaining time is
 * measured with; middy's own early timeout, a wall-time timer, is off.
 */
export function lambdaHandler<TEvent, TResult>(
  handler: LambdaFunction<TEvent, TResult>,
): MiddyfiedHandler<TEvent, TResult> {
  return middy<TEvent, TResult>({ timeoutEarlyInMillis: 0 })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(metricsFlush)
    .handler(withEarlyTimeout(handler));
}

export { type ParsedSqsBatch, parseSqsBatch } from './sqs-batch.js';
