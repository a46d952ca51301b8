/**
 * The interruption Lambda: EC2 spot interruption warnings, rebalance recommendations, instance
 * state changes and AWS Health scheduled changes from the interruption queue. A message that
 * cannot be read or whose handling failed is a batch item failure; the rest are handled.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import type { InterruptionDeps } from '../core/interruption/handle-interruption.js';
import { handleInterruption } from '../core/interruption/handle-interruption.js';
import { readInterruptionEvent } from '../core/interruption/interruption-notice.js';
import { METRIC_NAMES } from '../shared/metrics.js';
import { lambdaHandler, parseSqsBatch, recordMetrics } from './runtime/lambda.js';
import { type PortDependencies, portDependenciesFromEnv } from './runtime/port-dependencies.js';

/** What the interruption function needs. */
export type InterruptionHandlerDeps = Pick<
  PortDependencies,
  'clock' | 'log' | 'cluster' | 'store' | 'cloud' | 'timers'
>;

/** One message of the interruption queue: an EventBridge event (its detail is read per detail-type). */
export const interruptionMessage = z.object({ 'detail-type': z.string(), detail: z.unknown() }).passthrough();

/** Builds the interruption handler. */
export function createInterruptionHandler(getDeps: () => InterruptionHandlerDeps) {
  return lambdaHandler<SQSEvent, SQSBatchResponse>(async (event) => {
    const deps: InterruptionDeps = getDeps();
    const batch = parseSqsBatch(event, interruptionMessage, deps.log);
    const failures = [...batch.failures];
    await Promise.all(
      batch.items.map(async (item) => {
        try {
          for (const notice of readInterruptionEvent(item.body)) await handleInterruption(deps, notice);
        } catch (error) {
          deps.log.error('interruption event failed', { messageId: item.messageId, error: String(error) });
          failures.push({ itemIdentifier: item.messageId });
        }
      }),
    );
    recordMetrics({
      [METRIC_NAMES.interruptionEvents]: batch.items.length,
      [METRIC_NAMES.failedMessages]: failures.length,
    });
    return { batchItemFailures: failures };
  });
}

/** The Lambda entry point. */
export const handler = createInterruptionHandler(() => portDependenciesFromEnv(process.env));
