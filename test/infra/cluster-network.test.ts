import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { createJoinerApp } from '../../lib/app.js';
import { API_SERVER_CALLERS } from '../../lib/constructs/joiner-functions.js';
import { ContextError } from '../../lib/context.js';
import { findingsOf, resourcesOf, stubCode } from './stack-fixture.js';

const context = {
  'joiner:clusterName': 'prod',
  'joiner:account': '111111111111',
  'joiner:region': 'us-west-2',
  'joiner:vpcId': 'vpc-0123456789abcdef0',
  'joiner:functionSubnetIds': 'subnet-0aaaaaaaaaaaaaaaa,subnet-0bbbbbbbbbbbbbbbb',
  'joiner:clusterSecurityGroupId': 'sg-0cccccccccccccccc',
};

describe('functions in the cluster VPC (private endpoints)', () => {
  // Synthesized while collecting: the first synth of a file loads CDK, which is slow under load.
  const { app, stack } = createJoinerApp({ context, overrides: { code: stubCode } });
  const assembly = app.synth();
  const template = Template.fromStack(stack);
  const lambdas = resourcesOf(template, 'AWS::Lambda::Function').map(([, f]) => f.Properties as any);
  const service = (f: any) =>
    String(f.Environment?.Variables?.POWERTOOLS_SERVICE_NAME ?? '').replace(/^joiner-/, '');

  it('runs the functions that call the API server in the given subnets with their own security group', () => {
    const inVpc = lambdas
      .filter((f) => f.VpcConfig)
      .map(service)
      .sort();
    expect(inVpc).toEqual([...API_SERVER_CALLERS].sort());
    for (const f of lambdas.filter((x) => x.VpcConfig)) {
      expect(f.VpcConfig.SubnetIds).toEqual(['subnet-0aaaaaaaaaaaaaaaa', 'subnet-0bbbbbbbbbbbbbbbb']);
      expect(f.VpcConfig.SecurityGroupIds).toHaveLength(1);
    }
    const groups = resourcesOf(template, 'AWS::EC2::SecurityGroup');
    expect(groups).toHaveLength(1);
    expect(groups[0][1].Properties.VpcId).toBe('vpc-0123456789abcdef0');
  });

  it('lets the cluster security group admit them on 443, and nothing else', () => {
    const rules = resourcesOf(template, 'AWS::EC2::SecurityGroupIngress');
    expect(rules).toHaveLength(1);
    const [groupId] = resourcesOf(template, 'AWS::EC2::SecurityGroup').map(([id]) => id);
    expect(rules[0][1].Properties).toMatchObject({
      GroupId: context['joiner:clusterSecurityGroupId'],
      IpProtocol: 'tcp',
      FromPort: 443,
      ToPort: 443,
      SourceSecurityGroupId: { 'Fn::GetAtt': [groupId, 'GroupId'] },
    });
  });

  it('synthesizes with no unacknowledged cdk-nag finding', () => {
    const messages = findingsOf(assembly, stack);
    expect(messages.map((m) => String(m.entry.data))).toEqual([]);
  });

  it('refuses half a setting and bad ids, naming the keys', () => {
    expect(() =>
      createJoinerApp({
        context: { ...context, 'joiner:clusterSecurityGroupId': undefined },
        overrides: { code: stubCode },
      }),
    ).toThrow(/needs vpcId, functionSubnetIds and clusterSecurityGroupId together/);
    expect(() =>
      createJoinerApp({
        context: { ...context, 'joiner:functionSubnetIds': 'sub-1' },
        overrides: { code: stubCode },
      }),
    ).toThrow(ContextError);
  });
});
