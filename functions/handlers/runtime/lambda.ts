import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy, { type MiddyfiedHandler } from '@middy/core';
import type { Context } from 'aws-lambda';

/** Service name of joiner's logs and metrics (POWERTOOLS_SERVICE_NAME overrides it). */
export const SERVICE_NAME = 'joiner';

/** The Powertools logger of this Lambda process (JSON lines with the invocation context). */
export const logger = new Logger({ serviceName: SERVICE_NAME });

/** The Powertools metrics of this Lambda process (EMF, flushed after each invocation). */
export const metrics = new Metrics({ namespace: SERVICE_NAME, serviceName: SERVICE_NAME });

/** A plain async Lambda handler. */
export type LambdaFunction<TEvent, TResult> = (event: TEvent, context: Context) => Promise<TResult>;

/**
 * Wraps a handler in middy with the Powertools middlewares: the logger gets the Lambda context
 * (request id, cold start) and metrics are flushed after every invocation.
 */
export function lambdaHandler<TEvent, TResult>(
  handler: LambdaFunction<TEvent, TResult>,
): MiddyfiedHandler<TEvent, TResult> {
  return middy<TEvent, TResult>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics))
    .handler(handler);
}

export { type ParsedSqsBatch, parseSqsBatch } from './sqs-batch.js';
