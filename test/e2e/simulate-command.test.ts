import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerSimulate } from '../../bin/commands/simulate.js';

async function simulate(...args: string[]): Promise<{ code: number | undefined; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  const error = vi.spyOn(console, 'error').mockImplementation((...parts) => void err.push(parts.join(' ')));
  const program = new Command().exitOverride();
  registerSimulate(program);
  process.exitCode = undefined;
  try {
    await program.parseAsync(['node', 'joiner', 'simulate', ...args]);
    return { code: process.exitCode as number | undefined, out: out.join(''), err: err.join('\n') };
  } finally {
    write.mockRestore();
    error.mockRestore();
    process.exitCode = undefined;
  }
}

describe('joiner simulate', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'joiner-simulate-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('exits 2 with the file, step and field of bad input', async () => {
    const path = join(dir, 'bad.yaml');
    await writeFile(path, 'name: bad\nsteps:\n  - scale: { deployment: web }\n');
    const result = await simulate(path);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/bad\.yaml: steps\[0\]\.scale\.replicas: /);
    expect((await simulate(join(dir, 'missing.yaml'))).err).toMatch(/missing\.yaml: no such file/);
  });

  it('exits 1 naming the failed expectation and the actual value; -o json prints the summary', async () => {
    const path = join(dir, 'empty.yaml');
    await writeFile(
      path,
      'name: empty\nsteps:\n  - wait: 5s\nexpect:\n  pods: { running: 1 }\n  orphanedInstances: 0\n',
    );
    const result = await simulate(path, '-o', 'json', '--speed', '50');
    expect(result.code).toBe(1);
    expect(result.err).toContain('expect.pods.running: expected 1, got 0');
    const summary = JSON.parse(result.out);
    expect(summary).toMatchObject({
      pods: { total: 0, running: 0, pending: 0 },
      nodes: [],
      hourlyCost: 0,
      orphanedInstances: 0,
      latency: { unschedulableToLaunchMs: { p50: null, p99: null }, unschedulableToRunningMs: { p50: null } },
    });
  }, 60_000);
});
