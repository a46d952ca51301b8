/**
 * Times a fresh Node.js process: its wall time, and how long its main thread waited for a CPU (the
 * second field of Linux's `/proc/self/task/<pid>/schedstat`, reported by a preload when the process
 * exits, through file descriptor 3). Wall time minus that wait is what the process takes on an idle
 * machine (see run-queue.ts): benchmarks of fresh processes judge their targets on it, so a shared
 * host's load does not fail them, and print the wall time beside it.
 */
import { spawnSync } from 'node:child_process';

/** Writes the main thread's schedstat line to fd 3 at exit (a few lines, no dependency). */
const REPORT_WAIT =
  "import{readFileSync,writeSync}from'node:fs';process.on('exit',()=>{try{writeSync(3,readFileSync('/proc/self/task/'+process.pid+'/schedstat','utf8'))}catch{}});";
const PRELOAD = `data:text/javascript,${encodeURIComponent(REPORT_WAIT)}`;

/** One timed run of a child process. */
export interface ChildTiming {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall milliseconds from the spawn to the exit. */
  readonly wallMs: number;
  /** Milliseconds its main thread waited on a run queue; undefined where the kernel does not say. */
  readonly queuedMs?: number;
  /** `wallMs` less `queuedMs`: the run on an idle machine. */
  readonly idleWallMs: number;
}

/** Runs `node <args>` (with the reporting preload first) and times it. */
export function timeNodeProcess(args: readonly string[], env?: NodeJS.ProcessEnv): ChildTiming {
  const start = performance.now();
  const run = spawnSync(process.execPath, ['--import', PRELOAD, ...args], {
    encoding: 'utf8',
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  const wallMs = performance.now() - start;
  const queuedMs = waitedMs(String(run.output?.[3] ?? ''));
  return {
    status: run.status,
    stdout: run.stdout,
    stderr: run.stderr,
    wallMs,
    ...(queuedMs === undefined ? {} : { queuedMs }),
    idleWallMs: wallMs - (queuedMs ?? 0),
  };
}

/** The run-queue wait (ms) of a schedstat line (`<on-cpu ns> <waiting ns> <timeslices>`). */
export function waitedMs(schedstat: string): number | undefined {
  const waited = Number(schedstat.trim().split(/\s+/)[1]);
  return schedstat.trim() !== '' && Number.isFinite(waited) ? waited / 1e6 : undefined;
}
