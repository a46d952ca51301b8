import { EventBus, type Rule } from 'aws-cdk-lib/aws-events';
import { Construct } from 'constructs';
import { JOINER_BUS_NAME, rulesOnBus } from '../../functions/shared/event-rules.js';
import { ruleFromSpec } from './event-rule.js';
import type { WorkQueues } from './work-queues.js';

/** Properties of {@link JoinerEventBus}. */
export interface JoinerEventBusProps {
  /** The queues the rules deliver to. */
  readonly queues: WorkQueues;
  /**
   * Name of the custom bus (change it to run two joiners in one account and region).
   * @default 'joiner'
   */
  readonly busName?: string;
}

/**
 * joiner's custom EventBridge bus, where the webhook publishes compact hints, and its rules:
 * unschedulable pods to the provisioning queue; node registration / readiness and pod readiness /
 * deletion to the lifecycle queue (from the shared rule description).
 */
export class JoinerEventBus extends Construct {
  /** The bus. */
  readonly bus: EventBus;
  /** The rules on the bus, by rule id. */
  readonly rules: Readonly<Record<string, Rule>>;

  constructor(scope: Construct, id: string, props: JoinerEventBusProps) {
    super(scope, id);
    this.bus = new EventBus(this, 'Bus', { eventBusName: props.busName ?? JOINER_BUS_NAME });
    this.rules = Object.fromEntries(
      rulesOnBus(JOINER_BUS_NAME).map((spec) => [spec.id, ruleFromSpec(this, spec, this.bus, props.queues)]),
    );
  }
}
