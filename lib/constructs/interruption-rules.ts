import type { Rule } from 'aws-cdk-lib/aws-events';
import { Construct } from 'constructs';
import { DEFAULT_BUS_NAME, rulesOnBus } from '../../functions/shared/event-rules.js';
import { ruleFromSpec } from './event-rule.js';
import type { WorkQueues } from './work-queues.js';

/** Properties of {@link InterruptionRules}. */
export interface InterruptionRulesProps {
  /** The queues; the rules deliver to the interruption queue. */
  readonly queues: WorkQueues;
}

/**
 * Rules on the account's default bus that route spot interruption warnings, rebalance
 * recommendations, instance state changes and AWS Health scheduled changes to the interruption
 * queue (from the shared rule description).
 */
export class InterruptionRules extends Construct {
  /** The rules, by rule id. */
  readonly rules: Readonly<Record<string, Rule>>;

  constructor(scope: Construct, id: string, props: InterruptionRulesProps) {
    super(scope, id);
    this.rules = Object.fromEntries(
      rulesOnBus(DEFAULT_BUS_NAME).map((spec) => [
        spec.id,
        ruleFromSpec(this, spec, undefined, props.queues),
      ]),
    );
  }
}
