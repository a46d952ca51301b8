import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { createJoinerApp } from '../../lib/app.js';
import { stubCode } from './stack-fixture.js';

const context = {
  'joiner:clusterName': 'prod',
  'joiner:account': '111111111111',
  'joiner:region': 'us-west-2',
};
const stubbed = { overrides: { code: stubCode } };

describe('the CDK app', () => {
  const dir = mkdtempSync(join(tmpdir(), 'joiner-app-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails with a clear message when the cluster name is missing', () => {
    expect(() => createJoinerApp({ context: { 'joiner:region': 'us-west-2' } })).toThrow(
      /EKS cluster name is missing.*"joiner:clusterName" in cdk\.json context/,
    );
    expect(() => createJoinerApp({ context: { 'joiner:clusterName': '' } })).toThrow(
      /cluster name is missing/,
    );
  });

  it('rejects bad context values, naming the key', () => {
    expect(() => createJoinerApp({ context: { ...context, 'joiner:logLevel': 'LOUD' } })).toThrow(
      /joiner:logLevel/,
    );
    expect(() => createJoinerApp({ context: { ...context, 'joiner:batchingWindowSeconds': '2.5' } })).toThrow(
      /joiner:batchingWindowSeconds/,
    );
    expect(() =>
      createJoinerApp({ context: { ...context, 'joiner:nodePoolFiles': 'missing.yaml' }, baseDir: dir }),
    ).toThrow(/joiner:nodePoolFiles: cannot read missing\.yaml/);
    expect(() => createJoinerApp({ context: { ...context, 'joiner:clusterName': 'bad name!' } })).toThrow(
      /not a valid EKS cluster name/,
    );
  });

  it('installs the NodePool files named in context', () => {
    writeFileSync(join(dir, 'pools.yaml'), 'apiVersion: joiner.sh/v1\nkind: NodePool\n');
    const { app, stack } = createJoinerApp({
      context: { ...context, 'joiner:nodePoolFiles': ['pools.yaml'] },
      baseDir: dir,
      ...stubbed,
    });
    const template = app.synth().getStackArtifact(stack.artifactId).template;
    const install = Object.values(template.Resources as Record<string, any>).find(
      (r) => r.Type === 'Custom::JoinerClusterInstall',
    );
    expect(JSON.parse(install.Properties.Documents)).toEqual([
      { file: 'pools.yaml', content: 'apiVersion: joiner.sh/v1\nkind: NodePool\n' },
    ]);
  });

  it('fails synth when a construct is not compliant with the AwsSolutions checks', () => {
    const { app, stack } = createJoinerApp({ context, ...stubbed });
    new Queue(stack, 'PlainQueue', { enforceSSL: false });
    expect(() => app.synth()).toThrow(/AwsSolutions-SQS[34]/);
  });

  it('passes synth with the same checks when everything is compliant', () => {
    const { app } = createJoinerApp({ context, ...stubbed });
    expect(() => app.synth()).not.toThrow();
  });
});
