import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { childCpuMs } from '../../helpers/file-profile.js';

// A /proc/<pid>/stat line: pid (comm) state ppid ... utime stime cutime cstime ...
const stat = (comm: string, cutime: number, cstime: number) =>
  `4242 (${comm}) S 1 4242 4242 0 -1 4194560 1500 0 0 0 731 42 ${cutime} ${cstime} 20 0 11 0 9 1234 56\n`;

describe('the test-file profile', () => {
  it("reads the CPU of a process's waited-for children from its stat line, in milliseconds", () => {
    expect(childCpuMs(stat('node', 1229, 31))).toBe(12_600);
    expect(childCpuMs(stat('node', 0, 0))).toBe(0);
  });

  it('counts fields after the last parenthesis, whatever the command name holds', () => {
    expect(childCpuMs(stat('a) b (c) d', 7, 3))).toBe(100);
  });

  it('refuses a line that is not a stat line, quoting it', () => {
    expect(() => childCpuMs('no parentheses here')).toThrow(/not a \/proc stat line: "no parentheses here"/);
    expect(() => childCpuMs('1 (node) S 1 2')).toThrow(/no cutime\/cstime/);
  });

  it.skipIf(process.platform !== 'linux')("reads this process's own stat line", () => {
    expect(childCpuMs(readFileSync('/proc/self/stat', 'utf8'))).toBeGreaterThanOrEqual(0);
  });
});
