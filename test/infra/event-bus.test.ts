import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { rulesOnBus } from '../../functions/shared/event-rules.js';
import { JoinerEventBus } from '../../lib/constructs/event-bus.js';
import { InterruptionRules } from '../../lib/constructs/interruption-rules.js';
import { WorkQueues } from '../../lib/constructs/work-queues.js';
import { bareStack, resourcesOf } from './stack-fixture.js';

describe('JoinerEventBus and InterruptionRules', () => {
  const stack = bareStack();
  const queues = new WorkQueues(stack, 'Queues');
  const events = new JoinerEventBus(stack, 'Events', { queues });
  new InterruptionRules(stack, 'Interruptions', { queues });
  const template = Template.fromStack(stack);
  const rules = resourcesOf(template, 'AWS::Events::Rule').map(
    ([, r]) => r.Properties as Record<string, any>,
  );
  const queueArn = (name: 'provisioning' | 'lifecycle' | 'interruption') => ({
    'Fn::GetAtt': [stack.getLogicalId(queues.queue(name).node.defaultChild as never), 'Arn'],
  });
  const busRef = { Ref: stack.getLogicalId(events.bus.node.defaultChild as never) };

  it('creates the custom bus "joiner" with its rules to the provisioning and lifecycle queues', () => {
    template.hasResourceProperties('AWS::Events::EventBus', { Name: 'joiner' });
    for (const spec of rulesOnBus('joiner')) {
      const rule = rules.find((r) => JSON.stringify(r.EventPattern) === JSON.stringify(spec.pattern));
      expect(rule, spec.id).toBeDefined();
      expect(rule?.EventBusName).toEqual(busRef);
      expect(rule?.Targets).toEqual([expect.objectContaining({ Arn: queueArn(spec.queue as never) })]);
    }
  });

  it('routes the four EC2 / Health detail-types on the default bus to the interruption queue', () => {
    const onDefault = rules.filter((r) => r.EventBusName === undefined);
    expect(onDefault).toHaveLength(4);
    const detailTypes = onDefault.flatMap((r) => r.EventPattern['detail-type']);
    expect(new Set(detailTypes)).toEqual(
      new Set([
        'EC2 Spot Instance Interruption Warning',
        'EC2 Instance Rebalance Recommendation',
        'EC2 Instance State-change Notification',
        'AWS Health Event',
      ]),
    );
    for (const rule of onDefault)
      expect(rule.Targets).toEqual([expect.objectContaining({ Arn: queueArn('interruption') })]);
    const health = onDefault.find((r) => r.EventPattern.source[0] === 'aws.health');
    expect(health?.EventPattern.detail).toEqual({ service: ['EC2'], eventTypeCategory: ['scheduledChange'] });
    const stateChange = onDefault.find(
      (r) => r.EventPattern['detail-type'][0] === 'EC2 Instance State-change Notification',
    );
    expect(stateChange?.EventPattern.detail.state).toEqual(
      expect.arrayContaining(['shutting-down', 'terminated', 'stopping', 'stopped']),
    );
  });

  it('gives every rule target a dead-letter queue and a retry policy, so an event EventBridge cannot deliver is kept', () => {
    const dlqArn = {
      'Fn::GetAtt': [stack.getLogicalId(queues.ruleTargetDeadLetters.node.defaultChild as never), 'Arn'],
    };
    expect(rules.length).toBeGreaterThanOrEqual(6);
    for (const rule of rules) {
      for (const target of rule.Targets) {
        expect(target.DeadLetterConfig).toEqual({ Arn: dlqArn });
        expect(target.RetryPolicy).toEqual({ MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86400 });
      }
    }
    const dlq = template.toJSON().Resources[dlqArn['Fn::GetAtt'][0]];
    expect(dlq.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 1209600 });
    // EventBridge may send to it only on behalf of joiner's rules.
    const policy = resourcesOf(template, 'AWS::SQS::QueuePolicy').find(([, p]) =>
      JSON.stringify(p.Properties.Queues).includes(dlqArn['Fn::GetAtt'][0]),
    );
    interface Statement {
      Principal?: { Service?: string };
      Condition?: { ArnEquals?: Record<string, unknown> };
    }
    const properties = policy?.[1].Properties as { PolicyDocument?: { Statement?: Statement[] } } | undefined;
    const statements = properties?.PolicyDocument?.Statement ?? [];
    const sends = statements.filter((st) => st.Principal?.Service === 'events.amazonaws.com');
    expect(sends).toHaveLength(rules.length);
    for (const st of sends) expect(st.Condition?.ArnEquals?.['aws:SourceArn']).toBeDefined();
  });

  it('lets only EventBridge rules send to the queues', () => {
    const policies = resourcesOf(template, 'AWS::SQS::QueuePolicy').map(([, p]) =>
      JSON.stringify(p.Properties),
    );
    const sendPolicies = policies.filter((p) => p.includes('sqs:SendMessage'));
    expect(sendPolicies.length).toBeGreaterThan(0);
    for (const p of sendPolicies) {
      expect(p).toContain('events.amazonaws.com');
      expect(p).toContain('aws:SourceArn');
    }
  });
});
