/**
 * The simulated account enforces `joiner:ssmParameterNames` as IAM would: the controller role of
 * the stack synthesized with it may read exactly those parameters (and the public AMI ones), and
 * is denied any other parameter of the account.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AccountAuthorizer } from '../../../../functions/simulator/iam/authorization/account-authorizer.js';
import { loadServiceReference } from '../../../../functions/simulator/iam/authorization/service-reference.js';
import { readStackIam, type StackIam } from '../../../../functions/simulator/iam/authorization/stack-iam.js';
import { stackNamingResolver } from '../../../../functions/simulator/iam/authorization/stack-naming-resolver.js';
import { loadStackTemplate } from '../../../../functions/simulator/iam/authorization/stack-template-file.js';
import type { TemplateParts } from '../../../../functions/simulator/iam/authorization/template-intrinsics.js';
import { ACCOUNT, REGION, synthesizeStack } from './synthesized-stack.js';

const PARAMETER = `arn:aws:ssm:${REGION}:${ACCOUNT}:parameter`;
const PUBLIC = `arn:aws:ssm:${REGION}::parameter`;
const clock = () => Date.parse('2026-11-27T06:00:00Z');

describe('joiner:ssmParameterNames in the simulated account', () => {
  let iam: StackIam;
  let authorizer: AccountAuthorizer;
  let controller: string;
  const read = (resource: string) =>
    authorizer.authorize({ principal: controller, action: 'ssm:GetParameter', resource, context: {} });

  beforeAll(async () => {
    const outdir = synthesizeStack({ 'joiner:ssmParameterNames': '/team/amis/node,/team/gpu/*' });
    const { file, template } = loadStackTemplate(outdir);
    const t = template as unknown as TemplateParts;
    iam = readStackIam(t, stackNamingResolver(t, { account: ACCOUNT, region: REGION }), file);
    authorizer = AccountAuthorizer.fromStack(iam, {
      account: ACCOUNT,
      region: REGION,
      clock,
      reference: await loadServiceReference(),
    });
    controller = iam.roles.find((r) => r.logicalId.startsWith('JoinerFunctionsControllerRole'))!.arn;
  }, 120_000);

  it('allows the named parameter and those under the named path', () => {
    expect(read(`${PARAMETER}/team/amis/node`)).toMatchObject({
      allowed: true,
      statement: expect.stringMatching(/\/ReadOwnAmiParameters$/),
    });
    expect(read(`${PARAMETER}/team/gpu/al2023/latest`).allowed).toBe(true);
    expect(
      read(
        `${PUBLIC}/aws/service/eks/optimized-ami/1.31/amazon-linux-2023/x86_64/standard/recommended/image_id`,
      ).allowed,
    ).toBe(true);
  });

  it('denies any other parameter, a sibling of the named one included', () => {
    for (const other of [
      `${PARAMETER}/team/amis/node-2`,
      `${PARAMETER}/team/amis/other`,
      `${PARAMETER}/secrets/db`,
    ]) {
      expect(read(other).allowed, other).toBe(false);
      expect(authorizer.denials.at(-1)).toMatchObject({ action: 'ssm:GetParameter', resource: other });
    }
  });

  it('grants nothing of the kind to the other roles', () => {
    const webhook = iam.roles.find((r) => r.logicalId.startsWith('JoinerFunctionsWebhookRole'));
    expect(webhook).toBeDefined();
    const asked = authorizer.authorize({
      principal: webhook!.arn,
      action: 'ssm:GetParameter',
      resource: `${PARAMETER}/team/amis/node`,
      context: {},
    });
    expect(asked.allowed).toBe(false);
  });
});
