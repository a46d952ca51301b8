import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { ENV } from '../../functions/shared/env.js';
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
    expect(() => createJoinerApp({ context: { ...context, 'joiner:kubernetesVersion': 'v1.31.2' } })).toThrow(
      /joiner:kubernetesVersion must be a Kubernetes minor version like 1\.31 \(got 'v1\.31\.2'\)/,
    );
    expect(() => createJoinerApp({ context: { ...context, 'joiner:serviceCidr': '172.20.0.0' } })).toThrow(
      /joiner:serviceCidr must be a CIDR/,
    );
  });

  it("gives the functions the cluster's version and service CIDR from context", () => {
    const extra = { 'joiner:kubernetesVersion': '1.31', 'joiner:serviceCidr': '172.20.0.0/16' };
    const { app, stack } = createJoinerApp({ context: { ...context, ...extra }, ...stubbed });
    const template = app.synth().getStackArtifact(stack.artifactId).template;
    type Resource = { Type: string; Properties: { Environment?: { Variables?: Record<string, unknown> } } };
    const functions = Object.values(template.Resources as Record<string, Resource>).filter(
      (r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Environment?.Variables?.[ENV.clusterName],
    );
    expect(functions.length).toBeGreaterThan(0);
    for (const f of functions) {
      expect(f.Properties.Environment?.Variables).toMatchObject({
        [ENV.kubernetesVersion]: '1.31',
        [ENV.serviceCidr]: '172.20.0.0/16',
      });
    }
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
