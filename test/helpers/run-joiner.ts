import { CommanderError } from 'commander';
import { vi } from 'vitest';
import { createProgram } from '../../bin/program.js';

/** What one in-process run of the `joiner` CLI printed and its exit code. */
export interface JoinerRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr together, in order. */
  readonly out: string;
}

/**
 * Runs `joiner ARGS...` in this process (the same program bin/joiner.js runs), capturing what
 * it writes and its exit code. Starting a process per case costs seconds of TypeScript loading;
 * test/unit/cli.test.ts keeps one real run of the binary. Runs share the process's output
 * streams: await one before starting the next.
 */
export async function runJoiner(...args: string[]): Promise<JoinerRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const all: string[] = [];
  const capture = (sink: string[]) => (chunk: string | Uint8Array) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    sink.push(text);
    all.push(text);
    return true;
  };
  const out = vi
    .spyOn(process.stdout, 'write')
    .mockImplementation(capture(stdout) as typeof process.stdout.write);
  const err = vi
    .spyOn(process.stderr, 'write')
    .mockImplementation(capture(stderr) as typeof process.stderr.write);
  const line =
    (sink: string[]) =>
    (...parts: unknown[]) =>
      void capture(sink)(`${parts.map(String).join(' ')}\n`);
  const consoles = [
    vi.spyOn(console, 'log').mockImplementation(line(stdout)),
    vi.spyOn(console, 'info').mockImplementation(line(stdout)),
    vi.spyOn(console, 'warn').mockImplementation(line(stderr)),
    vi.spyOn(console, 'error').mockImplementation(line(stderr)),
  ];
  process.exitCode = undefined;
  let code: number;
  try {
    await createProgram({ exitOverride: true }).parseAsync(['node', 'joiner', ...args]);
    code = Number(process.exitCode ?? 0);
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    code = error.exitCode;
  } finally {
    for (const spy of [out, err, ...consoles]) spy.mockRestore();
    process.exitCode = undefined;
  }
  return { code, stdout: stdout.join(''), stderr: stderr.join(''), out: all.join('') };
}
