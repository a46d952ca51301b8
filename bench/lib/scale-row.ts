/**
 * One row of the scale benchmark, read from a finished run's cloud: the nodes and pods, virtual and
 * wall time, each Lambda function's totals and the AWS calls joiner's bill and quotas see.
 */
import { TAG } from '../../functions/core/launch/tags.js';
import type { FunctionName } from '../../functions/shared/event-sources.js';
import type { SimulatedCloud } from '../../functions/simulator/cloud.js';
import type { ScenarioResult } from '../../functions/simulator/scenario/run-scenario.js';

/** The services whose calls are the user's bill and API quota, by the latency model's names. */
const SERVICES = [
  ['dynamodb', 'DynamoDB'],
  ['sqs', 'SQS'],
  ['events', 'EventBridge'],
  ['ec2', 'EC2'],
] as const;

/** Deliveries of event rules to their targets are EventBridge's own work, not API calls. */
const NOT_API_CALLS = new Set(['events RuleDelivery']);

/** A function's line of the table. */
export interface FunctionRow {
  readonly name: FunctionName;
  readonly invocations: number;
  readonly failed: number;
  readonly timedOut: number;
  readonly maxDurationMs: number;
  readonly maxHeapMiB: number;
}

/** A service's line of the table. */
export interface ServiceRow {
  readonly service: string;
  readonly calls: number;
  /** Calls divided by the nodes launched (undefined when none was). */
  readonly perNodeLaunched?: number;
  /** Calls divided by the nodes removed (undefined when none was). */
  readonly perNodeRemoved?: number;
}

/** One scenario's results. */
export interface ScaleRow {
  readonly scenario: string;
  readonly ok: boolean;
  readonly failures: readonly string[];
  /** Nodes at the end, and every instance joiner launched / that was terminated during the run. */
  readonly nodes: number;
  readonly nodesLaunched: number;
  readonly nodesRemoved: number;
  readonly pods: number;
  readonly virtualSeconds: number;
  readonly wallSeconds: number;
  readonly joinerSeconds: number;
  readonly simulatorSeconds: number;
  /** CPU seconds of the whole process (user + system) while the scenario ran. */
  readonly cpuSeconds: number;
  /**
   * Wall seconds the run would take on an idle machine: its wall time minus the time its main
   * thread waited for a CPU (see bench/lib/run-queue.ts); undefined where that is not known.
   */
  readonly idleWallSeconds?: number;
  readonly functions: readonly FunctionRow[];
  readonly services: readonly ServiceRow[];
  /** EC2 calls by action, most frequent first (throttled ones included: they count against the quota). */
  readonly ec2Calls: readonly (readonly [string, number])[];
  /** EC2 calls refused with RequestLimitExceeded (its token buckets), by action, most frequent first. */
  readonly ec2Throttled: readonly (readonly [string, number])[];
}

/** The row of a finished run (wall and CPU seconds are the caller's to fill in). */
export function scaleRow(scenario: string, cloud: SimulatedCloud, result: ScenarioResult): ScaleRow {
  const instances = [...cloud.ec2.state.instances.values()].filter((i) => i.tags[TAG.cluster] !== undefined);
  const launched = instances.length;
  const removed = instances.filter((i) => i.state === 'shutting-down' || i.state === 'terminated').length;
  const calls = [...cloud.latency.calls()].filter(([key]) => !NOT_API_CALLS.has(key));
  const services = SERVICES.map(([key, service]) => {
    const n = calls.filter(([k]) => k.startsWith(`${key} `)).reduce((sum, [, c]) => sum + c, 0);
    return {
      service,
      calls: n,
      ...(launched > 0 ? { perNodeLaunched: n / launched } : {}),
      ...(removed > 0 ? { perNodeRemoved: n / removed } : {}),
    };
  });
  const functions = [...cloud.runner.functionTotals()]
    .map(([name, t]) => ({ name, ...t }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const { summary } = result;
  return {
    scenario,
    ok: result.ok,
    failures: result.failures,
    nodes: summary.nodes.length,
    nodesLaunched: launched,
    nodesRemoved: removed,
    pods: summary.pods.total,
    virtualSeconds: summary.virtualDurationMs / 1000,
    wallSeconds: summary.wallDurationMs / 1000,
    joinerSeconds: (summary.wallSplitMs?.joiner ?? 0) / 1000,
    simulatorSeconds: (summary.wallSplitMs?.simulator ?? 0) / 1000,
    cpuSeconds: 0,
    functions,
    services,
    ec2Calls: calls
      .filter(([k]) => k.startsWith('ec2 '))
      .map(([k, n]) => [k.slice(4), n] as const)
      .sort((a, b) => b[1] - a[1]),
    ec2Throttled: [...cloud.ec2.throttling.throttledCalls()].sort((a, b) => b[1] - a[1]),
  };
}
