import { Duration } from 'aws-cdk-lib';
import {
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { KARPENTER_METRICS } from '../../functions/shared/karpenter-metrics.js';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '../../functions/shared/metrics.js';
import { METRIC_PERIOD } from './joiner-metrics.js';

/** Properties of {@link KarpenterDashboard}. */
export interface KarpenterDashboardProps {
  readonly clusterName: string;
}

type KarpenterMetric = keyof typeof KARPENTER_METRICS;

/**
 * The CloudWatch dashboard `joiner-<cluster>-karpenter`: the panels of Karpenter's capacity and
 * performance dashboards that joiner's metrics under Karpenter's names can fill (nodeclaims created,
 * disrupted and terminated by NodePool and reason, disruption decisions, pod startup and scheduling
 * durations, interruption messages, cloud provider errors). Each series is a CloudWatch search over
 * the metric's dimensions, so a NodePool or reason appears on its own as soon as it has data.
 */
export class KarpenterDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: KarpenterDashboardProps) {
    super(scope, id);
    const graph = (title: string, left: IMetric[], unit?: string) =>
      new GraphWidget({ title, left, width: 12, height: 6, ...(unit ? { leftYAxis: { label: unit } } : {}) });
    const heading = (markdown: string) => new TextWidget({ markdown, width: 24, height: 1 });
    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `joiner-${props.clusterName}-karpenter`,
      defaultInterval: Duration.hours(3),
      widgets: [
        [
          new TextWidget({
            markdown: `# joiner: ${props.clusterName}, Karpenter's view\njoiner's metrics under Karpenter's names (docs/karpenter-metrics.md), laid out as Karpenter's capacity and performance dashboards.`,
            width: 24,
            height: 2,
          }),
        ],
        [heading('## Capacity')],
        [
          graph('Nodeclaims created by NodePool', [
            search('nodeClaimsCreated', ['nodepool', 'reason'], 'Sum'),
          ]),
          graph('Nodeclaims terminated by NodePool', [search('nodeClaimsTerminated', ['nodepool'], 'Sum')]),
        ],
        [
          graph('Nodeclaims disrupted by reason', [
            search('nodeClaimsDisrupted', ['nodepool', 'reason'], 'Sum'),
          ]),
          graph('Voluntary disruption decisions', [
            search('disruptionDecisions', ['decision', 'reason', 'consolidation_type'], 'Sum'),
            search('disruptionDecisions', ['decision', 'reason'], 'Sum'),
          ]),
        ],
        [heading('## Performance')],
        [
          graph(
            'Pod startup duration',
            ['p50', 'p90', 'p99'].map((p) => percentile('podStartupDuration', {}, p)),
            'seconds',
          ),
          graph(
            'Scheduling duration',
            ['p50', 'p99'].map((p) => percentile('schedulingDuration', { controller: 'provisioner' }, p)),
            'seconds',
          ),
        ],
        [
          graph('Interruption messages by type', [
            search('interruptionMessages', ['message_type', 'actionable'], 'Sum'),
          ]),
          graph('Cloud provider errors', [
            search('cloudProviderErrors', ['controller', 'method', 'provider', 'error'], 'Sum'),
          ]),
        ],
      ],
    });
  }
}

/** Every series of a Karpenter-named metric with exactly these dimensions (and `service`). */
function search(metric: KarpenterMetric, dimensions: readonly string[], statistic: 'Sum'): MathExpression {
  const schema = [METRICS_NAMESPACE, 'service', ...dimensions].join(',');
  const name = KARPENTER_METRICS[metric];
  return new MathExpression({
    expression: `SEARCH('{${schema}} MetricName="${name}"', '${statistic}', ${METRIC_PERIOD.toSeconds()})`,
    usingMetrics: {},
    label: '',
    period: METRIC_PERIOD,
  });
}

/** A percentile of a Karpenter-named duration metric. */
function percentile(
  metric: KarpenterMetric,
  dimensions: Readonly<Record<string, string>>,
  p: string,
): IMetric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: KARPENTER_METRICS[metric],
    dimensionsMap: { service: METRICS_SERVICE, ...dimensions },
    statistic: p,
    period: METRIC_PERIOD,
    label: p,
  });
}
