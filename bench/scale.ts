/**
 * Scale benchmark (`npm run bench:scale`): Karpenter's scale suite (its AWS provider's
 * test/suites/scale) as shipped scenarios, run through joiner's real handlers and the simulated
 * cloud with the account's IAM enforced. Per scenario it prints the nodes and pods, the virtual
 * seconds the run took, the wall seconds split into joiner computing and the simulator working
 * (and the process's CPU seconds, which do not grow with the machine's load, and the wall time an
 * idle machine would take: wall time minus the main thread's wait for a CPU), each Lambda
 * function's invocations with the longest on the virtual clock against its timeout and the
 * largest's estimated memory against its memory size (bench/lib/memory-estimate.ts; a function
 * past either fails the row), and the
 * DynamoDB / SQS / EventBridge / EC2 calls per node launched and removed, and the EC2 calls its
 * token buckets refused (RequestLimitExceeded; the SDK retried them), and the process's CPU
 * seconds per scenario step (bench/lib/step-cpu.ts: which phase of a slow run took the time).
 *
 * Options: `--only <name>[,<name>]` (scenario names), `--factor <x>` (run each at x times its size,
 * e.g. 0.1; see bench/lib/scaled-scenario.ts), `--json`. Numbers are printed, never asserted; a
 * scenario whose expectations fail is marked FAILED with the reasons.
 */
import './lib/quiet-sdk.js';
import { fileURLToPath } from 'node:url';
import { loadScenario } from '../functions/simulator/scenario/load-scenario.js';
import { runScenario } from '../functions/simulator/scenario/run-scenario.js';
import { runQueueSeconds } from './lib/run-queue.js';
import { type ScaleRow, scaleRow } from './lib/scale-row.js';
import { scaledScenario } from './lib/scaled-scenario.js';
import { type StepCpu, StepCpuRecorder } from './lib/step-cpu.js';

/** The scale suite's scenarios, in the order Karpenter's suite runs them. */
export const SCALE_SCENARIOS = [
  'scale-node-dense',
  'scale-pod-dense',
  'scale-consolidation-empty',
  'scale-consolidation-delete',
  'scale-consolidation-replace',
  'scale-emptiness',
  'scale-expiration',
  'scale-drift',
  'scale-interruption',
] as const;

const scenarioFile = (name: string): string =>
  fileURLToPath(new URL(`../scenarios/${name}.yaml`, import.meta.url));

