/**
 * One row of the scale benchmark, read from a finished run's cloud: the nodes and pods, virtual and
 * wall time, each Lambda function's totals and the AWS calls joiner's bill and quotas see.
 */
import { TAG } from '../../functions/core/launch/tags.js';
import { FUNCTIONS, type FunctionName } from '../../functions/shared/event-sources.js';
import type { SimulatedCloud } from '../../functions/simulator/cloud.js';
import type { ScenarioResult } from '../../functions/simulator/scenario/run-scenario.js';
import { estimatedMemoryMiB } from './memory-estimate.js';

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
  /** Longest invocation on the wall clock (ms): the host's speed, not Lambda's. */
  readonly maxDurationMs: number;
  /** Longest invocation on the virtual clock (ms), against {@link timeoutMs}. */
  readonly maxVirtualMs: number;
  readonly timeoutMs: number;
  /** Most bytes of answers one invocation read. */
  readonly maxBytesRead: number;
  /** The largest invocation's estimated memory (MiB, see memory-estimate.ts), against {@link memoryMiB}. */
  readonly maxMemoryMiB: number;
  readonly memoryMiB: number;
  /** The whole process's heap when one of its invocations ended: an upper bound, shared with the simulator. */
  readonly maxHeapMiB: number;
}

/** A function's invocations that went past its configured timeout or memory, as failure lines. */
export function limitBreaches(functions: readonly FunctionRow[]): string[] {
  return functions.flatMap((f) => [
    ...(f.timedOut > 0 || f.maxVirtualMs > f.timeoutMs
      ? [
          `${f.name}: an invocation ran ${Math.round(f.maxVirtualMs)} virtual ms, its timeout is ${f.timeoutMs} ms`,
        ]
      : []),
    ...(f.maxMemoryMiB > f.memoryMiB
      ? [`${f.name}: an invocation needed about ${Math.round(f.maxMemoryMiB)} MiB, it has ${f.memoryMiB} MiB`]
      : []),
  ]);
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
    .map(([name, t]) => ({
      name,
      ...t,
      timeoutMs: FUNCTIONS[name].timeoutSeconds * 1000,
      maxMemoryMiB: estimatedMemoryMiB(t.maxBytesRead),
      memoryMiB: FUNCTIONS[name].memoryMiB,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const { summary } = result;
  const breaches = limitBreaches(functions);
  return {
    scenario,
    ok: result.ok && breaches.length === 0,
    failures: [...result.failures, ...breaches],
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
