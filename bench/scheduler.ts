/**
 * Scheduler benchmark 1: Karpenter's own scheduling benchmark workload (400 fake instance types,
 * the diverse pod mix) at 1 to 100,000 pods. `npm run bench:scheduler` prints a table;
 * `-- --json` prints the numbers as JSON; `-- --counts 50000,100000` measures only those points.
 * Points of 50,000 pods and more run in a child process whose V8 heap is capped at 1 GiB
 * (`--max-old-space-size=1024`): finishing there shows the heap stayed under the cap, and the
 * child's peak resident memory (maxRSS, heap and everything else) is printed.
 */
import { spawnSync } from 'node:child_process';
import { schedule } from '../functions/core/scheduling/schedule.js';
import type { ScheduleInput } from '../functions/core/scheduling/types.js';
import { nodePool } from '../test/builders/config.js';
import { diversePods, fakeInstanceTypes } from './karpenter-workload.js';

const COUNTS = [1, 50, 100, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000];
const TARGETS: Record<number, number> = { 10000: 0.5, 20000: 1.2, 100000: 5 };
/** From this size on, a point runs in its own process under the heap cap. */
const ISOLATED_FROM = 50000;
const HEAP_CAP_MIB = 1024;

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
  /** CPU seconds (user + system) of the median run: what the run costs, however busy the machine. */
  cpuSeconds: number;
  /** Isolated points: the child's peak resident memory (MiB) and its V8 heap cap. */
  maxRssMiB?: number;
  heapCapMiB?: number;
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
  const runs = count >= ISOLATED_FROM ? 3 : count >= 10000 ? 5 : count >= 1000 ? 7 : 15;
  const times: number[] = [];
  const cpu: number[] = [];
  const coldStart = performance.now();
  let plan = schedule(data);
  const cold = (performance.now() - coldStart) / 1000;
  let heap = 0;
  for (let i = 0; i < runs; i++) {
    const before = process.memoryUsage().heapUsed;
    const start = performance.now();
    const startCpu = process.cpuUsage();
    plan = schedule(data);
    times.push((performance.now() - start) / 1000);
    const used = process.cpuUsage(startCpu);
    cpu.push((used.user + used.system) / 1e6);
    heap = Math.max(heap, process.memoryUsage().heapUsed - before);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
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
    cpuSeconds: Number(cpu[Math.floor(cpu.length / 2)].toFixed(4)),
    ...(target === undefined ? {} : { target, meetsTarget: seconds <= target }),
  };
}

/** Measures one point in a child process with the V8 heap capped. */
function measureIsolated(count: number): BenchRow {
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, `--max-old-space-size=${HEAP_CAP_MIB}`, process.argv[1], '--point', String(count)],
    { encoding: 'utf8', maxBuffer: 1 << 24 },
  );
  if (child.status !== 0)
    throw new Error(
      `${count} pods with the heap capped at ${HEAP_CAP_MIB} MiB failed: ${child.stderr.slice(-2000)}`,
    );
  return { ...(JSON.parse(child.stdout) as BenchRow), heapCapMiB: HEAP_CAP_MIB };
}

function countsOf(argv: readonly string[]): number[] {
  const i = argv.indexOf('--counts');
  if (i < 0) return COUNTS;
  const counts = (argv[i + 1] ?? '').split(',').map(Number);
  if (counts.length === 0 || counts.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`--counts needs positive integers separated by commas, got '${argv[i + 1] ?? ''}'`);
  return counts;
}

function print(row: BenchRow): void {
  const target =
    row.target === undefined ? '' : ` target <= ${row.target}s: ${row.meetsTarget ? 'met' : 'MISSED'}`;
  const memory =
    row.maxRssMiB === undefined
      ? `heap +${row.heapMiB} MiB`
      : `heap +${row.heapMiB} MiB, peak RSS ${row.maxRssMiB} MiB, heap cap ${row.heapCapMiB} MiB: ok`;
  console.log(
    `${String(row.pods).padStart(6)} pods  median ${row.seconds.toFixed(4)} s (cpu ${row.cpuSeconds.toFixed(4)} s)  best ${row.bestSeconds.toFixed(4)} s ` +
      `(first run ${row.coldSeconds.toFixed(4)} s)  ` +
      `${String(row.podsPerSecond).padStart(7)} pods/s  scheduled ${row.podsScheduled}  nodeclaims ${row.nodeClaims}  ` +
      `$${row.hourlyCost}/h  ${memory}${target}`,
  );
}

function main(): void {
  const point = process.argv.indexOf('--point');
  if (point >= 0) {
    const row = measure(Number(process.argv[point + 1]));
    const maxRssMiB = Number((process.resourceUsage().maxRSS / 1024).toFixed(1));
    console.log(JSON.stringify({ ...row, maxRssMiB }));
    return;
  }
  const json = process.argv.includes('--json');
  const rows: BenchRow[] = [];
  for (const count of countsOf(process.argv)) {
    const row = count >= ISOLATED_FROM ? measureIsolated(count) : measure(count);
    rows.push(row);
    if (!json) print(row);
  }
  if (json)
    console.log(
      JSON.stringify({ benchmark: 'karpenter-scheduling-workload', instanceTypes: 400, rows }, null, 2),
    );
}

main();
