/**
 * The CloudFormation validation aws-cdk-lib runs at every `cdk synth` (its built-in template
 * checks: resource schemas, property types, references). A user's synth runs it and prints what
 * it finds as warnings; here it runs strict, so a finding fails the synth.
 *
 * The other tests synthesize with it off (`CDK_VALIDATION=false`, set in vitest.config.ts): it
 * starts a WebAssembly engine in every process that synthesizes (about 5 s of CPU) and takes about
 * a second per synth, and there it only ever printed warnings, never failed a test. This file is
 * where the stack is held to it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CfnResource } from 'aws-cdk-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { createJoinerApp } from '../../lib/app.js';
import { stubCode } from './stack-fixture.js';

/** Makes aws-cdk-lib report the built-in validation's errors as errors (a failed synth), not warnings. */
const STRICT = '@aws-cdk/core:validateAgainstDefaultRules';
const context = {
  'joiner:clusterName': 'prod',
  'joiner:account': '111111111111',
  'joiner:region': 'us-west-2',
  [STRICT]: true,
};

interface Report {
  pluginReports: { pluginName: string; violations: { ruleName: string; description: string }[] }[];
}

describe("aws-cdk-lib's built-in CloudFormation validation of the stack", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Synthesizes the stack with the validation on (whatever the environment says), `edit` applied first. */
  function synthValidated(edit: (stack: ReturnType<typeof createJoinerApp>['stack']) => void = () => {}) {
    const outdir = mkdtempSync(join(tmpdir(), 'joiner-cfn-validate-'));
    dirs.push(outdir);
    const before = process.env.CDK_VALIDATION;
    delete process.env.CDK_VALIDATION;
    try {
      const { app, stack } = createJoinerApp({ context, outdir, overrides: { code: stubCode } });
      edit(stack);
      let error: unknown;
      try {
        app.synth();
      } catch (e) {
        error = e;
      }
      const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8')) as Report;
      return { error, violations: report.pluginReports.flatMap((r) => r.violations) };
    } finally {
      if (before !== undefined) process.env.CDK_VALIDATION = before;
    }
  }

  it('passes with no finding of any severity', () => {
    const { error, violations } = synthValidated();
    expect(error).toBeUndefined();
    expect(violations).toEqual([]);
  }, 120_000);

  it('is on in that synth: a resource with an unknown property and a wrongly typed one fails it, both named', () => {
    const { error, violations } = synthValidated(
      (stack) =>
        new CfnResource(stack, 'Bad', {
          type: 'AWS::SQS::Queue',
          properties: { VisibilityTimeout: 'soon', NotAProperty: 1 },
        }),
    );
    expect(String(error)).toMatch(/ValidationFailed/);
    expect(violations.map((v) => v.description)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/NotAProperty: Additional properties are not allowed/),
        expect.stringMatching(/VisibilityTimeout: 'soon' is not of type 'integer'/),
      ]),
    );
  }, 120_000);
});
