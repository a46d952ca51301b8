/**
 * The lifecycle Lambda: node and pod hints from the lifecycle queue (NodeRegistered, NodeReady,
 * PodReady, PodGone) reconcile joiner's nodeclaims and nodes. Malformed messages and messages
 * whose handling failed are reported as batch item failures; the rest of the batch is handled.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { boundPodDetail, eventEnvelope, nodeDetail } from '../core/events/joiner-events.js';
import { readClusterConfig } from '../core/lifecycle/cluster-config.js';
import { handleLifecycleEvent } from '../core/lifecycle/handle-lifecycle-event.js';
import { lifecycleDeps } from '../core/lifecycle/lifecycle-deps.js';
import { DETAIL_TYPES } from '../shared/event-rules.js';
import { METRIC_NAMES } from '../shared/metrics.js';
import { lambdaHandler, parseSqsBatch, recordMetrics } from './runtime/lambda.js';
import { type PortDependencies, portDependenciesFromEnv } from './runtime/port-dependencies.js';

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
]);

/** Builds the lifecycle handler. */
export function createLifecycleHandler(getDeps: () => LifecycleHandlerDeps) {
  return lambdaHandler<SQSEvent, SQSBatchResponse>(async (event) => {
    const ports = getDeps();
    const deps = lifecycleDeps(ports, () => readClusterConfig(ports.cluster, ports.settings?.karpenterKinds));
    const batch = parseSqsBatch(event, lifecycleMessage, ports.log);
    const results = await Promise.allSettled(
      batch.items.map(({ body }) =>
        handleLifecycleEvent(deps, { detailType: body['detail-type'], detail: body.detail } as Parameters<
          typeof handleLifecycleEvent
        >[1]),
      ),
    );
    const failed = batch.items.filter((item, i) => {
      const result = results[i];
      if (result?.status !== 'rejected') return false;
      ports.log.error('lifecycle event failed', { messageId: item.messageId, error: String(result.reason) });
      return true;
    });
    recordMetrics({
      LifecycleEvents: batch.items.length,
      [METRIC_NAMES.failedMessages]: batch.failures.length + failed.length,
    });
    return {
      batchItemFailures: [...batch.failures, ...failed.map((i) => ({ itemIdentifier: i.messageId }))],
    };
  });
}

/** The Lambda entry point. */
export const handler = createLifecycleHandler(() => portDependenciesFromEnv(process.env));
