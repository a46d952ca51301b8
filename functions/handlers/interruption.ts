/**
 * The interruption Lambda: EC2 spot interruption warnings, rebalance recommendations, instance
 * state changes and AWS Health scheduled changes from the interruption queue. A message that
 * cannot be read or whose handling failed is a batch item failure; the rest are handled. Notices
 * about one instance are handled in batch order, repeats once (batch-notices.ts).
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { groupNotices } from '../core/interruption/batch-notices.js';
import type { InterruptionDeps } from '../core/interruption/handle-interruption.js';
import { handleInterruption } from '../core/interruption/handle-interruption.js';
import { type InterruptionNotice, readInterruptionEvent } from '../core/interruption/interruption-notice.js';
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
    const read: { messageId: string; notices: InterruptionNotice[] }[] = [];
    for (const item of batch.items) {
      try {
        read.push({ messageId: item.messageId, notices: readInterruptionEvent(item.body) });
      } catch (error) {
        deps.log.error('interruption event failed', { messageId: item.messageId, error: String(error) });
        failures.push({ itemIdentifier: item.messageId });
      }
    }
    const { byInstance, duplicates } = groupNotices(read);
    for (const d of duplicates)
      deps.log.info('duplicate interruption notice in the batch', {
        messageId: d.messageId,
        instance: d.notice.instanceId,
        kind: d.notice.kind,
      });
    const failed = new Set<string>();
    await Promise.all(
      [...byInstance.values()].map(async (notices) => {
        for (const { notice, messageIds } of notices) {
          try {
            await handleInterruption(deps, notice);
          } catch (error) {
            deps.log.error('interruption event failed', { messageIds, error: String(error) });
            for (const id of messageIds) failed.add(id);
          }
        }
      }),
    );
    for (const id of failed) failures.push({ itemIdentifier: id });
    recordMetrics({
      [METRIC_NAMES.interruptionEvents]: batch.items.length,
      [METRIC_NAMES.failedMessages]: failures.length,
    });
    return { batchItemFailures: failures };
  });
}

/** The Lambda entry point. */
export const handler = createInterruptionHandler(() => portDependenciesFromEnv(process.env));
