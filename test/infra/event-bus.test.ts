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
