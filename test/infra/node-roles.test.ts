/**
 * The node roles joiner may pass: `joiner:nodeRoleArns` (or the `nodeRoleArns` prop) scopes
 * iam:PassRole, reaches the functions as JOINER_NODE_ROLE_ARNS, and bad ARNs are refused with the
 * key and the value; the instance-profile actions are bounded to joiner's IAM path and the cluster tag.
 */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { ENV } from '../../functions/shared/env.js';
import { createJoinerApp } from '../../lib/app.js';
import { ControllerPermissions } from '../../lib/constructs/controller-permissions.js';
import { NodeRole } from '../../lib/constructs/node-role.js';
import { joinerPropsFromContext } from '../../lib/context.js';
import { actionsOf, bareStack, type Statement, statementsOf, stubCode } from './stack-fixture.js';

const GPU = 'arn:aws:iam::111111111111:role/GpuNodes';
const BATCH = 'arn:aws:iam::111111111111:role/team/BatchNodes';
const context = {
  'joiner:clusterName': 'prod',
  'joiner:account': '111111111111',
  'joiner:region': 'us-west-2',
};

function permissions(additional?: string[]) {
  const stack = bareStack();
  const role = new Role(stack, 'Controller', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  const nodeRole = new NodeRole(stack, 'Nodes', { clusterName: 'prod', additionalRoleArns: additional });
  new ControllerPermissions(stack, 'Permissions', {
    role,
    nodeRole: nodeRole.role,
    additionalNodeRoleArns: additional,
    clusterName: 'prod',
  });
  return { stack, nodeRole, statements: statementsOf(Template.fromStack(stack)) };
}

const bySid = (statements: Statement[], sid: string) => statements.find((s) => s.Sid === sid) as Statement;

describe('node roles joiner may pass', () => {
  it('scopes iam:PassRole to the node role and the allowed roles, and only to EC2', () => {
    const { stack, nodeRole, statements } = permissions([GPU, BATCH, GPU]);
    const passRole = statements.filter((s) => actionsOf(s).includes('iam:PassRole'));
    expect(passRole).toHaveLength(1);
    expect(passRole[0].Resource).toEqual([
      { 'Fn::GetAtt': [stack.getLogicalId(nodeRole.role.node.defaultChild as never), 'Arn'] },
      GPU,
      BATCH,
    ]);
    expect(passRole[0].Condition).toEqual({ StringEquals: { 'iam:PassedToService': 'ec2.amazonaws.com' } });
    expect(nodeRole.passableRoleArns.slice(1)).toEqual([GPU, BATCH]);
  });

  it("bounds the instance-profile actions to joiner's path for the cluster and to the cluster tag", () => {
    const { statements } = permissions([GPU]);
    const resource = (s: Statement) => JSON.stringify(s.Resource);
    const create = bySid(statements, 'CreateNodeClassInstanceProfiles');
    expect(actionsOf(create)).toEqual(['iam:CreateInstanceProfile']);
    expect(create.Condition).toEqual({ StringEquals: { 'aws:RequestTag/joiner.sh/cluster': 'prod' } });
    const tag = bySid(statements, 'TagNodeClassInstanceProfiles');
    expect(actionsOf(tag)).toEqual(['iam:TagInstanceProfile']);
    expect(tag.Condition).toEqual({
      StringEquals: {
        'aws:ResourceTag/joiner.sh/cluster': 'prod',
        'aws:RequestTag/joiner.sh/cluster': 'prod',
      },
    });
    const manage = bySid(statements, 'ManageNodeClassInstanceProfiles');
    expect(actionsOf(manage).sort()).toEqual([
      'iam:AddRoleToInstanceProfile',
      'iam:DeleteInstanceProfile',
      'iam:RemoveRoleFromInstanceProfile',
    ]);
    expect(manage.Condition).toEqual({ StringEquals: { 'aws:ResourceTag/joiner.sh/cluster': 'prod' } });
    for (const s of [create, tag, manage]) {
      expect(resource(s)).toContain(':iam::111111111111:instance-profile/joiner/us-west-2/prod/*');
    }
    // Reads are not path-scoped: IAM evaluates GetInstanceProfile of a profile that does not
    // exist yet against instance-profile/<name> (no path), and ListInstanceProfiles against *.
    expect(resource(bySid(statements, 'ReadInstanceProfiles'))).toContain(
      ':iam::111111111111:instance-profile/*',
    );
    expect(bySid(statements, 'ListInstanceProfiles').Resource).toBe('*');
    // No other IAM write anywhere.
    const iamActions = statements.flatMap(actionsOf).filter((a) => a.startsWith('iam:'));
    expect(new Set(iamActions)).toEqual(
      new Set([
        'iam:PassRole',
        'iam:CreateServiceLinkedRole',
        'iam:CreateInstanceProfile',
        'iam:TagInstanceProfile',
        'iam:AddRoleToInstanceProfile',
        'iam:RemoveRoleFromInstanceProfile',
        'iam:DeleteInstanceProfile',
        'iam:GetInstanceProfile',
        'iam:ListInstanceProfiles',
      ]),
    );
  });

  it('refuses a prop that is not a role ARN, naming where', () => {
    expect(() => permissions(['arn:aws:iam::111111111111:user/bob'])).toThrow(
      "NodeRole additionalRoleArns[0]: 'arn:aws:iam::111111111111:user/bob' is not an IAM role ARN",
    );
  });
});

describe('context joiner:nodeRoleArns', () => {
  const propsOf = (value: unknown) =>
    joinerPropsFromContext(new App({ context: { ...context, 'joiner:nodeRoleArns': value } }).node);

  it('takes a list or a comma-separated string of role ARNs', () => {
    expect(propsOf([GPU, BATCH]).nodeRoleArns).toEqual([GPU, BATCH]);
    expect(propsOf(`${GPU}, ${BATCH}`).nodeRoleArns).toEqual([GPU, BATCH]);
    expect(propsOf('arn:aws-cn:iam::111111111111:role/CnNodes').nodeRoleArns).toEqual([
      'arn:aws-cn:iam::111111111111:role/CnNodes',
    ]);
    expect(propsOf(undefined).nodeRoleArns).toBeUndefined();
  });

  it('refuses a bad ARN with the key, the position and the value', () => {
    expect(() => propsOf([GPU, 'GpuNodes'])).toThrow(
      "joiner:nodeRoleArns[1]: 'GpuNodes' is not an IAM role ARN (arn:aws:iam::<12-digit account>:role/[<path>/]<name>)",
    );
    expect(() => propsOf('arn:aws:iam::1111:role/Short')).toThrow(
      /joiner:nodeRoleArns\[0\]: 'arn:aws:iam::1111:role\/Short'/,
    );
    expect(() => propsOf([GPU, 3])).toThrow(
      'joiner:nodeRoleArns: must be a list of IAM role ARNs or a comma-separated string of them',
    );
    expect(() => propsOf({ arn: GPU })).toThrow(/joiner:nodeRoleArns: must be a list/);
  });

  it('reaches every controller function as JOINER_NODE_ROLE_ARNS, the stack node role first', () => {
    const { stack } = createJoinerApp({
      context: { ...context, 'joiner:nodeRoleArns': [GPU] },
      overrides: { code: stubCode },
    });
    const template = Template.fromStack(stack);
    const functions = Object.values(
      template.findResources('AWS::Lambda::Function') as Record<
        string,
        { Properties: { Environment?: { Variables?: Record<string, unknown> } } }
      >,
    ).filter((f) => f.Properties.Environment?.Variables?.[ENV.clusterName]);
    expect(functions.length).toBeGreaterThan(0);
    for (const f of functions) {
      const value = JSON.stringify(f.Properties.Environment?.Variables?.[ENV.nodeRoleArns]);
      expect(value).toContain('Fn::Join');
      expect(value).toMatch(/NodeRole.*Arn/);
      expect(value).toContain(GPU);
    }
  });
});
