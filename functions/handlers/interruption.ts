/**
 * The interruption Lambda: EC2 spot interruption warnings, rebalance recommendations, instance
 * state changes and AWS Health scheduled changes from the interruption queue. A message that
 * cannot be read or whose handling failed is a batch item failure; the rest are handled. Notices
 * about one instance are handled in batch order, repeats once (batch-notices.ts). An event from
 * another account or region than the function's own (event-origin.ts) is refused before anything
 * is read or done: logged at its first receive only and reported as a batch item failure every
 * time, so the queue's redrive policy moves it to the dead-letter queue (and its alarm fires).
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { groupNotices } from '../core/interruption/batch-notices.js';
import { originMismatch, stackOriginOf } from '../core/interruption/event-origin.js';
import type { InterruptionDeps } from '../core/interruption/handle-interruption.js';
import { handleInterruption } from '../core/interruption/handle-interruption.js';
import { type InterruptionNotice, readInterruptionEvent } from '../core/interruption/interruption-notice.js';
import { KARPENTER_METRICS, karpenterMessageType } from '../shared/karpenter-metrics.js';
import { METRIC_NAMES } from '../shared/metrics.js';
import { lambdaHandler, parseSqsBatch, recordDimensionedMetric, recordMetrics } from './runtime/lambda.js';
import { type PortDependencies, portDependenciesFromEnv } from './runtime/port-dependencies.js';

/**
 * What the interruption function needs; the settings give the state table's name, the identity
 * joiner tags its instances with (an instance of this table whose claim record is missing is
 * adopted before a notice drains it; without it none is).
 */
export type InterruptionHandlerDeps = Pick<
  PortDependencies,
  'clock' | 'log' | 'cluster' | 'store' | 'cloud' | 'timers'
> &
  Partial<Pick<PortDependencies, 'settings' | 'events'>>;

/** One message of the interruption queue: an EventBridge event (its detail is read per detail-type). */
export const interruptionMessage = z
  .object({
    'detail-type': z.string(),
    detail: z.unknown(),
    account: z.unknown().optional(),
    region: z.unknown().optional(),
    resources: z.unknown().optional(),
  })
  .passthrough();

/** Builds the interruption handler. */
export function createInterruptionHandler(getDeps: () => InterruptionHandlerDeps) {
  return lambdaHandler<SQSEvent, SQSBatchResponse>(async (event, context) => {
    const ports = getDeps();
    const owner = tableNameOf(ports);
    const deps: InterruptionDeps = owner ? withOwner(ports, owner) : ports;
    const batch = parseSqsBatch(event, interruptionMessage, deps.log);
    const failures = [...batch.failures];
    const read: { messageId: string; notices: InterruptionNotice[] }[] = [];
    const stack = stackOriginOf(context?.invokedFunctionArn);
    if (!stack)
      throw new Error(
        `interruption: cannot tell the stack's account and region from the invoked function ARN ${JSON.stringify(context?.invokedFunctionArn)}`,
      );
    const firstReceive = new Map(
      (event.Records ?? []).map((r) => [r.messageId, (r.attributes?.ApproximateReceiveCount ?? '1') === '1']),
    );
    for (const item of batch.items) {
      const mismatch = originMismatch(item.body, stack);
      if (mismatch) {
        const fields = { messageId: item.messageId, reason: mismatch };
        if (firstReceive.get(item.messageId) !== false)
          deps.log.error(
            "interruption event refused: not from this stack's account and region; it goes to the dead-letter queue",
            fields,
          );
        else deps.log.debug('interruption event refused again', fields);
        failures.push({ itemIdentifier: item.messageId });
        continue;
      }
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
            const outcome = await handleInterruption(deps, notice);
            // Karpenter's count: actionable when joiner acted on it (not ignored, not only noted).
            recordDimensionedMetric(KARPENTER_METRICS.interruptionMessages, messageIds.length, 'Count', {
              message_type: karpenterMessageType(notice.kind, notice.state),
              actionable: String(outcome !== 'ignored' && outcome !== 'noted'),
            });
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

/** The state table's name, or undefined when it is not configured. */
function tableNameOf(ports: InterruptionHandlerDeps): string | undefined {
  try {
    return ports.settings?.tableName;
  } catch {
    return undefined;
  }
}

/** `ports` with `owner` (its members stay built on first use). */
function withOwner(ports: InterruptionHandlerDeps, owner: string): InterruptionDeps {
  return Object.assign(Object.create(ports) as InterruptionHandlerDeps, { owner });
}

/** The Lambda entry point. */
export const handler = createInterruptionHandler(() => portDependenciesFromEnv(process.env));
