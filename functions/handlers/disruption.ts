/**
 * The disruption Lambda. The 1-minute schedule (a Scheduled Event) runs the sweep: due timers,
 * orphan GC and the unschedulable-pod safety net. Messages of the timers queue
 * (`{nodeClaimId, dueAt}`) act on that claim's due timers; a malformed or failing message is a
 * batch item failure.
 */

import type { ScheduledEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import type { ConsolidationMemory } from '../core/disruption/consolidation/search-fingerprint.js';
import type { DisruptionOutcome } from '../core/disruption/run-disruption.js';
import { sweepWindow } from '../core/status/pod-startup.js';
import { handleTimerMessages, runSweep } from '../core/sweep/run-sweep.js';
import { sweepDepsFrom } from '../core/sweep/sweep-deps-from.js';
import { SWEEP_SCHEDULE } from '../shared/event-sources.js';
import {
  KARPENTER_METRICS,
  karpenterConsolidationType,
  karpenterReason,
} from '../shared/karpenter-metrics.js';
import { METRIC_NAMES } from '../shared/metrics.js';
import { runtimeTimersOf } from '../shared/runtime-timers.js';
import { type Dependencies, dependenciesFromEnv } from './runtime/dependencies.js';
import { lambdaHandler, parseSqsBatch, recordDimensionedMetric, recordMetrics } from './runtime/lambda.js';

/** What the disruption function needs (the catalog: drains launch replacement capacity). */
export type DisruptionHandlerDeps = Pick<
  Dependencies,
  'clock' | 'log' | 'cluster' | 'store' | 'cloud' | 'events' | 'timers' | 'catalog'
> &
  Partial<Pick<Dependencies, 'settings' | 'catalogSource'>>;

/** One message of the timers queue. */
export const timerMessage = z.object({ nodeClaimId: z.string().min(1), dueAt: z.number().finite() });

function isSqsEvent(event: unknown): event is SQSEvent {
  return typeof event === 'object' && event !== null && Array.isArray((event as SQSEvent).Records);
}

function isScheduledEvent(event: unknown): event is ScheduledEvent {
  return (
    typeof event === 'object' &&
    event !== null &&
    (event as ScheduledEvent)['detail-type'] === 'Scheduled Event'
  );
}

/** Builds the disruption handler. */
export function createDisruptionHandler(getDeps: () => DisruptionHandlerDeps) {
  // Lives as long as the function instance: a search of an unchanged cluster is not repeated.
  const consolidationMemory: ConsolidationMemory = {};
  return lambdaHandler<ScheduledEvent | SQSEvent, SQSBatchResponse | undefined>(async (event, context) => {
    const ports = getDeps();
    // Drains launch replacement capacity: their provisioning runs keep clear of the deadline.
    const remainingMs =
      typeof context.getRemainingTimeInMillis === 'function'
        ? () => context.getRemainingTimeInMillis()
        : undefined;
    const catalog = ports.catalogSource ? await ports.catalogSource.current() : ports.catalog;
    // Leases and the drains' provisioning waits run on the runtime's time (virtual when simulated).
    const runtime = runtimeTimersOf(context);
    const deps = sweepDepsFrom({
      ...ports,
      catalog,
      remainingMs,
      leaseClock: { now: runtime.now },
      sleep: runtime.sleep,
      nodeRoles: ports.settings?.nodeRoleArns,
      karpenterKinds: ports.settings?.karpenterKinds,
      consolidationMemory,
    });
    if (isScheduledEvent(event)) {
      // The minute before the scheduled time (EventBridge's `time`): consecutive sweeps measure
      // consecutive windows, whenever each one actually runs.
      const scheduledAt = Date.parse(event.time);
      const window = sweepWindow(
        Number.isFinite(scheduledAt) ? scheduledAt : ports.clock.now(),
        SWEEP_SCHEDULE.rateMinutes * 60_000,
      );
      const outcome = await runSweep(deps, window);
      const d = outcome.disruption;
      ports.log.info('sweep finished', {
        'resumed-launches': outcome.resumedLaunches.resumed.length,
        timers: outcome.timers.length,
        'drain-steps': d.steps,
        disrupting: d.started.length,
        'disruption-blocked': d.blocked,
        terminated: d.terminated.length,
        'orphaned-instances': outcome.orphans.terminatedInstances.length,
        'retired-nodeclaims': outcome.orphans.retiredClaims.length,
        'deleted-instance-profiles': outcome.nodeClassResources.length,
        republished: outcome.republished.length,
        'nodeclaim-resources-written': outcome.status.nodeClaimsWritten,
        'nodeclaim-resources-deleted': outcome.status.nodeClaimsDeleted,
      });
      recordMetrics({
        TimersHandled: outcome.timers.length,
        DrainSteps: d.steps,
        DisruptionBlocked: d.blocked,
        OrphanedInstancesTerminated: outcome.orphans.terminatedInstances.length,
        NodeClaimsRetired: outcome.orphans.retiredClaims.length,
        UnschedulablePodsRepublished: outcome.republished.length,
      });
      recordDisruption(d);
      for (const seconds of outcome.podStartups)
        recordDimensionedMetric(KARPENTER_METRICS.podStartupDuration, seconds, 'Seconds', {});
      return undefined;
    }
    if (!isSqsEvent(event))
      throw new Error('disruption: expected a Scheduled Event or an SQS batch from the timers queue');
    const batch = parseSqsBatch(event, timerMessage, ports.log);
    const failures = [...batch.failures];
    // One disruption round for the whole batch (handleTimerMessages).
    const handled = await handleTimerMessages(
      deps,
      batch.items.map((item) => item.body),
    );
    batch.items.forEach((item, i) => {
      const outcome = handled.outcomes[i];
      if (!(outcome instanceof Error)) return;
      ports.log.error('timer failed', {
        messageId: item.messageId,
        nodeclaim: item.body.nodeClaimId,
        error: String(outcome),
      });
      failures.push({ itemIdentifier: item.messageId });
    });
    const outcomes: DisruptionOutcome[] = handled.disruption ? [handled.disruption] : [];
    recordMetrics({ TimersHandled: batch.items.length, [METRIC_NAMES.failedMessages]: failures.length });
    for (const outcome of outcomes) recordDisruption(outcome);
    return { batchItemFailures: failures };
  });
}

/**
 * Metrics of a disruption round by NodePool and reason: nodes disrupted (drains started), nodes
 * terminated with their drain duration, voluntary decisions (Karpenter's names) and evictions
 * PodDisruptionBudgets refused. Call it inside a handler (the metrics are flushed per invocation).
 */
export function recordDisruption(d: DisruptionOutcome): void {
  for (const s of d.started) {
    recordDimensionedMetric('NodesDisrupted', 1, 'Count', { nodepool: s.nodePool, reason: s.cause });
    recordDimensionedMetric(KARPENTER_METRICS.nodeClaimsDisrupted, 1, 'Count', {
      nodepool: s.nodePool,
      reason: karpenterReason(s.cause),
    });
  }
  for (const t of d.terminated) {
    const dimensions = { nodepool: t.nodePool, reason: t.cause };
    recordDimensionedMetric('NodesTerminated', 1, 'Count', dimensions);
    recordDimensionedMetric('DrainDuration', t.drainMs, 'Milliseconds', dimensions);
    recordDimensionedMetric(KARPENTER_METRICS.nodeClaimsTerminated, 1, 'Count', { nodepool: t.nodePool });
  }
  for (const decision of d.decisions) {
    const type = karpenterConsolidationType(decision.reason, decision.nodes);
    recordDimensionedMetric(KARPENTER_METRICS.disruptionDecisions, 1, 'Count', {
      decision: decision.decision,
      reason: decision.reason,
      // CloudWatch has no empty dimension values: Karpenter's "" (not consolidation) is left out.
      ...(type ? { consolidation_type: type } : {}),
    });
  }
  if (d.evictionsRefused > 0) recordMetrics({ EvictionsRefused: d.evictionsRefused });
}

/** The Lambda entry point. */
export const handler = createDisruptionHandler(() => dependenciesFromEnv(process.env));
