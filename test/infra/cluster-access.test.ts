import { Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { ClusterAccess } from '../../lib/constructs/cluster-access.js';
import { NODE_MANAGED_POLICIES, NodeRole } from '../../lib/constructs/node-role.js';
import { bareStack, resourcesOf } from './stack-fixture.js';

describe('NodeRole', () => {
  const stack = bareStack();
  const nodes = new NodeRole(stack, 'Nodes', { clusterName: 'prod' });
  const template = Template.fromStack(stack);

  it('is an EC2 role with the four EKS worker policies and an instance profile', () => {
    const [[, role]] = resourcesOf(template, 'AWS::IAM::Role');
    expect(JSON.stringify(role.Properties.AssumeRolePolicyDocument)).toContain('ec2.amazonaws.com');
    const policies = JSON.stringify(role.Properties.ManagedPolicyArns);
    for (const name of NODE_MANAGED_POLICIES) expect(policies).toContain(`:iam::aws:policy/${name}`);
    expect(NODE_MANAGED_POLICIES).toHaveLength(4);
    template.hasResourceProperties('AWS::IAM::InstanceProfile', {
      Roles: [{ Ref: stack.getLogicalId(nodes.role.node.defaultChild as never) }],
    });
  });
});

describe('ClusterAccess', () => {
  const stack = bareStack();
  const lambdaRole = (id: string) =>
    new Role(stack, id, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  const roles = { controllerRole: lambdaRole('Controller'), installerRole: lambdaRole('Installer') };
  const nodes = new NodeRole(stack, 'Nodes', { clusterName: 'prod' });
  new ClusterAccess(stack, 'Access', {
    clusterName: 'prod',
    nodeRole: nodes.role,
    ...roles,
    lambdaGroup: 'joiner-ctl',
  });
  const entries = resourcesOf(Template.fromStack(stack), 'AWS::EKS::AccessEntry').map(
    ([, e]) => e.Properties as Record<string, any>,
  );
  const entryFor = (role: Role) =>
    entries.find(
      (e) => e.PrincipalArn['Fn::GetAtt'][0] === stack.getLogicalId(role.node.defaultChild as never),
    );

  it('lets nodes join as EC2_LINUX', () => {
    expect(entryFor(nodes.role)).toMatchObject({ ClusterName: 'prod', Type: 'EC2_LINUX' });
  });

  it('maps the controller role to its Kubernetes group, with no access policy', () => {
    const controller = entryFor(roles.controllerRole);
    expect(controller).toMatchObject({ Type: 'STANDARD', KubernetesGroups: ['joiner-ctl'] });
    expect(controller?.AccessPolicies).toBeUndefined();
  });

  it('gives the installer cluster admin, to create CRDs, RBAC and the webhook configuration', () => {
    const installer = entryFor(roles.installerRole);
    expect(installer?.Type).toBe('STANDARD');
    expect(JSON.stringify(installer?.AccessPolicies)).toContain('AmazonEKSClusterAdminPolicy');
    expect(installer?.AccessPolicies[0].AccessScope).toEqual({ Type: 'cluster' });
  });
});
