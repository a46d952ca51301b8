import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };

const run = promisify(execFile);

/** Runs the shipped command (`node bin/joiner.js`, the compiled CLI) and returns code and output. */
async function joiner(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', ['bin/joiner.js', ...args], { encoding: 'utf8' });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'joiner-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('joiner CLI (the compiled command)', () => {
  it('prints help listing its commands and the supported Node.js versions', async () => {
    const { code, stdout, stderr } = await joiner('--help');
    expect(code).toBe(0);
    for (const cmd of ['validate', 'plan', 'sim', 'simulate']) expect(stdout).toContain(cmd);
    expect(stdout).toContain('Node.js versions: 20 and 22');
    expect(stderr).toBe('');
  });

  it('prints its version', async () => {
    const { code, stdout } = await joiner('--version');
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(packageJson.version);
  });

  it('validates a file given positionally and reports a YAML error once, with file, line and column', async () => {
    const file = join(dir, 'bad.yaml');
    await writeFile(
      file,
      'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: a\n  b: [\nspec: {}\n',
    );
    const { code, stdout, stderr } = await joiner('validate', file);
    expect(code).toBe(1);
    const errors = stdout.split('\n').filter((l) => l.includes('YAML syntax error'));
    expect(errors).toEqual([expect.stringContaining(`${file}:6:1: document 1: YAML syntax error: `)]);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses plan without input, with its usage and no stack trace', async () => {
    const { code, stdout, stderr } = await joiner('plan');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('joiner plan needs input');
    expect(stderr).toContain('Usage: joiner plan [options] [files...]');
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('plans a file given positionally, without warnings on stderr', async () => {
    const { code, stdout, stderr } = await joiner('plan', 'examples/consolidation');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^computed packing of \d+ node\(s\) for \d+ pod\(s\)/);
    expect(stderr).toBe('');
  });
});
