import { describe, expect, it } from 'vitest';
import { timeNodeProcess, waitedMs } from '../../../bench/lib/timed-child.js';

describe('timed child processes', () => {
  it('reads the run-queue wait of a schedstat line, and nothing from an empty or malformed one', () => {
    expect(waitedMs('98581348 366741953 43\n')).toBeCloseTo(366.741953, 6);
    expect(waitedMs('')).toBeUndefined();
    expect(waitedMs('garbage')).toBeUndefined();
  });

  it('times a fresh node process: its output, status, and idle-machine wall time within its wall time', () => {
    const run = timeNodeProcess(['-e', 'process.stdout.write("hi"); process.exitCode = 3']);
    expect(run.stdout).toBe('hi');
    expect(run.status).toBe(3);
    expect(run.wallMs).toBeGreaterThan(0);
    expect(run.idleWallMs).toBeLessThanOrEqual(run.wallMs);
    // Linux reports the wait (this suite runs on Linux); the preload adds no output of its own.
    expect(run.queuedMs).toBeGreaterThanOrEqual(0);
    expect(run.stderr).toBe('');
  });
});
