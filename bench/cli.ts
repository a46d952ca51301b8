/**
 * `npm run bench:cli`: how fast the shipped `joiner` command starts. Builds the compiled CLI
 * (as `npm ci` does), then times fresh processes of `node bin/joiner.js`:
 * - `joiner --help` (target: median <= 300 ms),
 * - `joiner --version`,
 * - `joiner plan` of a file with a NodePool, an EC2NodeClass and 50 pending pods of mixed sizes
 *   (target: median <= 1 s).
 * Prints min / median / max over several runs of the idle-machine wall time (wall time less the
 * process's wait for a CPU, see lib/timed-child.ts), which the targets apply to, and the median
 * wall time; exits 1 when a median misses its target.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChildTiming, timeNodeProcess } from './lib/timed-child.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'bin/joiner.js');
const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 7);

/** 50 pending pods: five shapes of cpu / memory requests, ten of each. */
export function fiftyPods(): string {
  const shapes = [
    ['250m', '256Mi'],
    ['500m', '512Mi'],
    ['1', '1Gi'],
    ['2', '4Gi'],
    ['100m', '2Gi'],
  ];
  const docs: string[] = [];
  for (let i = 0; i < 50; i++) {
    const [cpu, memory] = shapes[i % shapes.length];
    docs.push(
      [
        'apiVersion: v1',
        'kind: Pod',
        `metadata: { name: app-${i}, namespace: default, labels: { app: app-${i % 5} } }`,
        'spec:',
        '  containers:',
        `    - { name: app, image: nginx, resources: { requests: { cpu: "${cpu}", memory: ${memory} } } }`,
      ].join('\n'),
    );
  }
  return docs.join('\n---\n');
}

function timeRun(args: string[]): ChildTiming {
  const run = timeNodeProcess([CLI, ...args]);
  if (run.status !== 0) throw new Error(`joiner ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return run;
}

function stats(values: number[]): { min: number; median: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] };
}

function main(): number {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'bench-cli-'));
  try {
    const file = join(dir, 'plan-50-pods.yaml');
    const pools = readFileSync(join(ROOT, 'examples/consolidation/nodepool.yaml'), 'utf8');
    writeFileSync(file, `${pools}\n---\n${fiftyPods()}\n`);
    const out = execFileSync(process.execPath, [CLI, 'plan', file], { encoding: 'utf8' });
    const packing = out.split('\n')[0];
    if (!packing.includes('for 50 pod(s)')) throw new Error(`the plan did not place the 50 pods: ${packing}`);
    const cases: { name: string; args: string[]; targetMs?: number }[] = [
      { name: 'joiner --help', args: ['--help'], targetMs: 300 },
      { name: 'joiner --version', args: ['--version'] },
      { name: 'joiner plan (50 pods)', args: ['plan', file], targetMs: 1000 },
    ];
    console.log(
      `node ${process.version}, ${RUNS} runs each (ms of a fresh process: idle-machine wall, i.e. wall less the wait for a CPU; and wall); plan: ${packing}`,
    );
    console.log('case                    min     median  max     wall median  target');
    let failed = false;
    for (const c of cases) {
      timeRun(c.args); // warm the file cache
      const runs = Array.from({ length: RUNS }, () => timeRun(c.args));
      const s = stats(runs.map((r) => r.idleWallMs));
      const wall = stats(runs.map((r) => r.wallMs)).median;
      const ok = c.targetMs === undefined || s.median <= c.targetMs;
      failed ||= !ok;
      const target = c.targetMs === undefined ? '-' : `<= ${c.targetMs} ${ok ? 'ok' : 'MISSED'}`;
      console.log(
        `${c.name.padEnd(22)}  ${s.min.toFixed(0).padEnd(6)}  ${s.median.toFixed(0).padEnd(6)}  ${s.max.toFixed(0).padEnd(6)}  ${wall.toFixed(0).padEnd(11)}  ${target}`,
      );
    }
    return failed ? 1 : 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = main();
