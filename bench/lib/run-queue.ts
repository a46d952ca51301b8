/**
 * How long this process's main thread waited for a CPU (Linux `/proc/self/task/<pid>/schedstat`,
 * its second field: nanoseconds spent runnable on a run queue). On a shared machine a benchmark's
 * wall time is mostly that wait; wall time minus it is what the run would take on an idle machine
 * (the thread's CPU time plus its own sleeps), which is how bench:scale estimates idle wall time.
 */
import { readFileSync } from 'node:fs';

/** Seconds the main thread has waited on a run queue so far; undefined where the kernel does not say. */
export function runQueueSeconds(): number | undefined {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').trim().split(/\s+/);
    const waited = Number(fields[1]);
    return Number.isFinite(waited) ? waited / 1e9 : undefined;
  } catch {
    return undefined;
  }
}
