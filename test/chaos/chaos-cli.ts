/**
 * `npm run chaos`: chaos runs over seeds × replicas (`--seeds=1,2,3` or `--seeds=1-10`,
 * `--replicas=6` or `--replicas=4,6,8,10`, each from 1 to 10; `--speed=10` runs the clock at 10
 * virtual seconds per wall second while everything waits, default Infinity), printing the table of invariant
 * violations (every column must be 0), the violations and losses traced to the spot reclaims,
 * and the faults each run met. Runs go side by side, each in a process of its own, `--jobs` at once
 * (default: one more than the cores, as a run waits much of its wall time; `--jobs=1` runs them one
 * after the other in this process). `--log=<file>` writes every log line of the runs (each line
 * prefixed with its run when runs go side by side). Exits 1 when an
 * invariant was violated by joiner (PDB violations, lost and late pods count where the attribution
 * traces them to joiner, not to a spot reclaim or an injected fault), 2 on bad arguments.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { formatTable } from './harness/format-table.js';
import { type ChaosReport, checkReplicas, runChaos } from './harness/run-chaos.js';
import { runSideBySide } from './harness/side-by-side.js';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

/** `1,2,5-8` -> [1, 2, 5, 6, 7, 8]; throws naming the option on anything else. */
function numbers(option: string, text: string): number[] {
  return text.split(',').flatMap((part) => {
    const range = part.match(/^(\d+)-(\d+)$/);
    if (range) {
      const [from, to] = [Number(range[1]), Number(range[2])];
      if (to < from) throw new Error(`--${option}: the range ${part} runs backwards`);
      return Array.from({ length: to - from + 1 }, (_, i) => from + i);
    }
    if (!/^\d+$/.test(part)) throw new Error(`--${option}: "${part}" is not a number or a range (like 1-10)`);
    return [Number(part)];
  });
}

let seeds: number[];
let replicas: number[];
let speed: number | undefined;
let jobs: number;
try {
  seeds = numbers('seeds', arg('seeds') ?? '1,2,3');
  replicas = numbers('replicas', arg('replicas') ?? '6');
  for (const r of replicas) checkReplicas(r);
  const speedArg = arg('speed');
  if (speedArg !== undefined) {
    speed = speedArg === 'Infinity' ? Number.POSITIVE_INFINITY : Number(speedArg);
    if (!(speed > 0)) throw new Error(`--speed: "${speedArg}" is not a positive number or Infinity`);
  }
  const jobsArg = arg('jobs');
  jobs = jobsArg === undefined ? availableParallelism() + 1 : Number(jobsArg);
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs: "${jobsArg}" is not a positive integer`);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
const logFile = arg('log');
if (logFile) writeFileSync(logFile, '');
const runs = replicas.flatMap((r) => seeds.map((seed) => ({ seed, replicas: r })));
const started = (run: { seed: number; replicas: number }) =>
  process.stderr.write(`chaos run: seed ${run.seed}, ${run.replicas} replicas x 3 deployments...\n`);
// Each row as it is measured (a long sweep shows its progress; the table follows at the end).
const measured = (report: ChaosReport) =>
  process.stderr.write(`${formatTable([report]).split('\n').slice(2).join('\n')}\n`);
let reports: ChaosReport[] = [];
if (jobs === 1 || runs.length === 1) {
  const onLog = logFile ? (line: string) => appendFileSync(logFile, `${line}\n`) : undefined;
  for (const run of runs) {
    started(run);
    const report = await runChaos({ ...run, onLog, ...(speed ? { speed } : {}) });
    reports.push(report);
    measured(report);
  }
} else {
  reports = await runSideBySide(
    runs.map((run) => ({ ...run, speed, logFile })),
    { jobs, onStart: started, onReport: measured },
  );
}
console.log(formatTable(reports));
// PDB violations, lost pods and late pods count against joiner where the attribution says they
// are its own; those of the spot reclaims and injected faults are listed, not failed.
const joinerViolations = (r: ChaosReport): number => {
  const { doubleLaunches, orphansAfterGc, limitViolations, iamDenials } = r.invariants;
  const { pdbViolations, podsLost, podsLate } = r.attribution;
  return (
    doubleLaunches +
    orphansAfterGc +
    limitViolations +
    iamDenials +
    pdbViolations.joiner +
    podsLost.joiner +
    podsLate.joiner
  );
};
const violated = reports.some((r) => joinerViolations(r) > 0);
process.exit(violated ? 1 : 0);
