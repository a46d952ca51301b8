import { type EventPattern, type IEventBus, Rule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import type { Construct } from 'constructs';
import type { EventRuleSpec } from '../../functions/shared/event-rules.js';
import { applyTargetInput } from './target-input.js';
import type { WorkQueues } from './work-queues.js';

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
 * rule send).
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
  rule.addTarget(new SqsQueue(queues.queue(spec.queue)));
  applyTargetInput(rule, spec.input);
  return rule;
}
