import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { ENV } from '../../functions/shared/env.js';
import { createJoinerApp } from '../../lib/app.js';
import { ContextError } from '../../lib/context.js';
import { stubCode } from './stack-fixture.js';

const context = {
  'joiner:clusterName': 'prod',
  'joiner:account': '111111111111',
  'joiner:region': 'us-west-2',
  // The roles the examples' NodeClasses name: synth refuses a role joiner may not pass.
  'joiner:nodeRoleArns':
    'arn:aws:iam::111111111111:role/KarpenterNodeRole-eks-karpenterwithmultus,arn:aws:iam::111111111111:role/KarpenterNodeRole-my-cluster',
};
const stubbed = { overrides: { code: stubCode } };

describe('the CDK app', () => {
  const dir = mkdtempSync(join(tmpdir(), 'joiner-app-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The problems a context is rejected with. */
  function problemsOf(extra: Record<string, unknown>, base: Record<string, unknown> = context): string[] {
    try {
      createJoinerApp({ context: { ...base, ...extra }, baseDir: dir, ...stubbed });
    } catch (error) {
      expect(error).toBeInstanceOf(ContextError);
      return [...(error as ContextError).problems];
    }
    throw new Error(`context ${JSON.stringify(extra)} was accepted`);
  }

  it('fails with a clear message when the cluster name is missing', () => {
    expect(problemsOf({}, { 'joiner:region': 'us-west-2' })).toEqual([
      'joiner:clusterName: the EKS cluster name is missing. Set it in cdk.json context or pass -c joiner:clusterName=<name>',
    ]);
    expect(problemsOf({ 'joiner:clusterName': '' })[0]).toMatch(/cluster name is missing/);
  });

  it.each([
    ['joiner:clusterName', 'bad name!', /must be an EKS cluster name \(1-100 letters/],
    ['joiner:clusterName', 42, /must be a string \(got 42\)/],
    ['joiner:account', '1234', /must be a 12-digit AWS account id like 111111111111 \(got '1234'\)/],
    ['joiner:region', 'Oregon', /must be an AWS region like us-west-2 \(got 'Oregon'\)/],
    ['joiner:clusterEndpoint', 'http://api.example', /must be the https URL of the API server/],
    [
      'joiner:clusterCertificateAuthority',
      'not base64!',
      /must be the cluster's base64 certificate authority data/,
    ],
    [
      'joiner:kubernetesVersion',
      'v1.31.2',
      /must be a Kubernetes minor version like 1\.31 \(got 'v1\.31\.2'\)/,
    ],
    ['joiner:serviceCidr', '172.20.0.0', /must be a CIDR like 172\.20\.0\.0\/16 or fd00::\/108/],
    ['joiner:vpcId', 'vpc-12', /must be a VPC id like vpc-0123456789abcdef0 \(got 'vpc-12'\)/],
    ['joiner:nodePoolFiles', 7, /must be a list of file paths or a comma-separated string \(got 7\)/],
    ['joiner:nodePoolFiles', 'missing.yaml', /cannot read missing\.yaml \(relative to .*\): no such file/],
    ['joiner:batchingWindowSeconds', 0, /must be whole seconds in 1\.\.300 \(got 0\).*at least 1 s/],
    ['joiner:batchingWindowSeconds', '2.5', /must be whole seconds in 1\.\.300 \(got "2\.5"\)/],
    [
      'joiner:batchingWindowSeconds',
      301,
      /must be whole seconds in 1\.\.300 \(got 301\): SQS allows at most 300/,
    ],
    ['joiner:batchIdleSeconds', 'soon', /must be seconds in 0\.\.30 \(got "soon"\)/],
    ['joiner:batchMaxSeconds', 31, /must be seconds in 0\.\.30 \(got 31\)/],
    ['joiner:batchIdleSeconds', 12, /\(12 s\) must not exceed joiner:batchMaxSeconds \(10 s\)/],
    ['joiner:webhookSecretRotation', 'a b', /must be a label of 1 to 64 printable characters/],
    ['joiner:logLevel', 'LOUD', /must be one of DEBUG, INFO, WARN, ERROR \(got "LOUD"\)/],
    ['joiner:lambdaGroup', 'has space', /must be a Kubernetes group name/],
    ['joiner:stackName', '1stack', /must be a CloudFormation stack name/],
    ['joiner:alarmEmail', 'ops', /must be an email address like ops@example\.com \(got 'ops'\)/],
    ['joiner:alarmTopicArn', 'arn:aws:sqs:us-west-2:1:q', /must be an SNS topic ARN like arn:aws:sns:/],
    ['joiner:karpenterKinds', 'sometimes', /must be one of manage, ignore \(got 'sometimes'\)/],
    ['joiner:karpenterKinds', true, /must be a string \(got true\)/],
    ['joiner:clustername', 'prod', /is not a joiner context key: did you mean joiner:clusterName\?$/],
    ['joiner:nodePoolFile', 'a.yaml', /is not a joiner context key: did you mean joiner:nodePoolFiles\?$/],
    ['joiner:regoin', 'us-west-2', /is not a joiner context key: did you mean joiner:region\?$/],
    ['joiner:somethingElse', 'x', /is not a joiner context key \(known: joiner:clusterName, /],
  ])('rejects %s = %j, naming the key and what is allowed', (key, value, message) => {
    const problems = problemsOf({ [key]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${key}: ${message.source}`));
  });

  it('accepts good values of every key', () => {
    writeFileSync(join(dir, 'good.yaml'), readFileSync('examples/seed-000/nodepool.yaml', 'utf8'));
    const good = {
      'joiner:clusterEndpoint': 'https://ABC123.gr7.us-west-2.eks.amazonaws.com',
      'joiner:clusterCertificateAuthority': 'LS0tLS1CRUdJTg==',
      'joiner:kubernetesVersion': '1.31',
      'joiner:serviceCidr': 'fd00::/108',
      'joiner:vpcId': 'vpc-0123456789abcdef0',
      'joiner:nodePoolFiles': 'good.yaml',
      'joiner:batchingWindowSeconds': '300',
      'joiner:logLevel': 'debug',
      'joiner:lambdaGroup': 'joiner:controllers',
      'joiner:stackName': 'Joiner-prod',
      'joiner:alarmEmail': 'ops@example.com',
      'joiner:karpenterKinds': 'ignore',
      'joiner:batchIdleSeconds': '0.5',
      'joiner:batchMaxSeconds': 5,
    };
    const { stack } = createJoinerApp({ context: { ...context, ...good }, baseDir: dir, ...stubbed });
    expect(stack.stackName).toBe('Joiner-prod');
  });

  it('re-runs the installer when joiner:webhookSecretRotation changes', () => {
    const installOf = (extra: Record<string, unknown>) => {
      const { stack } = createJoinerApp({ context: { ...context, ...extra }, baseDir: dir, ...stubbed });
      const resources = Template.fromStack(stack).findResources('Custom::JoinerClusterInstall');
      return Object.values(resources)[0]?.Properties as Record<string, unknown>;
    };
    expect(installOf({}).WebhookSecretRotation).toBeUndefined();
    expect(installOf({ 'joiner:webhookSecretRotation': '2026-11-25' }).WebhookSecretRotation).toBe(
      '2026-11-25',
    );
  });

  it('passes the batch window to the controller functions, and leaves it unset by default', () => {
    const windowOf = (extra: Record<string, unknown>) => {
      const { stack } = createJoinerApp({ context: { ...context, ...extra }, baseDir: dir, ...stubbed });
      type Fn = { Properties: { Environment?: { Variables?: Record<string, unknown> } } };
      const lambdas = Object.values(
        Template.fromStack(stack).findResources('AWS::Lambda::Function') as Record<string, Fn>,
      );
      return new Set(
        lambdas
          .map((l) => l.Properties.Environment?.Variables ?? {})
          .filter((vars) => vars[ENV.clusterName] !== undefined)
          .map((vars) => `${vars[ENV.batchIdleSeconds]}/${vars[ENV.batchMaxSeconds]}`),
      );
    };
    expect(windowOf({ 'joiner:batchIdleSeconds': 2, 'joiner:batchMaxSeconds': '20' })).toEqual(
      new Set(['2/20']),
    );
    expect(windowOf({ 'joiner:batchMaxSeconds': 4 })).toEqual(new Set(['1/4']));
    expect(windowOf({})).toEqual(new Set(['undefined/undefined']));
  });

  it('passes joiner:karpenterKinds to the controller functions, and leaves it unset by default', () => {
    const settingOf = (extra: Record<string, unknown>) => {
      const { stack } = createJoinerApp({ context: { ...context, ...extra }, baseDir: dir, ...stubbed });
      type Fn = { Properties: { Environment?: { Variables?: Record<string, unknown> } } };
      const lambdas = Object.values(
        Template.fromStack(stack).findResources('AWS::Lambda::Function') as Record<string, Fn>,
      );
      return new Set(
        lambdas
          .map((l) => l.Properties.Environment?.Variables ?? {})
          .filter((vars) => vars[ENV.clusterName] !== undefined)
          .map((vars) => vars[ENV.karpenterKinds]),
      );
    };
    expect(settingOf({ 'joiner:karpenterKinds': 'ignore' })).toEqual(new Set(['ignore']));
    expect(settingOf({})).toEqual(new Set([undefined]));
  });

  it('lists every problem at once', () => {
    const problems = problemsOf({ 'joiner:region': 'x', 'joiner:logLevel': 'LOUD', 'joiner:vpcId': 'v' });
    expect(problems.map((p) => p.split(':').slice(0, 2).join(':'))).toEqual([
      'joiner:region',
      'joiner:vpcId',
      'joiner:logLevel',
    ]);
    expect(
      problemsOf({
        'joiner:alarmEmail': 'a@b.co',
        'joiner:alarmTopicArn': 'arn:aws:sns:us-west-2:111111111111:t',
      }),
    ).toEqual(['joiner:alarmEmail: set either it or joiner:alarmTopicArn, not both']);
  });

  it('checks the NodePool files with the loader of joiner validate: file, document, field', () => {
    writeFileSync(
      join(dir, 'bad.yaml'),
      [
        'apiVersion: karpenter.sh/v1',
        'kind: NodePool',
        'metadata: { name: web }',
        'spec:',
        '  template:',
        '    spec:',
        '      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }',
        '      requirements:',
        '        - { key: karpenter.sh/capacity-type, operator: Within, values: [spot] }',
        '---',
        'kind: [',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'empty.yaml'), '# nothing here\n');
    const problems = problemsOf({ 'joiner:nodePoolFiles': ['bad.yaml', 'empty.yaml'] });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^joiner:nodePoolFiles: bad\.yaml:\d+:\d+: document 2: YAML syntax error: /),
        expect.stringMatching(
          /^joiner:nodePoolFiles: bad\.yaml: NodePool\/web: spec\.template\.spec\.requirements\[0\]\.operator: /,
        ),
        'joiner:nodePoolFiles: empty.yaml: holds no YAML document',
      ]),
    );
  });

  it('reads a directory in joiner:nodePoolFiles as joiner validate -f DIR does', () => {
    mkdirSync(join(dir, 'pools', 'nested'), { recursive: true });
    mkdirSync(join(dir, 'nothing'), { recursive: true });
    const pools = readFileSync('examples/seed-000/nodepool.yaml', 'utf8');
    writeFileSync(join(dir, 'pools', 'nested', 'multus.yaml'), pools);
    writeFileSync(join(dir, 'pools', 'notes.txt'), 'not yaml');
    const { app, stack } = createJoinerApp({
      context: { ...context, 'joiner:nodePoolFiles': 'pools' },
      baseDir: dir,
      ...stubbed,
    });
    const template = app.synth().getStackArtifact(stack.artifactId).template;
    const install = Object.values(
      template.Resources as Record<string, { Type: string; Properties: { Documents: string } }>,
    ).find((r) => r.Type === 'Custom::JoinerClusterInstall');
    expect(JSON.parse(install?.Properties.Documents ?? '[]')).toEqual([
      { file: join('pools', 'nested', 'multus.yaml'), content: pools },
    ]);
    expect(problemsOf({ 'joiner:nodePoolFiles': 'nothing' })).toEqual([
      'joiner:nodePoolFiles: directory nothing holds no .yaml, .yml or .json files',
    ]);
  });

  it('warns at synth about Karpenter kinds the CRDs joiner installs do not serve (v1beta1), not about v1', () => {
    writeFileSync(join(dir, 'karpenter.yaml'), readFileSync('examples/seed-003-drift/nodepool.yaml', 'utf8'));
    const v1beta1 = readFileSync('examples/seed-003-drift/nodepool.yaml', 'utf8').replace(
      /^apiVersion: karpenter\.sh\/v1$/m,
      'apiVersion: karpenter.sh/v1beta1',
    );
    writeFileSync(join(dir, 'old.yaml'), v1beta1);
    const texts = (file: string) => {
      const { stack } = createJoinerApp({
        context: { ...context, 'joiner:nodePoolFiles': file },
        baseDir: dir,
        ...stubbed,
      });
      return Annotations.fromStack(stack)
        .findWarning('*', Match.anyValue())
        .map((w) => String(w.entry.data));
    };
    expect(texts('karpenter.yaml').filter((t) => t.includes('is applied only where'))).toEqual([]);
    expect(texts('old.yaml')).toContainEqual(
      expect.stringMatching(
        /^joiner:nodePoolFiles: old\.yaml: NodePool\/\S+: karpenter\.sh\/v1beta1 is applied only where Karpenter's CRDs serve it/,
      ),
    );
  });

  it("refuses a joiner.sh NodePool unless joiner:karpenterKinds=ignore installs joiner's NodePool kind", () => {
    const pools = readFileSync('examples/seed-000/nodepool.yaml', 'utf8').replace(
      /^apiVersion: karpenter\.sh\/v1$/m,
      'apiVersion: joiner.sh/v1',
    );
    writeFileSync(join(dir, 'ours.yaml'), pools);
    expect(problemsOf({ 'joiner:nodePoolFiles': 'ours.yaml' })).toEqual([
      expect.stringMatching(
        /^joiner:nodePoolFiles: ours\.yaml: NodePool\/multus: joiner\.sh\/v1 NodePool is installed only with joiner:karpenterKinds=ignore/,
      ),
    ]);
    expect(() =>
      createJoinerApp({
        context: { ...context, 'joiner:nodePoolFiles': 'ours.yaml', 'joiner:karpenterKinds': 'ignore' },
        baseDir: dir,
        ...stubbed,
      }),
    ).not.toThrow();
  });

  it('the app entry prints the problems without a stack trace and exits 1', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bin/app.ts'], {
      env: {
        ...process.env,
        CDK_CONTEXT_JSON: JSON.stringify({
          ...context,
          'joiner:batchingWindowSeconds': 0,
          'joiner:vpcId': 'v',
        }),
        CDK_OUTDIR: dir,
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^joiner: 2 problem\(s\) in the configuration:\n {2}- joiner:vpcId: must be a VPC id/,
    );
    expect(run.stderr).toMatch(/joiner:batchingWindowSeconds: must be whole seconds in 1\.\.300 \(got 0\)/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

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
    const pools = readFileSync('examples/seed-000/nodepool.yaml', 'utf8');
    writeFileSync(join(dir, 'pools.yaml'), pools);
    const { app, stack } = createJoinerApp({
      context: { ...context, 'joiner:nodePoolFiles': ['pools.yaml'] },
      baseDir: dir,
      ...stubbed,
    });
    const template = app.synth().getStackArtifact(stack.artifactId).template;
    const install = Object.values(template.Resources as Record<string, any>).find(
      (r) => r.Type === 'Custom::JoinerClusterInstall',
    );
    expect(JSON.parse(install.Properties.Documents)).toEqual([{ file: 'pools.yaml', content: pools }]);
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
