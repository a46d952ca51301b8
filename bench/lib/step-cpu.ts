/**
 * Where a scale run's CPU goes, step by step: the process's CPU seconds between one scenario step's
 * log line (`simulate step N: ...`) and the next, so a run that is too slow says which phase (the
 * scale-up, the wait with every pod pending, the disruption) took the time.
 */

/** One step's share of a run. */
export interface StepCpu {
  /** The step as the scenario's log named it, e.g. `step 4: wait for podsRunning (timeout 30m)`. */
  readonly step: string;
  /** CPU seconds (user + system) of the whole process from this step's start to the next's. */
  readonly cpuSeconds: number;
}

const STEP_LINE = /\bsimulate (step \d+: .*)$/;

/** Collects {@link StepCpu} from a run's log lines; `cpuSeconds` reads the process's CPU so far. */
export class StepCpuRecorder {
  private readonly starts: { step: string; at: number }[] = [];

  constructor(private readonly cpuSeconds: () => number = processCpuSeconds) {}

  /** Takes one log line of the run (lines that start no step are ignored). */
  onLog(line: string): void {
    const match = STEP_LINE.exec(line);
    if (match) this.starts.push({ step: match[1], at: this.cpuSeconds() });
  }

  /** Each step's CPU seconds, the last one up to now (the run's end when called after it). */
  steps(): StepCpu[] {
    const end = this.cpuSeconds();
    return this.starts.map((s, i) => ({
      step: s.step,
      cpuSeconds: (this.starts[i + 1]?.at ?? end) - s.at,
    }));
  }
}

/** This process's CPU seconds so far. */
export function processCpuSeconds(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1e6;
}
