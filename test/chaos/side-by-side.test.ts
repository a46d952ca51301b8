import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChaosReport } from './harness/run-chaos.js';
import { runSideBySide } from './harness/side-by-side.js';

const STAND_IN = fileURLToPath(new URL('../fixtures/chaos/stand-in-run.mjs', import.meta.url));

/** What the stand-in reports: its run, and the most runs it saw under way at once. */
type StandIn = { seed: number; replicas: number; speed?: string; peak: number };
const standIn = (r: ChaosReport) => r as unknown as StandIn;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chaos-side-by-side-'));
  process.env.STAND_IN_DIR = dir;
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  delete process.env.STAND_IN_DIR;
  delete process.env.STAND_IN_PEERS;
  delete process.env.STAND_IN_WAIT_MS;
});

describe('chaos runs side by side', () => {
  it('runs at most `jobs` at once, each in its own process, and gives the reports in the order of the runs', async () => {
    process.env.STAND_IN_PEERS = '2';
    const specs = [3, 1, 2, 1].map((seed, i) => ({ seed, replicas: i + 1, speed: Number.POSITIVE_INFINITY }));
    const started: number[] = [];
    const ended: number[] = [];
    const reports = await runSideBySide(specs, {
      jobs: 2,
      child: STAND_IN,
      onStart: (s) => started.push(s.replicas),
      onReport: (r) => ended.push(r.replicas),
    });
    expect(reports.map((r) => [r.seed, r.replicas])).toEqual([
      [3, 1],
      [1, 2],
      [2, 3],
      [1, 4],
    ]);
    // The speed reaches the run (Infinity travels as text).
    expect(standIn(reports[0] as ChaosReport).speed).toBe('Infinity');
    // Started in order, two at once, never more.
    expect(started).toEqual([1, 2, 3, 4]);
    expect(ended.sort()).toEqual([1, 2, 3, 4]);
    for (const r of reports) expect(standIn(r).peak).toBeLessThanOrEqual(2);
    expect(reports.some((r) => standIn(r).peak === 2)).toBe(true);
  }, 30_000);

  it('one at a time with jobs 1', async () => {
    // Each run waits a second for a neighbour that never comes.
    process.env.STAND_IN_PEERS = '2';
    process.env.STAND_IN_WAIT_MS = '1000';
    const reports = await runSideBySide(
      [1, 2].map((seed) => ({ seed, replicas: 6 })),
      { jobs: 1, child: STAND_IN },
    );
    for (const r of reports) expect(standIn(r).peak).toBe(1);
  }, 30_000);

  it('fails naming the run whose process ended without a report', async () => {
    await expect(runSideBySide([{ seed: 13, replicas: 6 }], { jobs: 2, child: STAND_IN })).rejects.toThrow(
      'chaos: the run of seed 13 at 6 replicas ended without a report (exit 3)',
    );
  }, 30_000);

  it('refuses a jobs count that is not a positive integer', async () => {
    for (const jobs of [0, -1, 1.5, Number.NaN])
      await expect(runSideBySide([{ seed: 1, replicas: 6 }], { jobs, child: STAND_IN })).rejects.toThrow(
        /--jobs must be a positive integer/,
      );
  });
});
