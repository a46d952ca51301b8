import { Duration } from 'aws-cdk-lib';
import { type EventPattern, type IEventBus, Rule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import type { Construct } from 'constructs';
import type { EventRuleSpec } from '../../functions/shared/event-rules.js';
import { applyTargetInput } from './target-input.js';
import type { WorkQueues } from './work-queues.js';

/** How long EventBridge retries a rule target before the event goes to the dead-letter queue. */
export const RULE_TARGET_RETRY = { attempts: 185, maxEventAgeSeconds: 24 * 3600 } as const;

/** Maps an event pattern's JSON field names to the CDK `EventPattern` property names. */
function toCdkPattern(pattern: EventRuleSpec['pattern']): EventPattern {
  const renamed = Object.entries(pattern).map(([key, value]) => [
    key === 'detail-type' ? 'detailType' : key,
    value,
  ]);
  return Object.fromEntries(renamed) as EventPattern;
}

/**
 * Creates the EventBridge rule a shared rule description asks for, delivering the event (or what the
 * description's target input makes of it) to the described queue (the queue policy only lets this
 * rule send); what EventBridge cannot deliver after its retries goes to the rule targets'
 * dead-letter queue.
 */
export function ruleFromSpec(
  scope: Construct,
  spec: EventRuleSpec,
  bus: IEventBus | undefined,
  queues: WorkQueues,
) {
  const rule = new Rule(scope, spec.id, {
    eventBus: bus,
    description: spec.description,
    eventPattern: toCdkPattern(spec.pattern),
  });
  rule.addTarget(
    new SqsQueue(queues.queue(spec.queue), {
      deadLetterQueue: queues.ruleTargetDeadLetters,
      retryAttempts: RULE_TARGET_RETRY.attempts,
      maxEventAge: Duration.seconds(RULE_TARGET_RETRY.maxEventAgeSeconds),
    }),
  );
  applyTargetInput(rule, spec.input);
  return rule;
}
