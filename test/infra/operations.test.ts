import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { EVENT_SOURCES, FUNCTIONS } from '../../functions/shared/event-sources.js';
import { METRIC_NAMES, METRICS_NAMESPACE, METRICS_SERVICE } from '../../functions/shared/metrics.js';
import { createJoinerApp } from '../../lib/app.js';
import { ALARM_THRESHOLDS } from '../../lib/constructs/alarms.js';
import { stubCode } from './stack-fixture.js';
import { ofType, resolveValue, type TemplateResources } from './template-values.js';

const context = {
  'joiner:clusterName': 'prod',
  'joiner:account': '111111111111',
  'joiner:region': 'us-west-2',
  'joiner:alarmEmail': 'ops@example.com',
};
const { app, stack } = createJoinerApp({ context, overrides: { code: stubCode } });
const resources = app.synth().getStackArtifact(stack.artifactId).template.Resources as TemplateResources;

type Props = Record<string, any>;
const alarms = new Map(
  ofType(resources, 'AWS::CloudWatch::Alarm').map(([id, r]) => [id, resolveValue(r.Properties) as Props]),
);
/**
 * An alarm by id prefix, with a single labelled metric (which CloudFormation holds as a one-query
 * `Metrics` list) read back into the plain Namespace / MetricName / Dimensions / Statistic form.
 */
const alarm = (prefix: string): Props => {
  const found = [...alarms].filter(([id]) => id.startsWith(`JoinerAlarms${prefix}`));
  expect(found, `alarm ${prefix}`).toHaveLength(1);
  const a = (found[0] as [string, Props])[1];
  const queries = a.Metrics as Props[] | undefined;
  if (queries?.length !== 1) return a;
  const { Metric, Stat, Period } = (queries[0] as Props).MetricStat as Props;
  return { ...a, ...Metric, Statistic: Stat, Period };
};
const joinerMetric = (name: string) => ({
  Namespace: METRICS_NAMESPACE,
  MetricName: name,
  Dimensions: [{ Name: 'service', Value: METRICS_SERVICE }],
});

