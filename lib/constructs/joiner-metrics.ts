import { Duration } from 'aws-cdk-lib';
import { type IMetric, MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { FunctionName, QueueName } from '../../functions/shared/event-sources.js';
import { METRIC_NAMES, METRICS_NAMESPACE, METRICS_SERVICE } from '../../functions/shared/metrics.js';
import type { WorkQueues } from './work-queues.js';

/** Period of every metric on the dashboard and of every alarm. */
export const METRIC_PERIOD = Duration.minutes(5);

/** What {@link JoinerMetrics} reads. */
export interface JoinerMetricsProps {
  readonly functions: Readonly<Record<FunctionName, IFunction>>;
  readonly queues: WorkQueues;
}

/**
 * The CloudWatch metrics of one joiner installation, as the dashboard and the alarms read them:
 * joiner's own (namespace, names and `service` dimension of the functions' EMF) and the Lambda and
 * SQS metrics of its functions and dead-letter queues.
 */
export class JoinerMetrics {
  constructor(private readonly props: JoinerMetricsProps) {}

  /** A metric the functions publish, in 5-minute periods. */
  joiner(name: keyof typeof METRIC_NAMES, statistic: 'Sum' | 'Maximum' | 'Average', label?: string): Metric {
    return new Metric({
      namespace: METRICS_NAMESPACE,
      metricName: METRIC_NAMES[name],
      dimensionsMap: { service: METRICS_SERVICE },
      statistic,
      period: METRIC_PERIOD,
      label,
    });
  }

  /** Age of the oldest pending pod a provisioning run saw (maximum, milliseconds). */
  oldestPendingPodAge(): Metric {
    return this.joiner('oldestPendingPodAge', 'Maximum', 'Oldest pending pod (ms)');
  }

  /** Nodeclaims whose launch failed (sum). */
  launchFailures(): Metric {
    return this.joiner('nodeClaimsFailed', 'Sum', 'Launch failures');
  }

  /** Offerings found without capacity (sum of insufficient-capacity errors). */
  insufficientCapacityErrors(): Metric {
    return this.joiner('insufficientCapacityErrors', 'Sum', 'Insufficient capacity errors');
  }

  /**
   * Share of launch attempts that hit an insufficient-capacity error, in percent: ICE errors over
   * ICE errors plus launched nodeclaims (no data while nothing launches).
   */
  insufficientCapacityRate(): MathExpression {
    return new MathExpression({
      expression: '100 * ice / (ice + launched)',
      usingMetrics: {
        ice: this.insufficientCapacityErrors(),
        launched: this.joiner('nodeClaimsLaunched', 'Sum'),
      },
      label: 'Insufficient capacity rate (%)',
      period: METRIC_PERIOD,
    });
  }

  /** Messages waiting in a queue's dead-letter queue (maximum). */
  deadLetterDepth(queue: QueueName): IMetric {
    return this.props.queues.deadLetterQueue(queue).metricApproximateNumberOfMessagesVisible({
      statistic: 'Maximum',
      period: METRIC_PERIOD,
      label: `${queue} DLQ`,
    });
  }

  /** Events waiting in the rule targets' dead-letter queue (maximum). */
  ruleTargetDeadLetterDepth(): IMetric {
    return this.props.queues.ruleTargetDeadLetters.metricApproximateNumberOfMessagesVisible({
      statistic: 'Maximum',
      period: METRIC_PERIOD,
      label: 'rule targets DLQ',
    });
  }

  /** Failed invocations of a function (sum). */
  errors(name: FunctionName): IMetric {
    return this.props.functions[name].metricErrors({ statistic: 'Sum', period: METRIC_PERIOD, label: name });
  }

  /** Throttled invocations of a function (sum). */
  throttles(name: FunctionName): IMetric {
    return this.props.functions[name].metricThrottles({
      statistic: 'Sum',
      period: METRIC_PERIOD,
      label: name,
    });
  }

  /** Duration of a function's invocations (p99). */
  duration(name: FunctionName): IMetric {
    return this.props.functions[name].metricDuration({
      statistic: 'p99',
      period: METRIC_PERIOD,
      label: name,
    });
  }
}
