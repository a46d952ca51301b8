/**
 * Chaos runs side by side: each run in a child process of its own (chaos-child.ts), at most `jobs`
 * at once. A run spends most of its wall time waiting rather than computing (wall-time retry
 * backoffs under the injected throttling, the simulated cloud's loopback round trips), so runs next
 * to each other share the cores instead of leaving them idle. Each run has its own simulated cloud,
 * seed and virtual clock; to a run, the others are host load.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChaosReport } from './run-chaos.js';

/** One run of a sweep. */
export interface RunSpec {
  readonly seed: number;
  readonly replicas: number;
  /** Virtual seconds per wall second while everything waits (default Infinity). */
  readonly speed?: number;
  /** Appends every log line of the run, prefixed with the run (`seed 3 x 6: `). */
  readonly logFile?: string;
}

/** What {@link runSideBySide} tells as the runs go. */
export interface SideBySideOptions {
  /** Runs at once (at least 1). */
  readonly jobs: number;
  /** Called when a run starts. */
  readonly onStart?: (spec: RunSpec) => void;
  /** Called with each report as its run ends (in the order they end). */
  readonly onReport?: (report: ChaosReport) => void;
  /** The module each run executes (default chaos-child.ts; tests give a stand-in). */
  readonly child?: string;
}

const CHILD = fileURLToPath(new URL('./chaos-child.ts', import.meta.url));

/** Runs `specs` at most `jobs` at once; resolves with their reports in the order of `specs`. */
export async function runSideBySide(
  specs: readonly RunSpec[],
  options: SideBySideOptions,
): Promise<ChaosReport[]> {
  if (!Number.isInteger(options.jobs) || options.jobs < 1)
    throw new Error(`chaos: --jobs must be a positive integer, got ${options.jobs}`);
  const reports: ChaosReport[] = new Array(specs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < specs.length) {
      const index = next++;
      const spec = specs[index] as RunSpec;
      options.onStart?.(spec);
      const report = await runInChild(options.child ?? CHILD, spec);
      reports[index] = report;
      options.onReport?.(report);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.jobs, specs.length) }, worker));
  return reports;
}

/** One run in a child process (the same Node flags as this one, so the TypeScript loader too). */
function runInChild(module: string, spec: RunSpec): Promise<ChaosReport> {
  return new Promise((resolve, reject) => {
    const child = fork(module, [JSON.stringify({ ...spec, speed: speedText(spec.speed) })], {
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let report: ChaosReport | undefined;
    child.on('message', (message) => {
      report = message as ChaosReport;
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (report) resolve(report);
      else
        reject(
          new Error(
            `chaos: the run of seed ${spec.seed} at ${spec.replicas} replicas ended without a report (exit ${code ?? signal})`,
          ),
        );
    });
  });
}

/** JSON has no Infinity: the speed travels as text. */
const speedText = (speed: number | undefined): string | undefined =>
  speed === undefined ? undefined : String(speed);