describe('alarms', () => {
  it('one per dead-letter queue: any message in it', () => {
    for (const source of EVENT_SOURCES) {
      const queue = `${source.queue.charAt(0).toUpperCase()}${source.queue.slice(1)}`;
      expect(alarm(`${queue}DeadLetters`)).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [
          { Name: 'QueueName', Value: expect.stringMatching(new RegExp(`^JoinerQueues${queue}DeadLetters`)) },
        ],
        Statistic: 'Maximum',
        Threshold: ALARM_THRESHOLDS.deadLetterMessages,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
    }
  });

  it("one for the rule targets' dead-letter queue: any event EventBridge could not deliver", () => {
    expect(alarm('RuleTargetDeadLetters')).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: expect.stringMatching(/^JoinerQueuesRuleTargetDeadLetters/) }],
      Threshold: ALARM_THRESHOLDS.deadLetterMessages,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('one per function: errors in three consecutive periods', () => {
    for (const name of Object.keys(FUNCTIONS)) {
      const fn = `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
      expect(alarm(`${fn}Errors`)).toMatchObject({
        Namespace: 'AWS/Lambda',
        MetricName: 'Errors',
        Dimensions: [
          { Name: 'FunctionName', Value: expect.stringMatching(new RegExp(`^JoinerFunctions${fn}Function`)) },
        ],
        Statistic: 'Sum',
        Period: 300,
        EvaluationPeriods: 3,
        Threshold: 1,
      });
    }
  });

  it('on the metrics the provisioner publishes: oldest pending pod, launch failures, ICE rate', () => {
    expect(alarm('OldestPendingPod')).toMatchObject({
      ...joinerMetric(METRIC_NAMES.oldestPendingPodAge),
      Statistic: 'Maximum',
      Threshold: 600_000,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 2,
    });
    expect(alarm('LaunchFailures')).toMatchObject({
      ...joinerMetric(METRIC_NAMES.nodeClaimsFailed),
      Statistic: 'Sum',
      Threshold: 3,
    });
    const rate = alarm('InsufficientCapacityRate');
    expect(rate).toMatchObject({
      Threshold: 50,
      EvaluationPeriods: 3,
      ComparisonOperator: 'GreaterThanThreshold',
    });
    const byId: Record<string, Props> = Object.fromEntries((rate.Metrics as Props[]).map((m) => [m.Id, m]));
    expect(byId.expr_1 ?? Object.values(byId).find((m) => m.Expression)).toMatchObject({
      Expression: '100 * ice / (ice + launched)',
      ReturnData: true,
    });
    expect(byId.ice.MetricStat).toMatchObject({
      Metric: joinerMetric(METRIC_NAMES.insufficientCapacityErrors),
      Stat: 'Sum',
      Period: 300,
    });
    expect(byId.launched.MetricStat.Metric).toEqual(joinerMetric(METRIC_NAMES.nodeClaimsLaunched));
  });

  it('notify the topic of joiner:alarmEmail when they fire and clear', () => {
    const [[topicId]] = ofType(resources, 'AWS::SNS::Topic');
    expect(ofType(resources, 'AWS::SNS::Subscription').map(([, r]) => r.Properties)).toEqual([
      expect.objectContaining({ Protocol: 'email', Endpoint: 'ops@example.com' }),
    ]);
    // One per DLQ (the rule targets' included), one per function, and three on joiner's own metrics.
    expect(alarms.size).toBe(EVENT_SOURCES.length + 1 + Object.keys(FUNCTIONS).length + 3);
    for (const [id, a] of alarms) {
      expect(a.AlarmActions, id).toEqual([topicId]);
      expect(a.OKActions, id).toEqual([topicId]);
    }
  });
});

describe('alarm topic from context', () => {
  const template = (extra: Record<string, string>) => {
    const { stack } = createJoinerApp({
      context: { ...context, 'joiner:alarmEmail': '', ...extra },
      overrides: { code: stubCode },
    });
    return Template.fromStack(stack);
  };

  it('an existing topic ARN: the alarms notify it and no topic is created', () => {
    const arn = 'arn:aws:sns:us-west-2:111111111111:oncall';
    const t = template({ 'joiner:alarmTopicArn': arn });
    t.resourceCountIs('AWS::SNS::Topic', 0);
    const all = Object.values(t.findResources('AWS::CloudWatch::Alarm'));
    expect(all.length).toBeGreaterThan(0);
    for (const a of all) expect(a.Properties.AlarmActions).toEqual([arn]);
  });

  it('neither: alarms without actions', () => {
    const t = template({});
    t.resourceCountIs('AWS::SNS::Topic', 0);
    for (const a of Object.values(t.findResources('AWS::CloudWatch::Alarm')))
      expect(a.Properties.AlarmActions).toBeUndefined();
  });
});

describe('operations dashboard', () => {
  const [, dashboard] = ofType(resources, 'AWS::CloudWatch::Dashboard').find(([id]) =>
    id.startsWith('JoinerDashboard'),
  ) as unknown as [string, { Properties: Props }];
  const body = JSON.parse(resolveValue(dashboard.Properties.DashboardBody) as string) as {
    widgets: { type: string; properties: Props }[];
  };
  const widget = (title: string) => {
    const found = body.widgets.find((w) => w.properties.title === title);
    expect(found, title).toBeDefined();
    return found?.properties as Props;
  };
  const metricsOf = (title: string): unknown[][] => widget(title).metrics;

  it('is named after the cluster', () => {
    expect(dashboard.Properties.DashboardName).toBe('joiner-prod');
  });

  it('graphs pending pods and the oldest pending pod age from the provisioner metrics', () => {
    expect(metricsOf('Pending pods')).toEqual([
      [
        METRICS_NAMESPACE,
        METRIC_NAMES.pendingPods,
        'service',
        METRICS_SERVICE,
        expect.objectContaining({ stat: 'Maximum' }),
      ],
      [
        METRICS_NAMESPACE,
        METRIC_NAMES.oldestPendingPodAge,
        'service',
        METRICS_SERVICE,
        expect.objectContaining({ stat: 'Maximum', yAxis: 'right' }),
      ],
    ]);
  });

  it('graphs launches, launch failures, ICE errors and the ICE rate', () => {
    const lines = metricsOf('Launches');
    for (const name of [
      METRIC_NAMES.nodeClaimsLaunched,
      METRIC_NAMES.nodeClaimsFailed,
      METRIC_NAMES.insufficientCapacityErrors,
    ])
      expect(lines).toContainEqual(
        expect.arrayContaining([METRICS_NAMESPACE, name, 'service', METRICS_SERVICE]),
      );
    expect(lines).toContainEqual([expect.objectContaining({ expression: '100 * ice / (ice + launched)' })]);
  });

  it('graphs the depth of every DLQ and the errors, throttles and duration of every function', () => {
    expect(metricsOf('Dead-letter queue depth')).toHaveLength(EVENT_SOURCES.length);
    for (const line of metricsOf('Dead-letter queue depth'))
      expect(line.slice(0, 3)).toEqual(['AWS/SQS', 'ApproximateNumberOfMessagesVisible', 'QueueName']);
    for (const [title, metric] of [
      ['Function errors', 'Errors'],
      ['Function throttles', 'Throttles'],
      ['Function duration (p99)', 'Duration'],
    ]) {
      const lines = metricsOf(title as string);
      expect(lines, title).toHaveLength(Object.keys(FUNCTIONS).length);
      for (const line of lines) expect(line.slice(0, 3)).toEqual(['AWS/Lambda', metric, 'FunctionName']);
    }
  });

  it('shows the state of every alarm', () => {
    const status = body.widgets.find((w) => w.type === 'alarm');
    expect(status?.properties.alarms).toHaveLength(alarms.size);
  });
});
