import { beforeAll, describe, expect, it } from 'vitest';
import { AccountAuthorizer } from '../../../../functions/simulator/iam/authorization/account-authorizer.js';
import { loadServiceReference } from '../../../../functions/simulator/iam/authorization/service-reference.js';
import { readStackIam, type StackIam } from '../../../../functions/simulator/iam/authorization/stack-iam.js';
import { stackNamingResolver } from '../../../../functions/simulator/iam/authorization/stack-naming-resolver.js';
import { loadStackTemplate } from '../../../../functions/simulator/iam/authorization/stack-template-file.js';
import type { TemplateParts } from '../../../../functions/simulator/iam/authorization/template-intrinsics.js';
import { ACCOUNT, REGION, synthesizeStack } from './synthesized-stack.js';

const EC2 = `arn:aws:ec2:${REGION}:${ACCOUNT}`;
const ROLE = `arn:aws:iam::${ACCOUNT}:role/app`;
let now = Date.parse('2026-11-27T06:00:00Z');
const clock = () => now;
const options = { account: ACCOUNT, region: REGION, clock };

describe('AccountAuthorizer with the synthesized stack', () => {
  let iam: StackIam;
  let authorizer: AccountAuthorizer;
  const roleOf = (prefix: string) => iam.roles.find((r) => r.logicalId.startsWith(prefix))!.arn;

  beforeAll(async () => {
    const { file, template } = loadStackTemplate(synthesizeStack());
    const t = template as unknown as TemplateParts;
    iam = readStackIam(t, stackNamingResolver(t, { account: ACCOUNT, region: REGION }), file);
    authorizer = AccountAuthorizer.fromStack(iam, { ...options, reference: await loadServiceReference() });
  }, 120_000);

  it('lets the controller describe instances and pass the node role to EC2 only', () => {
    const controller = roleOf('JoinerFunctionsControllerRole');
    const node = roleOf('JoinerNodeRole');
    const ask = (action: string, resource: string, context = {}) =>
      authorizer.authorize({ principal: controller, action, resource, context });
    expect(ask('ec2:DescribeInstances', '*')).toMatchObject({
      allowed: true,
      statement: expect.stringMatching(/\/ReadEc2$/),
    });
    expect(ask('iam:PassRole', node, { 'iam:PassedToService': 'ec2.amazonaws.com' }).allowed).toBe(true);
    expect(ask('iam:PassRole', node, { 'iam:PassedToService': 'lambda.amazonaws.com' }).allowed).toBe(false);
    const denial = authorizer.denials.at(-1)!;
    expect(denial).toMatchObject({
      principal: controller,
      action: 'iam:PassRole',
      resource: node,
      outcome: 'implicit-deny',
      expected: false,
    });
    expect(denial.hint).toMatch(
      /PassNodeRoleToEc2 grants iam:PassRole .* StringEquals iam:PassedToService in \[ec2\.amazonaws\.com\] failed \(the request carried "lambda\.amazonaws\.com"\)/,
    );
    expect(denial.time).toBe('2026-11-27T06:00:00.000Z');
  });

  it('terminates only instances tagged with the cluster and the owner', () => {
    const controller = roleOf('JoinerFunctionsControllerRole');
    const instance = `${EC2}:instance/i-0123`;
    const owner =
      iam.functions[0].environment.JOINER_TABLE_NAME ??
      iam.functions.find((f) => f.environment.JOINER_TABLE_NAME)!.environment.JOINER_TABLE_NAME;
    const tags = { 'aws:ResourceTag/joiner.sh/cluster': 'prod', 'aws:ResourceTag/joiner.sh/owner': owner };
    expect(
      authorizer.authorize({
        principal: controller,
        action: 'ec2:TerminateInstances',
        resource: instance,
        context: tags,
      }).allowed,
    ).toBe(true);
    const other = { ...tags, 'aws:ResourceTag/joiner.sh/cluster': 'staging' };
    expect(
      authorizer.authorize({
        principal: controller,
        action: 'ec2:TerminateInstances',
        resource: instance,
        context: other,
      }).allowed,
    ).toBe(false);
    expect(authorizer.denials.at(-1)!.hint).toMatch(
      /TerminateOwnInstances .*aws:ResourceTag\/joiner\.sh\/cluster in \[prod\] failed \(the request carried "staging"\)/,
    );
  });

  it('lets the catalog role write only the catalog partition of the table', () => {
    const catalog = roleOf('JoinerFunctionsCatalogRole');
    const table = `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${iam.functions.find((f) => f.environment.JOINER_TABLE_NAME)!.environment.JOINER_TABLE_NAME}`;
    const put = (keys: string[]) =>
      authorizer.authorize({
        principal: catalog,
        action: 'dynamodb:PutItem',
        resource: table,
        context: { 'dynamodb:LeadingKeys': keys },
      });
    expect(put(['catalog']).allowed).toBe(true);
    expect(put(['claim#1']).allowed).toBe(false);
  });

  it('lets EventBridge send to a queue only from the rules its policy names, and refuses plain HTTP', () => {
    const policy = iam.resourcePolicies.find(
      (p) => p.type === 'AWS::SQS::QueuePolicy' && p.policy.statements.length > 1,
    )!;
    const queue = policy.resourceArns[0];
    const rule = policy.policy.statements[1].conditions[0].values[0];
    const send = (context: Record<string, string>) =>
      authorizer.authorize({
        principal: 'events.amazonaws.com',
        action: 'sqs:SendMessage',
        resource: queue,
        context,
      });
    expect(send({ 'aws:SourceArn': rule }).allowed).toBe(true);
    expect(send({ 'aws:SourceArn': `${rule}-other` }).allowed).toBe(false);
    expect(send({ 'aws:SourceArn': rule, 'aws:SecureTransport': 'false' }).outcome).toBe('explicit-deny');
  });

  it('refuses an action the service authorization reference does not list', () => {
    expect(() =>
      authorizer.authorize({
        principal: roleOf('JoinerFunctionsControllerRole'),
        action: 'ec2:DescribeInstance',
        resource: '*',
        context: {},
      }),
    ).toThrow(
      /ec2:DescribeInstance is not an action of the service authorization reference: ec2 has no such action/,
    );
  });

  it('says when the caller is not a role of the stack', () => {
    expect(
      authorizer.authorize({ principal: ROLE, action: 'ec2:DescribeInstances', resource: '*', context: {} })
        .allowed,
    ).toBe(false);
    expect(authorizer.denials.at(-1)!.hint).toBe(`${ROLE} is not a role of the stack (it has no policies)`);
  });
});

