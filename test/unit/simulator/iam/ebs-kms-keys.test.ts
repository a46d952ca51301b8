/**
 * The simulated account enforces `joiner:ebsKmsKeyArns` as IAM would: the controller role of the
 * stack synthesized with it may use exactly those keys, only through EC2 in the stack's region
 * (and CreateGrant only for an AWS resource), as EC2 asks at launch (ebs-kms-grants.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { EBS_KMS_ACTIONS } from '../../../../functions/simulator/ec2/authorization/ebs-kms-grants.js';
import { AccountAuthorizer } from '../../../../functions/simulator/iam/authorization/account-authorizer.js';
import { loadServiceReference } from '../../../../functions/simulator/iam/authorization/service-reference.js';
import { readStackIam, type StackIam } from '../../../../functions/simulator/iam/authorization/stack-iam.js';
import { stackNamingResolver } from '../../../../functions/simulator/iam/authorization/stack-naming-resolver.js';
import { loadStackTemplate } from '../../../../functions/simulator/iam/authorization/stack-template-file.js';
import type { TemplateParts } from '../../../../functions/simulator/iam/authorization/template-intrinsics.js';
import { ACCOUNT, REGION, synthesizeStack } from './synthesized-stack.js';

const KEY = `arn:aws:kms:${REGION}:${ACCOUNT}:key/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b`;
const OTHER = `arn:aws:kms:${REGION}:${ACCOUNT}:key/11111111-2222-3333-4444-555555555555`;
const clock = () => Date.parse('2026-11-27T06:00:00Z');

/** The request context EC2 sends for `action` at launch. */
function viaEc2(action: string, service = `ec2.${REGION}.amazonaws.com`) {
  return {
    'kms:ViaService': service,
    'kms:CallerAccount': ACCOUNT,
    ...(action === 'kms:CreateGrant' ? { 'kms:GrantIsForAWSResource': 'true' } : {}),
  };
}

async function authorizerFor(iam: StackIam) {
  return AccountAuthorizer.fromStack(iam, {
    account: ACCOUNT,
    region: REGION,
    clock,
    reference: await loadServiceReference(),
  });
}

function iamOf(outdir: string): StackIam {
  const { file, template } = loadStackTemplate(outdir);
  const t = template as unknown as TemplateParts;
  return readStackIam(t, stackNamingResolver(t, { account: ACCOUNT, region: REGION }), file);
}

/** The calls EC2 makes with KEY at launch that `authorizer` allows `principal`. */
const allowedAtLaunch = (authorizer: AccountAuthorizer, principal: string) =>
  EBS_KMS_ACTIONS.filter(
    (action) => authorizer.authorize({ principal, action, resource: KEY, context: viaEc2(action) }).allowed,
  );

const controllerOf = (iam: StackIam) =>
  iam.roles.find((r) => r.logicalId.startsWith('JoinerFunctionsControllerRole'))!.arn;

describe('joiner:ebsKmsKeyArns in the simulated account', () => {
  let granted: AccountAuthorizer;
  let plain: AccountAuthorizer;
  let controller: string;
  let plainController: string;

  beforeAll(async () => {
    const iam = iamOf(synthesizeStack({ 'joiner:ebsKmsKeyArns': [KEY] }));
    granted = await authorizerFor(iam);
    controller = controllerOf(iam);
    const without = iamOf(synthesizeStack());
    plain = await authorizerFor(without);
    plainController = controllerOf(without);
  }, 180_000);

  it('allows every call EC2 makes with the listed key at launch', () => {
    expect(allowedAtLaunch(granted, controller)).toEqual(EBS_KMS_ACTIONS);
  });

  it('denies another key, a call not through EC2, and a grant not for an AWS resource', () => {
    expect(
      granted.authorize({
        principal: controller,
        action: 'kms:Decrypt',
        resource: OTHER,
        context: viaEc2('kms:Decrypt'),
      }).allowed,
    ).toBe(false);
    expect(
      granted.authorize({
        principal: controller,
        action: 'kms:Decrypt',
        resource: KEY,
        context: viaEc2('kms:Decrypt', `s3.${REGION}.amazonaws.com`),
      }).allowed,
    ).toBe(false);
    expect(
      granted.authorize({
        principal: controller,
        action: 'kms:CreateGrant',
        resource: KEY,
        context: { ...viaEc2('kms:CreateGrant'), 'kms:GrantIsForAWSResource': 'false' },
      }).allowed,
    ).toBe(false);
  });

  it('the stack without the setting may use no key', () => {
    expect(allowedAtLaunch(plain, plainController)).toEqual([]);
  });
});
