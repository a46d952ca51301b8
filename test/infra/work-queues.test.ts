import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { EVENT_SOURCES, visibilityTimeoutSeconds } from '../../functions/shared/event-sources.js';
import { WorkQueues } from '../../lib/constructs/work-queues.js';
import { bareStack, resourcesOf } from './stack-fixture.js';

describe('WorkQueues', () => {
  const stack = bareStack();
  const queues = new WorkQueues(stack, 'Queues');
  const template = Template.fromStack(stack);
  const all = resourcesOf(template, 'AWS::SQS::Queue');
  const idOf = (name: (typeof EVENT_SOURCES)[number]['queue'], dlq = false) =>
    stack.getLogicalId((dlq ? queues.deadLetterQueue(name) : queues.queue(name)).node.defaultChild as never);

  it('creates each consumed queue, one dead-letter queue per queue and one for rule targets, all SSE-encrypted', () => {
    expect(all).toHaveLength(EVENT_SOURCES.length * 2 + 1);
    for (const [, queue] of all) expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
  });

  it('redrives to its own DLQ after maxReceiveCount, with visibility 6 x the consumer timeout', () => {
    for (const source of EVENT_SOURCES) {
      const queue = template.toJSON().Resources[idOf(source.queue)];
      expect(queue.Properties.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [idOf(source.queue, true), 'Arn'] },
        maxReceiveCount: source.maxReceiveCount,
      });
      expect(queue.Properties.VisibilityTimeout).toBe(visibilityTimeoutSeconds(source));
      expect(visibilityTimeoutSeconds(source)).toBeGreaterThanOrEqual(6 * 5);
    }
  });

  it('denies every non-TLS request on every queue', () => {
    const policies = resourcesOf(template, 'AWS::SQS::QueuePolicy');
    expect(policies).toHaveLength(all.length);
    for (const [, policy] of policies) {
      expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
    }
  });

  it('names the queue it does not have', () => {
    expect(() => queues.queue('nope' as never)).toThrow(/no queue named 'nope'/);
  });
});
