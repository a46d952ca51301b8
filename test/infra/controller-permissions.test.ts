import { Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { ControllerPermissions } from '../../lib/constructs/controller-permissions.js';
import { NodeRole } from '../../lib/constructs/node-role.js';
import { actionsOf, bareStack, type Statement, statementsOf } from './stack-fixture.js';

const EC2_WRITES = [
  'ec2:CreateFleet',
  'ec2:RunInstances',
  'ec2:CreateLaunchTemplate',
  'ec2:CreateTags',
  'ec2:TerminateInstances',
  'ec2:ModifyNetworkInterfaceAttribute',
];
/** Resources a launch only references (never creates or changes); scoped by VPC when known. */
const REFERENCED = /:(subnet|security-group|image|snapshot|capacity-reservation)\/\*$/;

function permissions(vpcId?: string) {
  const stack = bareStack();
  const role = new Role(stack, 'Controller', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  const nodeRole = new NodeRole(stack, 'Nodes', { clusterName: 'prod' });
  new ControllerPermissions(stack, 'Permissions', {
    role,
    nodeRole: nodeRole.role,
    clusterName: 'prod',
    vpcId,
  });
  return { stack, nodeRole, statements: statementsOf(Template.fromStack(stack)) };
}

const resourceText = (s: Statement) => JSON.stringify(s.Resource);
const tagConditions = (s: Statement) =>
  Object.keys(s.Condition?.StringEquals ?? {}).filter((k) =>
    /^aws:(RequestTag|ResourceTag)\/joiner\.sh\/cluster$/.test(k),
  );

describe('ControllerPermissions', () => {
  const { stack, nodeRole, statements } = permissions();

  it('puts the cluster tag condition on every EC2 write to resources joiner creates or owns', () => {
    const writes = statements.filter((s) => actionsOf(s).some((a) => EC2_WRITES.includes(a)));
    expect(new Set(writes.flatMap(actionsOf).filter((a) => EC2_WRITES.includes(a)))).toEqual(
      new Set(EC2_WRITES),
    );
    for (const s of writes) {
      const resources = (Array.isArray(s.Resource) ? s.Resource : [s.Resource]).map((r) => JSON.stringify(r));
      const onlyReferenced = resources.every((r) => REFERENCED.test(r.replace(/"\]\]}$|"$/, '')));
      if (onlyReferenced) {
        expect(
          actionsOf(s).every((a) => a === 'ec2:RunInstances' || a === 'ec2:CreateFleet'),
          s.Sid,
        ).toBe(true);
        continue;
      }
      expect(tagConditions(s), s.Sid).toHaveLength(1);
      expect(Object.values(s.Condition?.StringEquals ?? {})).toContain('prod');
    }
    const tagging = writes.find((s) => s.Sid === 'TagOnLaunch');
    expect(tagging?.Condition?.StringEquals['ec2:CreateAction']).toEqual([
      'RunInstances',
      'CreateFleet',
      'CreateLaunchTemplate',
    ]);
  });

  it('lets the functions pass only the node role, and only to EC2', () => {
    const passRole = statements.filter((s) => actionsOf(s).includes('iam:PassRole'));
    expect(passRole).toHaveLength(1);
    expect(passRole[0].Resource).toEqual({
      'Fn::GetAtt': [stack.getLogicalId(nodeRole.role.node.defaultChild as never), 'Arn'],
    });
    expect(passRole[0].Condition).toEqual({ StringEquals: { 'iam:PassedToService': 'ec2.amazonaws.com' } });
  });

  it('grants no wildcard action, and only read-only actions on *', () => {
    for (const s of statements) {
      for (const action of actionsOf(s)) expect(action).not.toMatch(/\*/);
      if (s.Resource === '*') {
        for (const action of actionsOf(s))
          expect(action).toMatch(/^(ec2:Describe|iam:ListInstanceProfiles$)/);
      }
    }
  });

  it('lets EC2 create the spot service-linked role, and no other', () => {
    const slr = statements.filter((s) => actionsOf(s).includes('iam:CreateServiceLinkedRole'));
    expect(slr).toHaveLength(1);
    expect(actionsOf(slr[0])).toEqual(['iam:CreateServiceLinkedRole']);
    expect(resourceText(slr[0])).toContain(
      ':iam::111111111111:role/aws-service-role/spot.amazonaws.com/AWSServiceRoleForEC2Spot',
    );
    expect(slr[0].Condition).toEqual({ StringEquals: { 'iam:AWSServiceName': 'spot.amazonaws.com' } });
  });

  it('reads any instance profile (IAM cannot path-scope a profile not created yet) but writes only under joiner’s path', () => {
    const byAction = (action: string) => statements.filter((s) => actionsOf(s).includes(action));
    expect(byAction('iam:GetInstanceProfile').map(resourceText)).toEqual([
      expect.stringContaining(':iam::111111111111:instance-profile/*'),
    ]);
    expect(byAction('iam:ListInstanceProfiles').map((s) => s.Resource)).toEqual(['*']);
    for (const action of [
      'iam:CreateInstanceProfile',
      'iam:TagInstanceProfile',
      'iam:AddRoleToInstanceProfile',
      'iam:RemoveRoleFromInstanceProfile',
      'iam:DeleteInstanceProfile',
    ]) {
      const [s, ...rest] = byAction(action);
      expect(rest, action).toEqual([]);
      expect(resourceText(s), action).toContain('instance-profile/joiner/us-west-2/prod/*');
      expect(tagConditions(s).length, action).toBeGreaterThan(0);
    }
  });

  it('tags and modifies only network interfaces after a launch (volumes are tagged by CreateFleet)', () => {
    const manage = statements.find((s) => s.Sid === 'ManageClusterResources');
    expect(actionsOf(manage as Statement)).toEqual(['ec2:CreateTags', 'ec2:ModifyNetworkInterfaceAttribute']);
    expect(resourceText(manage as Statement)).toMatch(/network-interface\/\*"/);
    expect(resourceText(manage as Statement)).not.toMatch(/volume|instance\//);
  });

  it('reads only the public EKS and Bottlerocket AMI parameters', () => {
    const ssm = statements.find((s) => actionsOf(s).includes('ssm:GetParameter'));
    expect(actionsOf(ssm as Statement)).toEqual(['ssm:GetParameter']);
    const text = resourceText(ssm as Statement);
    expect(text).toContain('parameter/aws/service/eks/optimized-ami/*');
    expect(text).toContain('parameter/aws/service/bottlerocket/*');
  });

  it('lets launches target capacity reservations of any account (shared ones too), for RunInstances and CreateFleet only', () => {
    const reservations = statements.find((s) => s.Sid === 'LaunchIntoCapacityReservations') as Statement;
    expect(actionsOf(reservations).sort()).toEqual(['ec2:CreateFleet', 'ec2:RunInstances']);
    const text = resourceText(reservations);
    expect(text).toContain(':*:capacity-reservation/*');
    expect(reservations.Condition).toBeUndefined();
    const elsewhere = statements.filter(
      (s) => s !== reservations && resourceText(s).includes('capacity-reservation'),
    );
    expect(elsewhere).toEqual([]);
  });

  it('bounds launches to the cluster VPC when it is known', () => {
    const network = permissions('vpc-0abc').statements.find((s) => s.Sid === 'LaunchIntoNetwork');
    expect(JSON.stringify(network?.Condition)).toContain('ec2:Vpc');
    expect(JSON.stringify(network?.Condition)).toContain(':vpc/vpc-0abc');
  });
});
