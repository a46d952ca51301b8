import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { EVENT_SOURCES } from '../../functions/shared/event-sources.js';
import { createJoinerApp } from '../../lib/app.js';
import { actionsOf, findingsOf, resourcesOf, statementsOf } from './stack-fixture.js';

const context = {
  'joiner:clusterName': 'prod',
  'joiner:account': '111111111111',
  'joiner:region': 'us-west-2',
  'joiner:logLevel': 'warn',
};

describe('JoinerStack (handlers bundled for real, cdk-nag active)', () => {
  const { app, stack } = createJoinerApp({ context });
  const assembly = app.synth();
  const template = Template.fromStack(stack);

  it('synthesizes with every cdk-nag and CloudFormation validation finding resolved', () => {
    expect(assembly.getStackArtifact(stack.artifactId).template.Resources).toBeDefined();
    expect(findingsOf(assembly, stack)).toEqual([]);
  });

  it('runs every function, the provider framework included, on nodejs22.x / arm64', () => {
    const functions = resourcesOf(template, 'AWS::Lambda::Function');
    // joiner's seven functions and the Provider framework of the installer and of the catalog refresh.
    expect(functions.length).toBe(9);
    for (const [id, f] of functions) {
      expect(f.Properties.Runtime, id).toBe('nodejs22.x');
      expect(f.Properties.Architectures, id).toEqual(['arm64']);
    }
  });

  it('gives every consumed queue a DLQ (the rule targets have theirs) and encrypts every queue', () => {
    const queues = resourcesOf(template, 'AWS::SQS::Queue');
    const withDlq = queues.filter(([, q]) => q.Properties.RedrivePolicy);
    expect(withDlq).toHaveLength(EVENT_SOURCES.length);
    const dlqIds = new Set(
      withDlq.map(
        ([, q]) =>
          (q.Properties.RedrivePolicy as { deadLetterTargetArn: { 'Fn::GetAtt': string[] } })
            .deadLetterTargetArn['Fn::GetAtt'][0],
      ),
    );
    // The consumed queues, their DLQs and the rule targets' DLQ.
    expect(dlqIds.size + withDlq.length + 1).toBe(queues.length);
    for (const [, q] of queues) expect(q.Properties.SqsManagedSseEnabled).toBe(true);
  });

  it('wires queues, rules, schedule, endpoint, access entries and the installer', () => {
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', EVENT_SOURCES.length);
    template.resourceCountIs('AWS::Events::Rule', 10);
    template.resourceCountIs('AWS::EKS::AccessEntry', 3);
    template.resourceCountIs('AWS::Lambda::Url', 1);
    template.resourceCountIs('Custom::JoinerClusterInstall', 1);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: { POWERTOOLS_LOG_LEVEL: 'WARN', JOINER_CLUSTER_NAME: 'prod' } },
    });
  });

  it("gives every EventBridge rule target, the sweep schedule included, the rule targets' dead-letter queue", () => {
    const rules = resourcesOf(template, 'AWS::Events::Rule');
    const dlqId = resourcesOf(template, 'AWS::SQS::Queue')
      .map(([id]) => id)
      .find((id) => id.startsWith('JoinerQueuesRuleTargetDeadLetters'));
    expect(dlqId).toBeDefined();
    for (const [id, rule] of rules)
      for (const target of rule.Properties.Targets as Record<string, unknown>[])
        expect(target.DeadLetterConfig, id).toEqual({ Arn: { 'Fn::GetAtt': [dlqId, 'Arn'] } });
    expect(rules.some(([, r]) => r.Properties.ScheduleExpression === 'rate(1 minute)')).toBe(true);
  });

  it('grants no IAM statement a wildcard action', () => {
    const statements = statementsOf(template);
    expect(statements.length).toBeGreaterThan(10);
    for (const s of statements) for (const a of actionsOf(s)) expect(a).not.toMatch(/^\*$|:\*$/);
  });
});
