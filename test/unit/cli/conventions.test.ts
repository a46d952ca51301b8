import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJoiner } from '../../helpers/run-joiner.js';

/** Every command and subcommand a user can run, as its words on the command line. */
const COMMANDS = [
  ['validate'],
  ['plan'],
  ['simulate'],
  ['sim'],
  ['sim', 'up'],
  ['catalog'],
  ['catalog', 'fetch'],
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'joiner-conventions-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('every joiner command', () => {
  it.each(COMMANDS.map((words) => [words.join(' '), words]))(
    '%s --help exits 0 and shows examples of itself',
    async (name, words) => {
      const r = await runJoiner(...words, '--help');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Examples:');
      expect(r.stdout).toContain(`$ joiner ${words[0]}`);
      expect(r.stderr, name).toBe('');
    },
  );

  it('joiner --help lists the exit codes every command uses', async () => {
    const r = await runJoiner('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Exit codes \(every command\):\n {2}0 {2}success\n {2}1 {2}the answer is "no"/);
    expect(r.stdout).toContain('2  bad input');
  });

  it.each(COMMANDS.map((words) => [words.join(' '), words]))(
    '%s with an unknown option exits 2 and names it',
    async (_name, words) => {
      // catalog fetch checks its required options first; give them so the unknown one is the error.
      const required = words[1] === 'fetch' ? ['--region', 'eu-west-1', '--output-file', 'x.json'] : [];
      const r = await runJoiner(...words, ...required, '--no-such-option');
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("unknown option '--no-such-option'");
    },
  );

  it('an unknown command, and no command at all, exit 2', async () => {
    const unknown = await runJoiner('simulat');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'simulat'");
    expect(unknown.stderr).toContain('(Did you mean simulate?)');
    expect((await runJoiner()).code).toBe(2);
    expect((await runJoiner('sim')).code).toBe(2);
  });

  it.each([
    ['simulate', '--seed', '-3', /'--seed <n>' argument '-3' is invalid\. expected a whole number from 0/],
    ['simulate', '--seed', '1.5', /argument '1\.5' is invalid/],
    ['simulate', '--seed', '99999999999', /argument '99999999999' is invalid/],
    ['simulate', '--speed', 'abc', /'--speed <x>' argument 'abc' is invalid\. expected a positive number/],
    ['simulate', '--speed', '0', /argument '0' is invalid/],
    ['simulate', '--speed', '', /argument '' is invalid/],
    ['simulate', '-o', 'yaml', /argument 'yaml' is invalid\. expected text or json/],
  ])('%s SCENARIO %s %j exits 2', async (command, option, value, message) => {
    const r = await runJoiner(command, 'scenarios/seed-000-multus.yaml', option, value);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it.each([
    ['--seed', '-3'],
    ['--speed', 'abc'],
    ['--speed', '-1'],
  ])('sim up %s %s exits 2 before starting anything', async (option, value) => {
    const r = await runJoiner('sim', 'up', option, value);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`argument '${value}' is invalid`);
  });

  it('sim up with a missing catalog exits 2 naming the file', async () => {
    const r = await runJoiner('sim', 'up', '--catalog', join(dir, 'none.json'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('none.json');
  });
});

describe('errors name the file and never a library’s internals', () => {
  it('simulate given a file of several manifests says it is not a scenario', async () => {
    const file = join(dir, 'pods.yaml');
    await writeFile(file, 'apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Pod\n');
    const r = await runJoiner('simulate', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: holds several YAML documents (separated by ---)`);
    expect(r.stderr).not.toContain('parseAllDocuments');
  });

  it('simulate given one manifest names its kind', async () => {
    const file = join(dir, 'nodepool.yaml');
    await writeFile(file, 'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a}\nspec: {}\n');
    const r = await runJoiner('simulate', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: is a Kubernetes manifest (kind NodePool), not a scenario`);
  });

  it('simulate, plan and validate of a missing file exit 2 with "no such file"', async () => {
    const missing = join(dir, 'nope.yaml');
    for (const command of ['simulate', 'plan', 'validate']) {
      const r = await runJoiner(command, missing);
      expect(r.code, command).toBe(2);
      expect(r.out, command).toMatch(new RegExp(`${missing}: no such file`));
      expect(r.out, command).not.toContain(': -:');
    }
  });

  it('validate exits 1 (not 2) when the files are read and a document is invalid', async () => {
    const file = join(dir, 'bad-pool.yaml');
    await writeFile(
      file,
      'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a}\nspec: {weight: -1}\n',
    );
    expect((await runJoiner('validate', file)).code).toBe(1);
  });

  it('plan exits 0 when every pod has a place and 1 when one has none', async () => {
    expect((await runJoiner('plan', 'examples/seed-002')).code).toBe(0);
    const r = await runJoiner('plan', 'examples/seed-003');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\d+ pod\(s\) cannot be scheduled:/);
  });

  it('plan --help says what the files must hold', async () => {
    const r = await runJoiner('plan', '--help');
    expect(r.stdout).toContain('at least one NodePool (karpenter.sh/v1) and the EC2NodeClass it names');
    expect(r.stdout).toContain('pods without spec.nodeName are the pending ones');
    expect(r.stdout).toContain(
      'Exit 0 when every pending pod has a place, 1 when some pod cannot be scheduled',
    );
  });
});
