/**
 * Customer-managed EBS keys: `joiner:ebsKmsKeyArns` (or the `ebsKmsKeyArns` prop) adds two KMS
 * statements on exactly those keys to the controller role, each only through EC2 in the stack's
 * region (and the grant only for an AWS resource); bad entries are refused at synth with the key,
 * the position and the value; NodePool files naming a kmsKeyID not listed get a warning.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { createJoinerApp } from '../../lib/app.js';
import { ControllerPermissions } from '../../lib/constructs/controller-permissions.js';
import { joinerPropsFromContext } from '../../lib/context.js';
import { ebsKmsKeyArnProblem, isGrantedKey } from '../../lib/ebs-kms-keys.js';
import { actionsOf, bareStack, findingsOf, statementsOf, stubCode } from './stack-fixture.js';

const context = {
  'joiner:clusterName': 'prod',
  'joiner:account': '111111111111',
  'joiner:region': 'us-west-2',
};
const KEY = 'joiner:ebsKmsKeyArns';
const A = 'arn:aws:kms:us-west-2:111111111111:key/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
const B = 'arn:aws:kms:us-west-2:222222222222:key/mrk-1234567890abcdef1234567890abcdef';

function permissions(ebsKmsKeyArns?: readonly string[]) {
  const stack = bareStack();
  const role = new Role(stack, 'Controller', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  const nodeRole = new Role(stack, 'Node', { assumedBy: new ServicePrincipal('ec2.amazonaws.com') });
  new ControllerPermissions(stack, 'Permissions', { role, nodeRole, clusterName: 'prod', ebsKmsKeyArns });
  return statementsOf(Template.fromStack(stack));
}

describe('context joiner:ebsKmsKeyArns', () => {
  const propsOf = (value: unknown, extra: Record<string, unknown> = {}) =>
    joinerPropsFromContext(new App({ context: { ...context, [KEY]: value, ...extra } }).node);

  it('takes a list or a comma-separated string of key ARNs', () => {
    expect(propsOf([A, B]).ebsKmsKeyArns).toEqual([A, B]);
    expect(propsOf(`${A}, ${B}`).ebsKmsKeyArns).toEqual([A, B]);
    expect(propsOf(undefined).ebsKmsKeyArns).toBeUndefined();
  });

  it('refuses an alias, a bare key id and anything else with the key, the position and what to give', () => {
    expect(() => propsOf([A, 'alias/ebs'])).toThrow(`${KEY}[1]: "alias/ebs" is an alias`);
    expect(() => propsOf('arn:aws:kms:us-west-2:111111111111:alias/ebs')).toThrow(/give its key ARN/);
    expect(() => propsOf('0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b')).toThrow(`${KEY}[0]: `);
    expect(() => propsOf('0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b')).toThrow(/not a key id/);
    expect(() => propsOf('arn:aws:kms:us-west-2:111:key/x')).toThrow(/must be a KMS key ARN like/);
    expect(() => propsOf({ arn: A })).toThrow(`${KEY}: must be a list of KMS key ARNs`);
    expect(ebsKmsKeyArnProblem(A)).toBeUndefined();
    expect(ebsKmsKeyArnProblem(B)).toBeUndefined();
  });

  it('warns (does not refuse) for a NodePool file whose EC2NodeClass names a kmsKeyID not listed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'joiner-kms-'));
    const file = join(dir, 'nodeclass.yaml');
    const nodeClass = (key: string) => `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: { name: encrypted }
spec:
  amiSelectorTerms: [{ alias: al2023@latest }]
  subnetSelectorTerms: [{ tags: { karpenter.sh/discovery: prod } }]
  securityGroupSelectorTerms: [{ tags: { karpenter.sh/discovery: prod } }]
  blockDeviceMappings:
    - deviceName: /dev/xvda
      ebs: { volumeSize: 20Gi, encrypted: true, kmsKeyID: ${key} }
`;
    writeFileSync(file, nodeClass(B));
    const warned = propsOf([A], { 'joiner:nodePoolFiles': file }).warnings;
    expect(warned.some((w) => w.includes(`kmsKeyID ${B} is not in ${KEY}`))).toBe(true);
    expect(warned.find((w) => w.includes('kmsKeyID'))).toMatch(
      /EC2NodeClass\/encrypted: spec.blockDeviceMappings/,
    );
    // Listed by ARN, or named by its key id: no warning.
    writeFileSync(file, nodeClass(A));
    expect(
      propsOf([A], { 'joiner:nodePoolFiles': file }).warnings.filter((w) => w.includes('kmsKeyID')),
    ).toEqual([]);
    writeFileSync(file, nodeClass('0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b'));
    expect(
      propsOf([A], { 'joiner:nodePoolFiles': file }).warnings.filter((w) => w.includes('kmsKeyID')),
    ).toEqual([]);
    expect(isGrantedKey('alias/ebs', [A])).toBe(false);
  });
});

describe('the controller role’s KMS statements', () => {
  it('grant exactly the listed keys, only via EC2 in the region, the grant only for AWS resources', () => {
    const statements = permissions([A, B, A]);
    const grant = statements.find((s) => s.Sid === 'UseEbsKmsKeysForVolumes');
    const use = statements.find((s) => s.Sid === 'EncryptVolumesWithEbsKmsKeys');
    expect(grant && actionsOf(grant)).toEqual(['kms:CreateGrant']);
    expect(use && actionsOf(use)).toEqual([
      'kms:Decrypt',
      'kms:DescribeKey',
      'kms:GenerateDataKeyWithoutPlaintext',
      'kms:ReEncryptFrom',
      'kms:ReEncryptTo',
    ]);
    for (const s of [grant, use]) expect(s?.Resource).toEqual([A, B]);
    expect(grant?.Condition).toEqual({
      StringEquals: { 'kms:ViaService': 'ec2.us-west-2.amazonaws.com' },
      Bool: { 'kms:GrantIsForAWSResource': 'true' },
    });
    expect(use?.Condition).toEqual({ StringEquals: { 'kms:ViaService': 'ec2.us-west-2.amazonaws.com' } });
    // No KMS action anywhere else.
    const kms = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('kms:')));
    expect(kms.map((s) => s.Sid).sort()).toEqual(['EncryptVolumesWithEbsKmsKeys', 'UseEbsKmsKeysForVolumes']);
  });

  it('grants no KMS permission when no key is listed', () => {
    expect(permissions().filter((s) => actionsOf(s).some((a) => a.startsWith('kms:')))).toEqual([]);
    expect(permissions([]).filter((s) => actionsOf(s).some((a) => a.startsWith('kms:')))).toEqual([]);
  });

  it('refuses a bad entry of the construct prop, naming where', () => {
    expect(() => permissions([A, 'alias/ebs'])).toThrow(
      'ControllerPermissions ebsKmsKeyArns[1]: "alias/ebs" is an alias',
    );
  });

  it('the stack synthesized from cdk.json has them and no unacknowledged cdk-nag finding', () => {
    const { app, stack } = createJoinerApp({
      context: { ...context, [KEY]: [A] },
      overrides: { code: stubCode },
    });
    const messages = findingsOf(app.synth(), stack);
    expect(messages).toEqual([]);
    const sids = statementsOf(Template.fromStack(stack)).map((s) => s.Sid);
    expect(sids).toContain('UseEbsKmsKeysForVolumes');
    expect(sids).toContain('EncryptVolumesWithEbsKmsKeys');
  }, 120_000);
});
