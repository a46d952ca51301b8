/**
 * The one description of joiner's EventBridge rules. The CDK stack (lib/) creates exactly these
 * rules and the simulated cloud's EventBridge installs the same ones, so event patterns and targets
 * cannot drift apart. The webhook publishes with {@link JOINER_EVENT_SOURCE} and one of
 * {@link DETAIL_TYPES}; AWS services publish on the default bus.
 */
import type { QueueName } from './event-sources.js';
import type { TargetInput } from './target-input.js';

/** Name of joiner's custom event bus. */
export const JOINER_BUS_NAME = 'joiner';

/** Name of the account's default event bus (where EC2 and AWS Health publish). */
export const DEFAULT_BUS_NAME = 'default';

/** `Source` of every event joiner publishes on its own bus. */
export const JOINER_EVENT_SOURCE = 'joiner';

/** `DetailType` values of the events joiner publishes (compact hints, never trusted as truth). */
export const DETAIL_TYPES = {
  /** A pod's `PodScheduled` condition became False with reason Unschedulable. */
  podUnschedulable: 'PodUnschedulable',
  /** A Node object was created (a launched instance's kubelet registered). */
  nodeRegistered: 'NodeRegistered',
  /** A Node's Ready condition became True. */
  nodeReady: 'NodeReady',
  /** A pod became Ready (e.g. the Multus daemonset pod on a new node). */
  podReady: 'PodReady',
  /** A pod was deleted. */
  podGone: 'PodGone',
  /** A NodePool or NodeClass was created or its spec changed (a provisioning pass follows). */
  configurationChanged: 'ConfigurationChanged',
  /** A Node of joiner's or one of its NodeClaim resources was deleted (its termination starts). */
  nodeDeleted: 'NodeDeleted',
} as const;

/** One of joiner's own detail-types. */
export type JoinerDetailType = (typeof DETAIL_TYPES)[keyof typeof DETAIL_TYPES];

/** `detail-type` values of the AWS events joiner reacts to (default bus). */
export const AWS_DETAIL_TYPES = {
  spotInterruption: 'EC2 Spot Instance Interruption Warning',
  rebalanceRecommendation: 'EC2 Instance Rebalance Recommendation',
  instanceStateChange: 'EC2 Instance State-change Notification',
  healthEvent: 'AWS Health Event',
} as const;

/** An EventBridge event pattern (the JSON the `EventPattern` of a rule holds). */
export type EventPattern = { readonly [field: string]: unknown };

/** One EventBridge rule with a single SQS target. */
export interface EventRuleSpec {
  /** Construct id / rule name suffix, unique across all rules (PascalCase). */
  readonly id: string;
  /** Bus the rule listens on: joiner's custom bus or the default bus. */
  readonly bus: typeof JOINER_BUS_NAME | typeof DEFAULT_BUS_NAME;
  readonly description: string;
  readonly pattern: EventPattern;
  /** The joiner queue that receives matching events. */
  readonly queue: QueueName;
  /**
   * What the queue receives of a matching event (`Input` / `InputPath` / `InputTransformer`).
   * @default the whole event envelope as the message body
   */
  readonly input?: TargetInput;
}

/** Instance states whose state-change notifications matter to joiner (the node goes away). */
export const INTERRUPTING_INSTANCE_STATES = ['stopping', 'stopped', 'shutting-down', 'terminated'] as const;

/** Every rule joiner needs, in a stable order. */
export const EVENT_RULES: readonly EventRuleSpec[] = [
  {
    id: 'PodUnschedulable',
    bus: JOINER_BUS_NAME,
    description: 'Unschedulable pods wake the provisioner (batched by the provisioning queue).',
    pattern: { source: [JOINER_EVENT_SOURCE], 'detail-type': [DETAIL_TYPES.podUnschedulable] },
    queue: 'provisioning',
  },
  {
    id: 'ConfigurationChanged',
    bus: JOINER_BUS_NAME,
    description:
      'A NodePool or NodeClass created or changed starts a provisioning pass for the pending pods.',
    pattern: { source: [JOINER_EVENT_SOURCE], 'detail-type': [DETAIL_TYPES.configurationChanged] },
    queue: 'provisioning',
  },
  {
    id: 'NodeLifecycle',
    bus: JOINER_BUS_NAME,
    description:
      'Node registration, readiness and deletion, NodeClaim deletion, pod readiness and pod deletion drive nodeclaim lifecycle.',
    pattern: {
      source: [JOINER_EVENT_SOURCE],
      'detail-type': [
        DETAIL_TYPES.nodeRegistered,
        DETAIL_TYPES.nodeReady,
        DETAIL_TYPES.podReady,
        DETAIL_TYPES.podGone,
        DETAIL_TYPES.nodeDeleted,
      ],
    },
    queue: 'lifecycle',
  },
  {
    id: 'SpotInterruption',
    bus: DEFAULT_BUS_NAME,
    description: 'EC2 spot interruption warnings (two minutes before the instance is reclaimed).',
    pattern: { source: ['aws.ec2'], 'detail-type': [AWS_DETAIL_TYPES.spotInterruption] },
    queue: 'interruption',
  },
  {
    id: 'RebalanceRecommendation',
    bus: DEFAULT_BUS_NAME,
    description: 'EC2 rebalance recommendations (elevated interruption risk of a spot instance).',
    pattern: { source: ['aws.ec2'], 'detail-type': [AWS_DETAIL_TYPES.rebalanceRecommendation] },
    queue: 'interruption',
  },
  {
    id: 'InstanceStateChange',
    bus: DEFAULT_BUS_NAME,
    description: 'EC2 instances stopping or terminating outside of joiner.',
    pattern: {
      source: ['aws.ec2'],
      'detail-type': [AWS_DETAIL_TYPES.instanceStateChange],
      detail: { state: [...INTERRUPTING_INSTANCE_STATES] },
    },
    queue: 'interruption',
  },
  {
    id: 'ScheduledChange',
    bus: DEFAULT_BUS_NAME,
    description: 'AWS Health scheduled changes of EC2 instances (retirement, maintenance).',
    pattern: {
      source: ['aws.health'],
      'detail-type': [AWS_DETAIL_TYPES.healthEvent],
      detail: { service: ['EC2'], eventTypeCategory: ['scheduledChange'] },
    },
    queue: 'interruption',
  },
];

/** The rules that listen on `bus`. */
export function rulesOnBus(bus: EventRuleSpec['bus']): EventRuleSpec[] {
  return EVENT_RULES.filter((rule) => rule.bus === bus);
}
