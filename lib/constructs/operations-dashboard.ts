import { Duration } from 'aws-cdk-lib';
import {
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type IAlarm,
  type IMetric,
  type IWidget,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { EVENT_SOURCES, FUNCTIONS, type FunctionName } from '../../functions/shared/event-sources.js';
import type { JoinerMetrics } from './joiner-metrics.js';

/** Properties of {@link OperationsDashboard}. */
export interface OperationsDashboardProps {
  readonly clusterName: string;
  readonly metrics: JoinerMetrics;
  /** Alarms whose state the dashboard shows. @default none */
  readonly alarms?: readonly IAlarm[];
}

/**
 * The CloudWatch dashboard `joiner-<cluster>`: pending pods and the age of the oldest, launches,
 * failed launches and insufficient-capacity errors and rate, dead-letter queue depth, and the
 * errors, throttles and p99 duration of each function, with the state of the alarms on top.
 */
export class OperationsDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    super(scope, id);
    const m = props.metrics;
    const names = Object.keys(FUNCTIONS) as FunctionName[];
    const graph = (title: string, left: IMetric[], right?: IMetric[]) =>
      new GraphWidget({ title, left, right, width: 12, height: 6 });
    const rows: IWidget[][] = [
      [
        new TextWidget({
          markdown: `# joiner: ${props.clusterName}\nNode provisioning, launches and the health of joiner's functions and queues.`,
          width: 24,
          height: 2,
        }),
      ],
      ...(props.alarms && props.alarms.length > 0
        ? [[new AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: 24, height: 4 })]]
        : []),
      [
        graph(
          'Pending pods',
          [m.joiner('pendingPods', 'Maximum', 'Pending pods')],
          [m.oldestPendingPodAge()],
        ),
        graph(
          'Launches',
          [
            m.joiner('nodeClaimsLaunched', 'Sum', 'Launched'),
            m.launchFailures(),
            m.insufficientCapacityErrors(),
          ],
          [m.insufficientCapacityRate()],
        ),
      ],
      [
        graph(
          'Dead-letter queue depth',
          EVENT_SOURCES.map((s) => m.deadLetterDepth(s.queue)),
        ),
        graph(
          'Function errors',
          names.map((n) => m.errors(n)),
        ),
      ],
      [
        graph(
          'Function throttles',
          names.map((n) => m.throttles(n)),
        ),
        graph(
          'Function duration (p99)',
          names.map((n) => m.duration(n)),
        ),
      ],
      [
        graph(
          'Provisioning run time and unschedulable pods',
          [m.joiner('provisioningTime', 'Maximum', 'Provisioning run (ms)')],
          [m.joiner('unschedulablePods', 'Maximum', 'Unschedulable pods')],
        ),
        graph('Events', [
          m.joiner('interruptionEvents', 'Sum', 'Interruption events'),
          m.joiner('failedMessages', 'Sum', 'Failed messages'),
        ]),
      ],
    ];
    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `joiner-${props.clusterName}`,
      defaultInterval: Duration.hours(3),
      widgets: rows,
    });
  }
}
