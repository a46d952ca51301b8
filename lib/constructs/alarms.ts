import { Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IAlarm, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { EVENT_SOURCES, FUNCTIONS, type FunctionName } from '../../functions/shared/event-sources.js';
import type { JoinerMetrics } from './joiner-metrics.js';

/** Thresholds of joiner's alarms (all evaluated over 5-minute periods). */
export const ALARM_THRESHOLDS = {
  /** Any message in a dead-letter queue. */
  deadLetterMessages: 1,
  /** A function failing in each of three consecutive periods (a single retried failure is normal). */
  functionErrors: { errors: 1, periods: 3 },
  /** A pod pending for more than 10 minutes in two consecutive periods (nodes join in 1-2 minutes). */
  oldestPendingPodAgeMs: { ms: 10 * 60_000, periods: 2 },
  /** More than half of the launch attempts finding no capacity, three periods in a row. */
  insufficientCapacityPercent: { percent: 50, periods: 3 },
  /** Three or more failed launches within a period. */
  launchFailures: 3,
} as const;

/** Properties of {@link JoinerAlarms}. */
export interface JoinerAlarmsProps {
  readonly metrics: JoinerMetrics;
  /** Topic notified when an alarm fires and clears. @default alarms without actions */
  readonly topic?: ITopic;
  /** An address that gets the notifications: a topic with this subscription is created. */
  readonly email?: string;
}

/**
 * CloudWatch alarms on what needs an operator: messages in a dead-letter queue, functions that keep
 * failing, pods left pending, launches that find no capacity, failed launches. They notify the
 * given or created SNS topic, or have no actions (the dashboard shows their state).
 */
export class JoinerAlarms extends Construct {
  /** Every alarm, by construct id. */
  readonly alarms: Readonly<Record<string, Alarm>>;
  /** The topic the alarms notify, if any. */
  readonly topic?: ITopic;

  constructor(scope: Construct, id: string, props: JoinerAlarmsProps) {
    super(scope, id);
    if (props.topic && props.email) throw new Error('JoinerAlarms: give a topic or an email, not both');
    this.topic = props.topic ?? (props.email ? this.emailTopic(props.email) : undefined);
    const m = props.metrics;
    const t = ALARM_THRESHOLDS;
    const alarms: Record<string, Alarm> = {};
    const add = (
      alarmId: string,
      alarm: Omit<ConstructorParameters<typeof Alarm>[2], 'treatMissingData'>,
    ) => {
      alarms[alarmId] = new Alarm(this, alarmId, {
        treatMissingData: TreatMissingData.NOT_BREACHING,
        ...alarm,
      });
    };
    for (const source of EVENT_SOURCES) {
      add(`${capitalize(source.queue)}DeadLetters`, {
        alarmDescription: `Messages the ${source.function} function failed ${source.maxReceiveCount} times wait in the ${source.queue} dead-letter queue.`,
        metric: m.deadLetterDepth(source.queue),
        threshold: t.deadLetterMessages,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      });
    }
    add('RuleTargetDeadLetters', {
      alarmDescription:
        'EventBridge could not deliver an event to a joiner queue or the sweep function after its retries; it waits in the rule targets dead-letter queue.',
      metric: m.ruleTargetDeadLetterDepth(),
      threshold: t.deadLetterMessages,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });
    for (const name of Object.keys(FUNCTIONS) as FunctionName[]) {
      add(`${capitalize(name)}Errors`, {
        alarmDescription: `The joiner ${name} function failed in ${t.functionErrors.periods} consecutive 5-minute periods.`,
        metric: m.errors(name),
        threshold: t.functionErrors.errors,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: t.functionErrors.periods,
      });
    }
    add('OldestPendingPod', {
      alarmDescription:
        'A pod has been pending for more than 10 minutes: joiner is not providing capacity for it.',
      metric: m.oldestPendingPodAge(),
      threshold: t.oldestPendingPodAgeMs.ms,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: t.oldestPendingPodAgeMs.periods,
    });
    add('InsufficientCapacityRate', {
      alarmDescription:
        'More than half of the launch attempts hit insufficient capacity: widen the NodePools (instance types, zones, capacity types).',
      metric: m.insufficientCapacityRate(),
      threshold: t.insufficientCapacityPercent.percent,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: t.insufficientCapacityPercent.periods,
    });
    add('LaunchFailures', {
      alarmDescription: 'Nodeclaim launches are failing (see the provisioner log for the EC2 error).',
      metric: m.launchFailures(),
      threshold: t.launchFailures,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });
    if (this.topic) {
      const action = new SnsAction(this.topic);
      for (const alarm of Object.values(alarms)) {
        alarm.addAlarmAction(action);
        alarm.addOkAction(action);
      }
    }
    this.alarms = alarms;
  }

  /** Every alarm (for the dashboard's alarm status widget). */
  all(): IAlarm[] {
    return Object.values(this.alarms);
  }

  private emailTopic(email: string): Topic {
    const topic = new Topic(this, 'Topic', { displayName: 'joiner alarms', enforceSSL: true });
    topic.addSubscription(new EmailSubscription(email));
    Validations.of(topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'CloudWatch alarms cannot publish to a topic encrypted with the AWS managed SNS key; the notifications hold only alarm names and states.',
    });
    return topic;
  }
}

function capitalize(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
