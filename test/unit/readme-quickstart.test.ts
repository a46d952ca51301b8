/**
 * The README's quickstart stays true: it starts with the newcomer commands, the report it tells
 * you to open is the one `npm start` writes, and its local commands run as it says (the scenario
 * itself is played by test/e2e/seed-000-multus.cases.ts, kubectl by test/e2e/kubectl.test.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONTEXT_KEYS } from '../../lib/context.js';
import packageJson from '../../package.json' with { type: 'json' };
import { runJoiner } from '../helpers/run-joiner.js';

const readme = readFileSync('README.md', 'utf8');
const quickstart = readme.slice(
  readme.indexOf('## Quickstart'),
  readme.indexOf('\n## ', readme.indexOf('## Quickstart') + 1),
);

/** The commands of the quickstart's shell blocks, without comments. */
const commands = [...quickstart.matchAll(/```sh\n([\s\S]*?)```/g)]
  .flatMap((m) => m[1].split('\n'))
  .map((line) => line.replace(/\s+#.*$/, '').trim())
  .filter((line) => line !== '');

describe('the README quickstart', () => {
  it('comes first, after the three newcomer commands, and is short', () => {
    expect(readme.startsWith('# joiner\n\n```sh\nnpm ci\nnpm start ')).toBe(true);
    expect(readme.split('\n').slice(0, 8).join('\n')).toMatch(/\nnpm test +#/);
    expect(quickstart.split('\n').length).toBeLessThanOrEqual(42);
  });

  it('opens the report npm start writes', () => {
    const report = /--report (\S+)/.exec(packageJson.scripts.start)?.[1];
    expect(report).toBeDefined();
    expect(commands.some((c) => c.includes(`open ${report}`))).toBe(true);
  });

  it('runs its joiner commands as written', async () => {
    const joiner = commands.filter((c) => c.startsWith('npx joiner ') && !c.includes('my-'));
    expect(joiner.map((c) => c.split(' ')[2])).toEqual(['plan', 'sim']);
    for (const command of joiner) {
      const args = command.split(/\s+/).slice(2);
      // sim up serves until Ctrl-C: its usage is checked instead (test/e2e/sim-up-clock.test.ts runs it).
      const run = await runJoiner(...(args[0] === 'sim' ? [...args, '--help'] : args));
      expect(run.code, `${command}\n${run.out}`).toBe(0);
    }
  });

  it('applies files that exist and are valid, and deploys with context keys joiner knows', async () => {
    const applied = commands.filter((c) => c.startsWith('kubectl apply -f ')).map((c) => c.split(' ')[3]);
    expect(applied.length).toBeGreaterThan(0);
    for (const file of applied) {
      expect(existsSync(file), file).toBe(true);
      expect((await runJoiner('validate', file)).code, file).toBe(0);
    }
    const deploy = commands.find((c) => c.startsWith('npx cdk deploy'));
    const keys = [...(deploy ?? '').matchAll(/-c (joiner:\w+)=/g)].map((m) => m[1]);
    expect(keys).toContain('joiner:clusterName');
    for (const key of keys) expect(Object.values(CONTEXT_KEYS)).toContain(key);
  });
});
