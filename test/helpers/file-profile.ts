/**
 * vitest setup file (see vitest.config.ts): with `JOINER_TEST_PROFILE=<file>` set, appends a JSON
 * line per test file to that file: its worker's pid, when it started and ended (wall ms), the CPU
 * it used (its process and the child processes it waited for: kubectl, the joiner CLI), and how
 * long its worker's event loop sat idle (waiting on timers, sockets or child processes). Unset, it
 * does nothing.
 *
 * CPU and idle time tell apart what a file computes from what it waits on, also on a loaded host
 * where wall times stretch with the load: a file whose idle time is a large part of its wall time
 * on a quiet host waits on something (a wall-clock poll, a process start) that another worker
 * could overlap or that virtual time could remove.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, expect } from 'vitest';

const out = process.env.JOINER_TEST_PROFILE;

/**
 * CPU milliseconds of the children a process waited for, from its `/proc/<pid>/stat` line (`cutime`
 * and `cstime`, the 16th and 17th fields, in clock ticks of 1/100 s). The command name, in
 * parentheses, may hold spaces and parentheses itself, so fields are counted after its last `)`.
 */
export function childCpuMs(stat: string): number {
  const end = stat.lastIndexOf(')');
  if (end === -1) throw new Error(`not a /proc stat line: ${JSON.stringify(stat.slice(0, 80))}`);
  // After ") " come the state (3rd field) onwards: cutime and cstime are the 14th and 15th there.
  const fields = stat
    .slice(end + 2)
    .trim()
    .split(' ');
  const [cutime, cstime] = [Number(fields[13]), Number(fields[14])];
  if (!Number.isFinite(cutime) || !Number.isFinite(cstime))
    throw new Error(`no cutime/cstime in the /proc stat line: ${JSON.stringify(stat.slice(0, 80))}`);
  return (cutime + cstime) * 10;
}

/** CPU milliseconds of this process and of the children it waited for (Linux: /proc/self/stat). */
function cpuMs(): { self: number; children: number } {
  const own = process.cpuUsage();
  let children = 0;
  try {
    children = childCpuMs(readFileSync('/proc/self/stat', 'utf8'));
  } catch {
    // Not Linux: children's CPU is not counted.
  }
  return { self: (own.user + own.system) / 1000, children };
}

if (out) {
  const started = { wall: Date.now(), cpu: cpuMs(), loop: performance.eventLoopUtilization() };
  afterAll(() => {
    const cpu = cpuMs();
    const loop = performance.eventLoopUtilization(started.loop);
    const path = expect.getState().testPath ?? 'unknown';
    appendFileSync(
      out,
      `${JSON.stringify({
        file: relative(process.cwd(), path),
        pid: process.pid,
        start: started.wall,
        end: Date.now(),
        cpuMs: Math.round(cpu.self - started.cpu.self),
        childCpuMs: Math.round(cpu.children - started.cpu.children),
        idleMs: Math.round(loop.idle),
        activeMs: Math.round(loop.active),
      })}\n`,
    );
  });
}
