import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { createJoinerApp } from '../../lib/app.js';
import { ContextError } from '../../lib/context.js';
import { stubCode } from './stack-fixture.js';

/** The `-c key=value` pairs of the README's `npx cdk synth` example, over the checked-in cdk.json context. */
function readmeSynthContext(): Record<string, string> {
  const readme = readFileSync('README.md', 'utf8');
  const line = readme.split('\n').find((l) => l.startsWith('npx cdk synth -c '));
  if (!line) throw new Error('README.md has no "npx cdk synth -c ..." example');
  const pairs = [...line.matchAll(/-c (\S+?)=(\S+)/g)].map((m) => [m[1], m[2]] as const);
  const cdkJson = JSON.parse(readFileSync('cdk.json', 'utf8')) as { context: Record<string, string> };
  return { ...cdkJson.context, ...Object.fromEntries(pairs) };
}

describe('the README synth example', () => {
  const context = readmeSynthContext();

  // Synthesized while collecting: the first synth of a file loads CDK, which is slow under load.
  const { stack } = createJoinerApp({ context, baseDir: process.cwd(), overrides: { code: stubCode } });

  it('synthesizes as written (the seed-000 files, with the role their NodeClass names)', () => {
    expect(context['joiner:nodePoolFiles']).toBe('examples/seed-000/nodepool.yaml');
    const install = Template.fromStack(stack).findResources('Custom::JoinerClusterInstall');
    const documents = JSON.parse(Object.values(install)[0]?.Properties.Documents as string);
    expect(documents.map((d: { file: string }) => d.file)).toEqual(['examples/seed-000/nodepool.yaml']);
  });

  it('fails without joiner:nodeRoleArns, naming the file, the NodeClass and the role', () => {
    const { 'joiner:nodeRoleArns': _, ...without } = context;
    let problems: readonly string[] = [];
    try {
      createJoinerApp({ context: without, baseDir: process.cwd(), overrides: { code: stubCode } });
    } catch (error) {
      expect(error).toBeInstanceOf(ContextError);
      problems = (error as ContextError).problems;
    }
    expect(problems).toEqual([
      expect.stringMatching(
        /^joiner:nodePoolFiles: examples\/seed-000\/nodepool\.yaml: NodeClass\/multus: spec\.role: .*role KarpenterNodeRole-eks-karpenterwithmultus is not in the node roles joiner may pass .*add its ARN to joiner:nodeRoleArns/,
      ),
    ]);
  });

  it("only warns for a role named like the stack's own node role (its name is generated at deploy)", () => {
    const { 'joiner:nodeRoleArns': _, ...without } = context;
    const yaml = readFileSync('examples/seed-000/nodepool.yaml', 'utf8').replace(
      'role: KarpenterNodeRole-eks-karpenterwithmultus',
      'role: Joiner-JoinerNodeRoleABC-1A2B3C',
    );
    const dir = mkdtempSync(join(tmpdir(), 'joiner-readme-'));
    const file = 'pools.yaml';
    writeFileSync(join(dir, file), yaml);
    try {
      const { app, stack } = createJoinerApp({
        context: { ...without, 'joiner:nodePoolFiles': file },
        baseDir: dir,
        overrides: { code: stubCode },
      });
      const warnings = app
        .synth()
        .getStackArtifact(stack.artifactId)
        .messages.filter((m) => m.level === 'warning')
        .map((m) => String(m.entry.data));
      expect(warnings.some((w) => w.includes("may be the stack's own node role"))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