describe('AccountAuthorizer with given policies', () => {
  const read = { Effect: 'Allow', Action: 'ec2:Describe*', Resource: '*' };

  it('issues deterministic access keys and knows whose they are', () => {
    const a = AccountAuthorizer.fromPolicies({ identity: { [ROLE]: [{ Statement: read }] } }, options);
    const b = AccountAuthorizer.fromPolicies({ identity: { [ROLE]: [{ Statement: read }] } }, options);
    const key = a.registerPrincipal(ROLE, 'fn');
    expect(key).toEqual(b.registerPrincipal(ROLE, 'fn'));
    expect(key.accessKeyId).toMatch(/^ASIA[0-9A-F]{16}$/);
    expect(a.principalOf(key.accessKeyId)).toBe(ROLE);
    expect(a.principalOf('AKIAUNKNOWN')).toBeUndefined();
  });

  it('puts the global keys in the context: principal, account, type, userid, time, transport, region', () => {
    const keys = {
      'aws:PrincipalArn': ROLE,
      'aws:PrincipalAccount': ACCOUNT,
      'aws:PrincipalType': 'AssumedRole',
      'aws:SecureTransport': 'true',
      'aws:RequestedRegion': REGION,
      'aws:CurrentTime': '2026-11-27T06:00:00Z',
    };
    const a = AccountAuthorizer.fromPolicies(
      {
        identity: {
          [ROLE]: [
            {
              Statement: {
                ...read,
                Condition: {
                  StringEquals: keys,
                  StringLike: { 'aws:userid': 'AROA*:fn' },
                  NumericEquals: { 'aws:EpochTime': String(now / 1000) },
                },
              },
            },
          ],
        },
      },
      options,
    );
    a.registerPrincipal(ROLE, 'fn');
    expect(
      a.authorize({ principal: ROLE, action: 'ec2:DescribeInstances', resource: '*', context: {} }).allowed,
    ).toBe(true);
    // A service's own value wins over the global default.
    expect(
      a.authorize({
        principal: ROLE,
        action: 'ec2:DescribeInstances',
        resource: '*',
        context: { 'aws:RequestedRegion': 'eu-west-1' },
      }).allowed,
    ).toBe(false);
  });

  it('re-decides time conditions as the clock moves, and caches decisions otherwise', () => {
    const until = { ...read, Condition: { DateLessThan: { 'aws:CurrentTime': '2026-11-27T07:00:00Z' } } };
    const a = AccountAuthorizer.fromPolicies({ identity: { [ROLE]: [{ Statement: until }] } }, options);
    const ask = () =>
      a.authorize({ principal: ROLE, action: 'ec2:DescribeInstances', resource: '*', context: {} });
    const first = ask();
    expect(first.allowed).toBe(true);
    const saved = now;
    now += 2 * 3600_000;
    expect(ask().allowed).toBe(false);
    now = saved;
    const plain = AccountAuthorizer.fromPolicies({ identity: { [ROLE]: [{ Statement: read }] } }, options);
    const one = plain.authorize({
      principal: ROLE,
      action: 'ec2:DescribeInstances',
      resource: '*',
      context: {},
    });
    expect(
      plain.authorize({ principal: ROLE, action: 'EC2:describeinstances', resource: '*', context: {} }),
    ).toBe(one);
  });

  it('records denials with their outcome and lets them be declared expected, before or after', () => {
    const deny = { Sid: 'NoTerminate', Effect: 'Deny', Action: 'ec2:TerminateInstances', Resource: '*' };
    const a = AccountAuthorizer.fromPolicies(
      { identity: { [ROLE]: [{ Statement: [read, deny] }] } },
      options,
    );
    a.authorize({
      principal: ROLE,
      action: 'ec2:TerminateInstances',
      resource: `${EC2}:instance/i-1`,
      context: {},
    });
    a.authorize({ principal: ROLE, action: 'ec2:RunInstances', resource: `${EC2}:instance/*`, context: {} });
    expect(a.denials.map((d) => [d.action, d.outcome, d.statement])).toEqual([
      ['ec2:TerminateInstances', 'explicit-deny', `${ROLE}#0/NoTerminate`],
      ['ec2:RunInstances', 'implicit-deny', undefined],
    ]);
    expect(a.denials[0].hint).toBe(`explicitly denied by ${ROLE}#0/NoTerminate`);
    expect(a.denials[1].hint).toBe(`no statement grants ec2:RunInstances on ${EC2}:instance/*`);
    a.expectDenials({ action: 'ec2:TerminateInstances' });
    expect(a.unexpectedDenials.map((d) => d.action)).toEqual(['ec2:RunInstances']);
    a.expectDenials((d) => d.action.startsWith('ec2:Run'));
    a.authorize({ principal: ROLE, action: 'ec2:RunInstances', resource: `${EC2}:volume/*`, context: {} });
    expect(a.unexpectedDenials).toEqual([]);
    expect(a.denials).toHaveLength(3);
  });

  it('explain() decides without recording', () => {
    const a = AccountAuthorizer.fromPolicies({ identity: { [ROLE]: [{ Statement: read }] } }, options);
    expect(a.explain({ principal: ROLE, action: 'sqs:SendMessage', resource: '*', context: {} }).hint).toBe(
      'no statement grants sqs:SendMessage on *',
    );
    expect(a.denials).toEqual([]);
  });
});
