/**
 * Your own AMI parameters: `joiner:ssmParameterNames` (or the `ssmParameterNames` prop) adds one
 * `ssm:GetParameter` statement on exactly those parameters to the controller role; bad names are
 * refused at synth with the key, the position and the value.
 */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { createJoinerApp } from '../../lib/app.js';
import { ControllerPermissions } from '../../lib/constructs/controller-permissions.js';
import { joinerPropsFromContext } from '../../lib/context.js';
import { ssmParameterNameProblem } from '../../lib/ssm-parameter-names.js';
import { actionsOf, bareStack, findingsOf, type Statement, statementsOf, stubCode } from './stack-fixture.js';

const context = {
  'joiner:clusterName': 'prod',
  'joiner:account': '111111111111',
  'joiner:region': 'us-west-2',
};
const KEY = 'joiner:ssmParameterNames';
const own = (statements: Statement[]) => statements.find((s) => s.Sid === 'ReadOwnAmiParameters');

describe('context joiner:ssmParameterNames', () => {
  const propsOf = (value: unknown) =>
    joinerPropsFromContext(new App({ context: { ...context, [KEY]: value } }).node);

  it('takes a list or a comma-separated string of parameter names and path prefixes', () => {
    expect(propsOf(['/team/amis/node', 'flat-ami']).ssmParameterNames).toEqual([
      '/team/amis/node',
      'flat-ami',
    ]);
    expect(propsOf('/team/amis/*, /aws/service/ami-windows-latest/*').ssmParameterNames).toEqual([
      '/team/amis/*',
      '/aws/service/ami-windows-latest/*',
    ]);
    expect(propsOf(undefined).ssmParameterNames).toBeUndefined();
  });

  it('refuses bad names with the key, the position, the value and the rule', () => {
    expect(() => propsOf(['/team/amis/node', 'team/amis'])).toThrow(
      `${KEY}[1]: "team/amis" must start with '/' when it has levels`,
    );
    expect(() => propsOf('/team/a mi')).toThrow(`${KEY}[0]: "/team/a mi" level 'a mi' must be letters`);
    expect(() => propsOf('/team/*/node')).toThrow(/\[0\]: "\/team\/\*\/node" may hold '\*' only as its last/);
    expect(() => propsOf('*')).toThrow(/grants every parameter of the account/);
    expect(() => propsOf('arn:aws:ssm:us-west-2:111111111111:parameter/x')).toThrow(/not an ARN/);
    expect(() => propsOf(['/ok', 7])).toThrow(`${KEY}[1]: 7 must be a non-empty string`);
    expect(() => propsOf({ name: '/x' })).toThrow(`${KEY}: must be a list of SSM parameter names`);
    expect(() => propsOf(`/${Array.from({ length: 16 }, (_, i) => `l${i}`).join('/')}`)).toThrow(
      /at most 15 levels/,
    );
  });

  it('accepts what SSM accepts', () => {
    for (const name of ['/a', 'a', '/a.b-c_d/E/9', '/team/*', '/team*', '/aws/service/x/*'])
      expect(ssmParameterNameProblem(name), name).toBeUndefined();
    // A name never ends in '/': only a path prefix with '*' does.
    expect(ssmParameterNameProblem('/team/')).toMatch(/level '' must be letters/);
  });

  it('grants GetParameter on exactly the named parameters in the stack synthesized from cdk.json', () => {
    const { app, stack } = createJoinerApp({
      context: { ...context, [KEY]: ['/team/amis/node', '/team/gpu/*', '/aws/service/ami-windows-latest/*'] },
      overrides: { code: stubCode },
    });
    // The path prefixes' wildcards are acknowledged cdk-nag findings, with a reason.
    const messages = findingsOf(app.synth(), stack);
    expect(messages).toEqual([]);
    const statement = own(statementsOf(Template.fromStack(stack)));
    expect(statement && actionsOf(statement)).toEqual(['ssm:GetParameter']);
    const text = JSON.stringify(statement?.Resource);
    expect(text).toContain(':ssm:us-west-2:111111111111:parameter/team/amis/node"');
    expect(text).toContain(':ssm:us-west-2:111111111111:parameter/team/gpu/*"');
    // AWS's public parameters have no account in their ARN.
    expect(text).toContain(':ssm:us-west-2::parameter/aws/service/ami-windows-latest/*"');
    expect(statement?.Resource).toHaveLength(3);
  }, 120_000);

  it('adds no statement when unset', () => {
    const { stack } = createJoinerApp({ context, overrides: { code: stubCode } });
    expect(own(statementsOf(Template.fromStack(stack)))).toBeUndefined();
  }, 120_000);

  it('refuses a bad name given as the construct prop, naming where', () => {
    const stack = bareStack();
    const role = new Role(stack, 'Controller', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    const nodeRole = new Role(stack, 'Node', { assumedBy: new ServicePrincipal('ec2.amazonaws.com') });
    expect(
      () =>
        new ControllerPermissions(stack, 'Permissions', {
          role,
          nodeRole,
          clusterName: 'prod',
          ssmParameterNames: ['/ok', 'a b'],
        }),
    ).toThrow(`ControllerPermissions ssmParameterNames[1]: "a b" level 'a b' must be letters`);
  });
});
