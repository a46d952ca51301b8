/**
 * The lifecycle Lambda: node and pod hints from the lifecycle queue (NodeRegistered, NodeReady,
 * PodReady, PodGone, NodeDeleted) reconcile joiner's nodeclaims and nodes. Malformed messages and messages
 * whose handling failed are reported as batch item failures (Powertools' batch processor); the rest
 * of the batch is handled.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from 'zod';
import {
  boundPodDetail,
  eventEnvelope,
  nodeDeletedDetail,
  nodeDetail,
} from '../core/events/joiner-events.js';
import { readClusterConfig } from '../core/lifecycle/cluster-config.js';
import { handleLifecycleEvent } from '../core/lifecycle/handle-lifecycle-event.js';
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
    let wellFormed = 0;
    // Powertools runs the records in parallel and reports each one that throws as a batch item
    // failure; a processor per invocation, as concurrent invocations share this module.
    const processor = new BatchProcessor(EventType.SQS);
    const response = await processPartialResponse(
      { Records: event.Records ?? [] },
      async (record: SQSRecord) => {
        const message = parseSqsRecord(record, lifecycleMessage, ports.log);
        if (message === undefined) throw new Error('malformed message');
        wellFormed++;
        try {
          await handleLifecycleEvent(deps, {
            detailType: message['detail-type'],
            detail: message.detail,
          } as Parameters<typeof handleLifecycleEvent>[1]);
        } catch (error) {
          ports.log.error('lifecycle event failed', { messageId: record.messageId, error: String(error) });
          throw error;
        }
      },
      processor,
      { throwOnFullBatchFailure: false },
    );
    recordMetrics({
      LifecycleEvents: wellFormed,
      [METRIC_NAMES.failedMessages]: response.batchItemFailures.length,
    });
    return {
      batchItemFailures: response.batchItemFailures.map((f) => ({ itemIdentifier: f.itemIdentifier })),
    };
  });
}

/** The Lambda entry point. */
export const handler = createLifecycleHandler(() => portDependenciesFromEnv(process.env));