interface Options {
  readonly only?: readonly string[];
  readonly factor: number;
  readonly json: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  let only: string[] | undefined;
  let factor = 1;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json') json = true;
    else if (arg === '--only') only = (argv[++i] ?? '').split(',').filter(Boolean);
    else if (arg === '--factor') factor = Number(argv[++i]);
    else throw new Error(`bench:scale: unknown argument ${arg} (use --only <names>, --factor <x>, --json)`);
  }
  if (!(factor > 0)) throw new Error('bench:scale: --factor needs a positive number, e.g. --factor 0.1');
  const unknown = (only ?? []).filter((n) => !(SCALE_SCENARIOS as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw new Error(
      `bench:scale: no scale scenario ${unknown.join(', ')} (have ${SCALE_SCENARIOS.join(', ')})`,
    );
  return { only, factor, json };
}

/** A row with the CPU seconds each scenario step took. */
type BenchRow = ScaleRow & { readonly steps: readonly StepCpu[] };

async function runOne(name: string, factor: number): Promise<BenchRow> {
  const scenario = scaledScenario(await loadScenario(scenarioFile(name)), factor);
  const steps = new StepCpuRecorder();
  const cpu = process.cpuUsage();
  const queued = runQueueSeconds();
  const wall = Date.now();
  let row: ScaleRow | undefined;
  const result = await runScenario(scenario, {
    // Waits on timers jump: the bench measures the work, not the pacing.
    speed: Number.POSITIVE_INFINITY,
    onLog: (line) => steps.onLog(line),
    inspect: async (cloud, outcome) => {
      row = scaleRow(scenario.name, cloud, outcome);
    },
  });
  const wallSeconds = (Date.now() - wall) / 1000;
  const used = process.cpuUsage(cpu);
  const queuedAfter = runQueueSeconds();
  if (!row) throw new Error(`${name}: the run ended before its summary`);
  return {
    steps: steps.steps(),
    ...row,
    // The row's verdict: the scenario's expectations and every function within its limits.
    ok: row.ok,
    failures: [...row.failures, ...result.notes.filter((n) => n.includes('timed out'))],
    wallSeconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    ...(queued !== undefined && queuedAfter !== undefined
      ? { idleWallSeconds: wallSeconds - (queuedAfter - queued) }
      : {}),
  };
}

const fmt = (n: number, digits = 1): string => n.toFixed(digits);

function print(rows: readonly BenchRow[]): void {
  console.log(
    'scenario                   nodes   pods  launched removed  virtual s  wall s (joiner / simulator)  CPU s  idle wall s  result',
  );
  for (const r of rows) {
    console.log(
      `${r.scenario.padEnd(26)} ${String(r.nodes).padStart(5)} ${String(r.pods).padStart(6)} ${String(r.nodesLaunched).padStart(9)} ${String(r.nodesRemoved).padStart(7)} ${fmt(r.virtualSeconds).padStart(10)}  ${`${fmt(r.wallSeconds)} (${fmt(r.joinerSeconds)} / ${fmt(r.simulatorSeconds)})`.padEnd(27)} ${fmt(r.cpuSeconds).padStart(6)} ${(r.idleWallSeconds === undefined ? '-' : fmt(r.idleWallSeconds)).padStart(12)}  ${r.ok ? 'ok' : 'FAILED'}`,
    );
  }
  console.log(
    '(nodes and pods at the end; idle wall s: wall time minus the time the process waited for a CPU, what an idle machine would take)',
  );
  for (const r of rows) {
    console.log(`\n${r.scenario}: ${r.nodesLaunched} node(s) launched, ${r.nodesRemoved} removed`);
    console.log(
      '  function      invocations  failed  timed out  max virtual ms (timeout)  max wall ms  max read MiB  est. memory MiB (of)  process heap MiB',
    );
    for (const f of r.functions)
      console.log(
        `  ${f.name.padEnd(13)} ${String(f.invocations).padStart(11)} ${String(f.failed).padStart(7)} ${String(f.timedOut).padStart(10)} ${`${Math.round(f.maxVirtualMs)} (${f.timeoutMs})`.padStart(25)} ${String(f.maxDurationMs).padStart(12)} ${fmt(f.maxBytesRead / 2 ** 20, 2).padStart(13)} ${`${fmt(f.maxMemoryMiB, 0)} (${f.memoryMiB})`.padStart(21)} ${fmt(f.maxHeapMiB, 0).padStart(17)}`,
      );
    console.log('  service       calls    per node launched  per node removed');
    for (const s of r.services)
      console.log(
        `  ${s.service.padEnd(13)} ${String(s.calls).padStart(6)} ${s.perNodeLaunched === undefined ? '-'.padStart(20) : fmt(s.perNodeLaunched, 2).padStart(20)} ${s.perNodeRemoved === undefined ? '-'.padStart(17) : fmt(s.perNodeRemoved, 2).padStart(17)}`,
      );
    console.log(`  EC2 calls: ${r.ec2Calls.map(([call, n]) => `${call} ${n}`).join(', ')}`);
    const throttled = r.ec2Throttled.reduce((sum, [, n]) => sum + n, 0);
    console.log(
      `  EC2 throttled (RequestLimitExceeded): ${throttled}${throttled > 0 ? ` (${r.ec2Throttled.map(([call, n]) => `${call} ${n}`).join(', ')})` : ''}`,
    );
    console.log('  CPU s by scenario step (the whole process, from the step to the next):');
    for (const s of r.steps) console.log(`  ${fmt(s.cpuSeconds).padStart(8)}  ${s.step}`);
    for (const f of r.failures) console.log(`  FAILED: ${f}`);
  }
}

const options = parseArgs(process.argv.slice(2));
const rows: BenchRow[] = [];
for (const name of options.only ?? SCALE_SCENARIOS) {
  if (!options.json) console.error(`running ${name}${options.factor === 1 ? '' : ` x${options.factor}`} ...`);
  rows.push(await runOne(name, options.factor));
}
if (options.json) console.log(JSON.stringify(rows, null, 2));
else print(rows);
