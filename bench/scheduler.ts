/**
 * Scheduler benchmark 1: Karpenter's own scheduling benchmark workload (400 fake instance types,
 * the diverse pod mix) at 1 to 20,000 pods. `npm run bench:scheduler` prints a table;
 * `npm run bench:scheduler -- --json` prints the numbers as JSON.
 */
import { schedule } from '../functions/core/scheduling/schedule.js';
import type { ScheduleInput } from '../functions/core/scheduling/types.js';
import { nodePool } from '../test/builders/config.js';
import { diversePods, fakeInstanceTypes } from './karpenter-workload.js';

const COUNTS = [1, 50, 100, 500, 1000, 2000, 5000, 10000, 20000];
const TARGETS: Record<number, number> = { 10000: 0.5, 20000: 1.2 };

/** One measured pod count. */
export interface BenchRow {
  pods: number;
  /** Median seconds of the measured runs (after warm-up). */
  seconds: number;
  /** Fastest measured run. */
  bestSeconds: number;
  /** Seconds of the first run for this pod count (before the measured runs; JIT warmed by smaller counts). */
  coldSeconds: number;
  podsPerSecond: number;
  podsScheduled: number;
  nodeClaims: number;
  hourlyCost: number;
  heapMiB: number;
  target?: number;
  meetsTarget?: boolean;
}

function input(count: number): ScheduleInput {
  return {
    pods: diversePods(count),
    nodes: [],
    inFlight: [],
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools: [{ pool: nodePool({ name: 'default' }), instanceTypes: fakeInstanceTypes(400) }],
  };
}

function measure(count: number): BenchRow {
  const data = input(count);
  const runs = count >= 10000 ? 5 : count >= 1000 ? 7 : 15;
  const times: number[] = [];
  const coldStart = performance.now();
  let plan = schedule(data);
  const cold = (performance.now() - coldStart) / 1000;
  let heap = 0;
  for (let i = 0; i < runs; i++) {
    const before = process.memoryUsage().heapUsed;
    const start = performance.now();
    plan = schedule(data);
    times.push((performance.now() - start) / 1000);
    heap = Math.max(heap, process.memoryUsage().heapUsed - before);
  }
  times.sort((a, b) => a - b);
  const seconds = times[Math.floor(times.length / 2)];
  const podsScheduled = plan.nodeClaims.reduce((n, c) => n + c.pods.length, 0);
  const target = TARGETS[count];
  return {
    pods: count,
    seconds,
    bestSeconds: times[0],
    coldSeconds: cold,
    podsPerSecond: Math.round(count / seconds),
    podsScheduled,
    nodeClaims: plan.nodeClaims.length,
    hourlyCost: Number(
      plan.nodeClaims.reduce((s, c) => s + (c.instanceTypeOptions[0]?.price ?? 0), 0).toFixed(4),
    ),
    heapMiB: Number((Math.max(0, heap) / 2 ** 20).toFixed(1)),
    ...(target === undefined ? {} : { target, meetsTarget: seconds <= target }),
  };
}

function main(): void {
  const json = process.argv.includes('--json');
  const rows: BenchRow[] = [];
  for (const count of COUNTS) {
    const row = measure(count);
    rows.push(row);
    if (!json) {
      const target =
        row.target === undefined ? '' : ` target <= ${row.target}s: ${row.meetsTarget ? 'met' : 'MISSED'}`;
      console.log(
        `${String(row.pods).padStart(6)} pods  median ${row.seconds.toFixed(4)} s  best ${row.bestSeconds.toFixed(4)} s ` +
          `(first run ${row.coldSeconds.toFixed(4)} s)  ` +
          `${String(row.podsPerSecond).padStart(7)} pods/s  scheduled ${row.podsScheduled}  nodeclaims ${row.nodeClaims}  ` +
          `$${row.hourlyCost}/h  heap +${row.heapMiB} MiB${target}`,
      );
    }
  }
  if (json)
    console.log(
      JSON.stringify({ benchmark: 'karpenter-scheduling-workload', instanceTypes: 400, rows }, null, 2),
    );
}

main();
