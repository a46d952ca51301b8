/**
 * The provisioner Lambda: a batch of PodUnschedulable events from the provisioning queue wakes
 * one provisioning run. Malformed messages are reported as batch item failures (they reach the
 * DLQ); if the run fails (e.g. the API server is unreachable) the whole batch is retried, which
 * is safe because the run is idempotent.
 */

import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import {
  configurationChangedDetail,
  eventEnvelope,
  podUnschedulableDetail,
} from '../core/events/joiner-events.js';
import { batchEvents } from '../core/provisioning/batch-window.js';
import { provision } from '../core/provisioning/provision.js';
import type { ProvisionResult } from '../core/provisioning/types.js';
import { refuseHandMadeNodeClaims } from '../core/status/hand-made-nodeclaims.js';
import { DETAIL_TYPES } from '../shared/event-rules.js';
import { KARPENTER_METRICS } from '../shared/karpenter-metrics.js';
import { METRIC_NAMES } from '../shared/metrics.js';
import { runtimeTimersOf } from '../shared/runtime-timers.js';
import { type Dependencies, dependenciesFromEnv } from './runtime/dependencies.js';
import { lambdaHandler, parseSqsBatch, recordDimensionedMetric, recordMetrics } from './runtime/lambda.js';

/** What the provisioner needs. */
export type ProvisionerDeps = Pick<
  Dependencies,
  'cluster' | 'store' | 'cloud' | 'timers' | 'clock' | 'log' | 'catalog'
> &
  Partial<Pick<Dependencies, 'settings' | 'catalogSource' | 'events'>>;

/**
 * One message of the provisioning queue: the EventBridge envelope of a PodUnschedulable event, or
 * of a ConfigurationChanged event (a NodePool or NodeClass created or changed: the run plans every
 * pending pod, as it always does; the event only wakes it).
 */
export const provisioningMessage = z.discriminatedUnion('detail-type', [
  eventEnvelope.extend({
    'detail-type': z.literal(DETAIL_TYPES.podUnschedulable),
    detail: podUnschedulableDetail,
  }),
  eventEnvelope.extend({
    'detail-type': z.literal(DETAIL_TYPES.configurationChanged),
    detail: configurationChangedDetail,
  }),
]);

/** The fields of a run's result worth one log line. */
export function runSummary(result: ProvisionResult): Record<string, unknown> {
  return {
    hints: result.hints,
    'stale-hints': result.staleHints,
    'pending-pods': result.pendingPods,
    created: result.created.length,
    launched: result.launched.length,
    adopted: result.launched.filter((l) => l.adopted).length,
    failed: result.failed.length,
    ...(result.handedOver ? { 'handed-over': (result.leftForNextRun ?? []).length } : {}),
    resumed: result.resumed.length,
    nominated: result.nominated,
    unschedulable: result.unschedulable.length,
    'scheduling-ms': Math.round(result.schedulingMs),
    'total-ms': Math.round(result.totalMs),
    ...(result.batch ? { 'batch-wait-ms': Math.round(result.batch.waitedMs) } : {}),
  };
}

/**
 * Builds the provisioner handler. A deferred run (another run held the lease too long) or an
 * incomplete one (a launch failed with an error and its claim waits for the next run) reports
 * every message as failed so the batch comes back, unless the run handed what it left over to a
 * new invocation (core/provisioning/handover.ts). A run absorbed by the run holding the lease
 * (which plans every pending pod before it releases) is done.
 */
