/**
 * The disruption Lambda. The 1-minute schedule (a Scheduled Event) runs the sweep: due timers,
 * orphan GC and the unschedulable-pod safety net. Messages of the timers queue
 * (`{nodeClaimId, dueAt}`) act on that claim's due timers; a malformed or failing message is a
 * batch item failure.
 */
import type { ScheduledEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { handleTimerMessage, runSweep } from '../core/sweep/run-sweep.js';
import { sweepDepsFrom } from '../core/sweep/sweep-deps-from.js';
import { lambdaHandler, parseSqsBatch, recordMetrics } from './runtime/lambda.js';
import { type PortDependencies, portDependenciesFromEnv } from './runtime/port-dependencies.js';

/** What the disruption function needs. */
export type DisruptionHandlerDeps = Pick<
  PortDependencies,
  'clock' | 'log' | 'cluster' | 'store' | 'cloud' | 'events' | 'timers'
>;

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
  return lambdaHandler<ScheduledEvent | SQSEvent, SQSBatchResponse | undefined>(async (event) => {
    const ports = getDeps();
    const deps = sweepDepsFrom(ports);
    if (isScheduledEvent(event)) {
      const outcome = await runSweep(deps);
      ports.log.info('sweep finished', {
        timers: outcome.timers.length,
        'orphaned-instances': outcome.orphans.terminatedInstances.length,
        'retired-nodeclaims': outcome.orphans.retiredClaims.length,
        republished: outcome.republished.length,
      });
      recordMetrics({
        TimersHandled: outcome.timers.length,
        OrphanedInstancesTerminated: outcome.orphans.terminatedInstances.length,
        NodeClaimsRetired: outcome.orphans.retiredClaims.length,
        UnschedulablePodsRepublished: outcome.republished.length,
      });
      return undefined;
    }
    if (!isSqsEvent(event))
      throw new Error('disruption: expected a Scheduled Event or an SQS batch from the timers queue');
    const batch = parseSqsBatch(event, timerMessage, ports.log);
    const failures = [...batch.failures];
    for (const item of batch.items) {
      try {
        await handleTimerMessage(deps, item.body);
      } catch (error) {
        ports.log.error('timer failed', {
          messageId: item.messageId,
          nodeclaim: item.body.nodeClaimId,
          error: String(error),
        });
        failures.push({ itemIdentifier: item.messageId });
      }
    }
    recordMetrics({ TimersHandled: batch.items.length, FailedMessages: failures.length });
    return { batchItemFailures: failures };
  });
}

/** The Lambda entry point. */
export const handler = createDisruptionHandler(() => portDependenciesFromEnv(process.env));
