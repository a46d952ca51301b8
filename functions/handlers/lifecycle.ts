/**
 * The lifecycle Lambda: node and pod hints from the lifecycle queue (NodeRegistered, NodeReady,
 * PodReady, PodGone, NodeDeleted) reconcile joiner's nodeclaims and nodes. Hints that lead to the
 * same work are handled once per batch (core/lifecycle/batch-hints.ts). Malformed messages and
 * messages whose handling failed are reported as batch item failures; the rest of the batch is
 * handled.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import {
  boundPodDetail,
  eventEnvelope,
  nodeDeletedDetail,
  nodeDetail,
} from '../core/events/joiner-events.js';
import { groupHints } from '../core/lifecycle/batch-hints.js';
import { readClusterConfig } from '../core/lifecycle/cluster-config.js';
import { handleLifecycleEvent, type LifecycleEvent } from '../core/lifecycle/handle-lifecycle-event.js';
import { lifecycleDeps } from '../core/lifecycle/lifecycle-deps.js';
import { DETAIL_TYPES } from '../shared/event-rules.js';
import { METRIC_NAMES } from '../shared/metrics.js';
import { lambdaHandler, recordMetrics } from './runtime/lambda.js';
import { type PortDependencies, portDependenciesFromEnv } from './runtime/port-dependencies.js';
import { parseSqsRecord } from './runtime/sqs-batch.js';

/** What the lifecycle function needs. */
export type LifecycleHandlerDeps = Pick<PortDependencies, 'clock' | 'log' | 'cluster' | 'store' | 'timers'> &
  Partial<Pick<PortDependencies, 'settings'>>;

/** One message of the lifecycle queue: the EventBridge envelope of a node or pod hint. */
export const lifecycleMessage = z.union([
  eventEnvelope.extend({
    'detail-type': z.enum([DETAIL_TYPES.nodeRegistered, DETAIL_TYPES.nodeReady]),
    detail: nodeDetail,
  }),
  eventEnvelope.extend({
    'detail-type': z.enum([DETAIL_TYPES.podReady, DETAIL_TYPES.podGone]),
    detail: boundPodDetail,
  }),
  eventEnvelope.extend({ 'detail-type': z.literal(DETAIL_TYPES.nodeDeleted), detail: nodeDeletedDetail }),
]);

/** Builds the lifecycle handler. */
export function createLifecycleHandler(getDeps: () => LifecycleHandlerDeps) {
  return lambdaHandler<SQSEvent, SQSBatchResponse>(async (event) => {
    const ports = getDeps();
    const deps = lifecycleDeps(ports, () => readClusterConfig(ports.cluster, ports.settings?.karpenterKinds));
    const failures: string[] = [];
    const read: { messageId: string; event: LifecycleEvent }[] = [];
    for (const record of event.Records ?? []) {
      const message = parseSqsRecord(record, lifecycleMessage, ports.log);
      if (message === undefined) failures.push(record.messageId);
      else
        read.push({
          messageId: record.messageId,
          event: { detailType: message['detail-type'], detail: message.detail } as LifecycleEvent,
        });
    }
    // The hints that lead to the same work are handled once (batch-hints.ts), the rest in parallel;
    // the messages of a piece of work that throws are reported as batch item failures.
    await Promise.all(
      groupHints(read).map(async (hint) => {
        try {
          await handleLifecycleEvent(deps, hint.event);
        } catch (error) {
          ports.log.error('lifecycle event failed', { messageIds: hint.messageIds, error: String(error) });
          failures.push(...hint.messageIds);
        }
      }),
    );
    recordMetrics({
      LifecycleEvents: read.length,
      [METRIC_NAMES.failedMessages]: failures.length,
    });
    const failed = new Set(failures);
    // In the batch's order.
    return {
      batchItemFailures: (event.Records ?? [])
        .filter((r) => failed.has(r.messageId))
        .map((r) => ({ itemIdentifier: r.messageId })),
    };
  });
}

/** The Lambda entry point. */
export const handler = createLifecycleHandler(() => portDependenciesFromEnv(process.env));