export function createProvisionerHandler(getDeps: () => ProvisionerDeps) {
  return lambdaHandler<SQSEvent, SQSBatchResponse>(async (event, context) => {
    const deps = getDeps();
    const batch = parseSqsBatch(event, provisioningMessage, deps.log);
    if (batch.items.length === 0) return { batchItemFailures: batch.failures };
    // A timed-out invocation must not start launches its SQS retry may repeat: the run observes
    // the remaining time (and its lease ends shortly after the deadline).
    const remainingMs =
      typeof context.getRemainingTimeInMillis === 'function'
        ? () => context.getRemainingTimeInMillis()
        : undefined;
    // The region's live catalog snapshot (re-loaded after its TTL), or the bundled one as a fallback.
    const catalog = deps.catalogSource ? await deps.catalogSource.current() : deps.catalog;
    // The batch window is measured from when the queue got the messages (Karpenter's batcher
    // from the first trigger), so it holds across invocations whatever slices SQS delivers.
    const parsed = new Set(batch.items.map((i) => i.messageId));
    const sent = event.Records.filter((r) => parsed.has(r.messageId)).map((r) =>
      Number(r.attributes?.SentTimestamp),
    );
    const hints = batch.items.flatMap((i) =>
      i.body['detail-type'] === DETAIL_TYPES.podUnschedulable ? [i.body.detail] : [],
    );
    const changed = batch.items.flatMap((i) =>
      i.body['detail-type'] === DETAIL_TYPES.configurationChanged
        ? [`${i.body.detail.kind}/${i.body.detail.name}`]
        : [],
    );
    if (changed.length > 0) deps.log.info('configuration changed, provisioning', { changed });
    // A karpenter.sh NodeClaim created: refused at once if it was made by hand (the sweep is the fallback).
    if (changed.some((c) => c.startsWith('NodeClaim/')))
      await refuseHandMadeNodeClaims(deps.cluster, deps.log, deps.settings?.karpenterKinds, deps.clock.now());
    // The batch window's polls and the lease's retries wait on the runtime's time (wall time in
    // AWS, the virtual clock in the simulated cloud), as does the lease itself.
    const runtime = runtimeTimersOf(context);
    const result = await provision(
      {
        ...deps,
        catalog,
        remainingMs,
        sleep: runtime.sleep,
        leaseClock: { now: runtime.now },
        nodeRoles: deps.settings?.nodeRoleArns,
        karpenterKinds: deps.settings?.karpenterKinds,
        batchWindow: deps.settings?.batchWindow,
      },
      {
        hints,
        events: batchEvents(sent),
        // A batch's work is every pending pod: the run holding the lease takes it over.
        options: { holder: context.awsRequestId || undefined, absorb: true },
      },
    );
    deps.log.info(
      result.deferred
        ? 'provisioning deferred'
        : result.absorbed
          ? 'provisioning absorbed by the run in progress'
          : 'provisioning run finished',
      runSummary(result),
    );
    recordMetrics(
      {
        [METRIC_NAMES.pendingPods]: result.pendingPods,
        NodeClaimsCreated: result.created.length,
        [METRIC_NAMES.nodeClaimsLaunched]: result.launched.length,
        [METRIC_NAMES.nodeClaimsFailed]: result.failed.length,
        [METRIC_NAMES.insufficientCapacityErrors]: result.markedUnavailable.length,
        PodsNominated: result.nominated,
        [METRIC_NAMES.unschedulablePods]: result.unschedulable.length,
        MalformedMessages: batch.failures.length,
      },
      {
        SchedulingTime: result.schedulingMs,
        [METRIC_NAMES.provisioningTime]: result.totalMs,
        // A deferred or absorbed run read no pod: the run that plans them reports their age.
        ...(result.deferred || result.absorbed
          ? {}
          : { [METRIC_NAMES.oldestPendingPodAge]: result.oldestPendingPodAgeMs }),
      },
    );
    // Karpenter counts a nodeclaim when it is launched for pending pods (an adopted instance is not new).
    for (const claim of result.launched.filter((l) => !l.adopted))
      recordDimensionedMetric(KARPENTER_METRICS.nodeClaimsCreated, 1, 'Count', {
        nodepool: claim.nodePool,
        reason: 'provisioning',
      });
    if (!result.deferred && !result.absorbed) {
      recordDimensionedMetric(KARPENTER_METRICS.schedulingDuration, result.schedulingMs / 1000, 'Seconds', {
        controller: 'provisioner',
      });
    }
    recordCloudProviderErrors(result);
    if (!result.deferred && (!result.incomplete || result.handedOver))
      return { batchItemFailures: batch.failures };
    return {
      batchItemFailures: [...batch.failures, ...batch.items.map((i) => ({ itemIdentifier: i.messageId }))],
    };
  });
}

/** The Lambda entry point. */
export const handler = createProvisionerHandler(() => dependenciesFromEnv(process.env));

/**
 * Karpenter's `karpenter_cloudprovider_errors_total` for a run: one per failed launch (its recorded
 * reason, e.g. `InsufficientCapacity` or `UnauthorizedOperation`) and one per offering EC2 had no
 * capacity for.
 */
function recordCloudProviderErrors(result: Pick<ProvisionResult, 'failed' | 'markedUnavailable'>): void {
  const base = { controller: 'provisioner', method: 'Create', provider: 'aws' };
  for (const f of result.failed)
    recordDimensionedMetric(KARPENTER_METRICS.cloudProviderErrors, 1, 'Count', {
      ...base,
      error: f.failure?.reason ?? 'LaunchFailed',
    });
  for (const _ of result.markedUnavailable)
    recordDimensionedMetric(KARPENTER_METRICS.cloudProviderErrors, 1, 'Count', {
      ...base,
      error: 'InsufficientCapacityError',
    });
}
