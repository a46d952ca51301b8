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
import { type Dependencies, dependenciesFromEnv } from './runtime/dependencies.js';
import { lambdaHandler, parseSqsBatch, recordMetrics } from './runtime/lambda.js';

/** What the disruption function needs (the catalog: drains launch replacement capacity). */
export type DisruptionHandlerDeps = Pick<
  Dependencies,
  'clock' | 'log' | 'cluster' | 'store' | 'cloud' | 'events' | 'timers' | 'catalog'
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
      const d = outcome.disruption;
      ports.log.info('sweep finished', {
        timers: outcome.timers.length,
        'drain-steps': d.steps,
        disrupting: d.started.length,
        'disruption-blocked': d.blocked,
        terminated: d.terminated,
        'orphaned-instances': outcome.orphans.terminatedInstances.length,
        'retired-nodeclaims': outcome.orphans.retiredClaims.length,
        republished: outcome.republished.length,
      });
      recordMetrics({
        TimersHandled: outcome.timers.length,
        DrainSteps: d.steps,
        NodesTerminated: d.terminated,
        DisruptionBlocked: d.blocked,
        ...disruptedByReason(d.started),
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

/** `NodesDisrupted<Reason>` counts of the drains a sweep started (metric names have no spaces). */
function disruptedByReason(started: readonly { readonly cause: string }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { cause } of started) {
    const name = `NodesDisrupted${cause.replace(/(^|\s)(\w)/g, (_m, _s, c: string) => c.toUpperCase())}`;
    out[name] = (out[name] ?? 0) + 1;
  }
  return out;
}

/** The Lambda entry point. */
export const handler = createDisruptionHandler(() => dependenciesFromEnv(process.env));
