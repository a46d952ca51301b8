/**
 * The README's IAM table against the synthesized template: every (role, action) the stack grants
 * is listed, and every listed one is granted, so the table cannot drift from the policies.
 */
import { readFileSync } from 'node:fs';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { createJoinerApp } from '../../lib/app.js';
import { stubCode } from './stack-fixture.js';

/** `JoinerFunctionsControllerRole9BAB5B4F` -> `ControllerRole`, `JoinerInstallProviderframeworkonEventServiceRole…` -> `InstallProvider`. */
function roleLabel(logicalId: string): string {
  return logicalId
    .replace(/[0-9A-F]{8}$/, '')
    .replace(/^Joiner/, '')
    .replace(/^Functions/, '')
    .replace(/ProviderframeworkonEventServiceRole$/, 'Provider');
}

/** `role action` pairs the template grants (managed policies as `policy/<name>`). */
function granted(template: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  const resources = (template as { Resources: Record<string, { Type: string; Properties: any }> }).Resources;
  for (const [id, r] of Object.entries(resources)) {
    if (r.Type === 'AWS::IAM::Policy') {
      const roles: string[] = (r.Properties.Roles ?? []).map((ref: { Ref: string }) => roleLabel(ref.Ref));
      for (const st of r.Properties.PolicyDocument.Statement)
        for (const action of [st.Action].flat()) for (const role of roles) out.add(`${role} ${action}`);
    }
    if (r.Type === 'AWS::IAM::Role') {
      for (const arn of r.Properties.ManagedPolicyArns ?? []) {
        const name = JSON.stringify(arn).match(/:iam::aws:policy\/(?:service-role\/)?([\w-]+)/)?.[1];
        if (name) out.add(`${roleLabel(id)} policy/${name}`);
      }
    }
  }
  return out;
}

/** `role action` pairs of the README table (between the iam-table markers). */
function listed(readme: string): Set<string> {
  const start = readme.indexOf('<!-- iam-table:start -->');
  const end = readme.indexOf('<!-- iam-table:end -->');
  if (start === -1 || end === -1) throw new Error('README.md: the iam-table markers are missing');
  const out = new Set<string>();
  for (const line of readme.slice(start, end).split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5 || cells[1] === 'role' || cells[1]?.startsWith('---')) continue;
    const roles = cells[1].split(',').map((r) => r.trim());
    const actions = [...cells[2].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    for (const role of roles) for (const action of actions) out.add(`${role} ${action}`);
  }
  return out;
}

describe('the README IAM table', () => {
  const { app, stack } = createJoinerApp({
    // With the optional grants on (joiner:ebsKmsKeyArns): the table lists their rows too.
    context: {
      'joiner:clusterName': 'prod',
      'joiner:account': '111111111111',
      'joiner:region': 'us-west-2',
      'joiner:ebsKmsKeyArns': ['arn:aws:kms:us-west-2:111111111111:key/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b'],
    },
    overrides: { code: stubCode },
  });
  const template = Template.fromStack(stack).toJSON();
  void app;

  it('lists exactly the actions the synthesized stack grants, role by role', () => {
    const inTemplate = granted(template);
    const inReadme = listed(readFileSync('README.md', 'utf8'));
    expect(inTemplate.size).toBeGreaterThan(50);
    const missing = [...inTemplate].filter((g) => !inReadme.has(g)).sort();
    const stale = [...inReadme].filter((g) => !inTemplate.has(g)).sort();
    expect({ missingFromReadme: missing, notGranted: stale }).toEqual({
      missingFromReadme: [],
      notGranted: [],
    });
  });

  it('gives every row a reason and a Karpenter statement (or says it has none)', () => {
    const readme = readFileSync('README.md', 'utf8');
    const table = readme.slice(
      readme.indexOf('<!-- iam-table:start -->'),
      readme.indexOf('<!-- iam-table:end -->'),
    );
    const rows = table.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| role'));
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      const cells = row.split('|').map((c) => c.trim());
      expect(cells[3], row).not.toBe('');
      expect(cells[4], row).toMatch(/^(Allow\w+|none — )/);
    }
  });
});
