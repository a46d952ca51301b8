/**
 * Installs joiner's bus and rules (functions/shared/event-rules.ts) in the simulated EventBridge,
 * each rule targeting its queue with the same target input, as the CDK stack does in AWS.
 */
import { EVENT_RULES, JOINER_BUS_NAME } from '../../shared/event-rules.js';
import type { QueueName } from '../../shared/event-sources.js';
import type { EventBusRegistry } from './event-bus.js';

/** Creates joiner's custom bus (if missing) and every rule with its SQS target. */
export function installJoinerRules(registry: EventBusRegistry, queueArns: Record<QueueName, string>): void {
  if (!registry.hasBus(JOINER_BUS_NAME)) registry.createBus(JOINER_BUS_NAME);
  for (const rule of EVENT_RULES) {
    registry.putRule(rule.bus, rule.id, rule.pattern);
    registry.putTargets(rule.bus, rule.id, [
      { id: `${rule.queue}-queue`, arn: queueArns[rule.queue], input: rule.input },
    ]);
  }
}
