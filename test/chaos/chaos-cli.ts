/**
 * `npm run chaos`: chaos runs over several seeds (`--seeds=1,2,3`, `--replicas=6`), printing the
 * table of invariant violations (every column must be 0) and of the faults each run met.
 * Exits 1 when an invariant was violated.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { formatTable } from './harness/format-table.js';
import { type ChaosReport, runChaos } from './harness/run-chaos.js';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const seeds = (arg('seeds') ?? '1,2,3').split(',').map(Number);
const replicas = Number(arg('replicas') ?? 6);
/** `--log=<file>`: every log line of the runs. */
const logFile = arg('log');
if (logFile) writeFileSync(logFile, '');
const onLog = logFile ? (line: string) => appendFileSync(logFile, `${line}\n`) : undefined;
const reports: ChaosReport[] = [];
for (const seed of seeds) {
  process.stderr.write(`chaos run: seed ${seed}, ${replicas} replicas x 3 deployments...\n`);
  reports.push(await runChaos({ seed, replicas, onLog }));
}
console.log(formatTable(reports));
const violated = reports.some((r) => Object.values(r.invariants).some((n) => n > 0));
process.exit(violated ? 1 : 0);
