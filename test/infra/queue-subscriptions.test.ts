import { Template } from 'aws-cdk-lib/assertions';
import { Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { EVENT_SOURCES, type FunctionName } from '../../functions/shared/event-sources.js';
import { QueueSubscriptions } from '../../lib/constructs/queue-subscriptions.js';
import { WorkQueues } from '../../lib/constructs/work-queues.js';
import { bareStack, resourcesOf, stubCode } from './stack-fixture.js';

function subscribe(provisioningBatchingWindowSeconds?: number) {
  const stack = bareStack();
  const queues = new WorkQueues(stack, 'Queues');
  const names: FunctionName[] = ['provisioner', 'lifecycle', 'interruption', 'disruption'];
  const functions = Object.fromEntries(
    names.map((n) => [
      n,
      new LambdaFunction(stack, n, {
        runtime: Runtime.NODEJS_22_X,
        handler: 'index.handler',
        code: stubCode(),
      }),
    ]),
  );
  new QueueSubscriptions(stack, 'Subscriptions', { queues, functions, provisioningBatchingWindowSeconds });
  return { stack, queues, functions };
}

describe('QueueSubscriptions', () => {
  it('maps every queue to its function with the shared batch size, window, concurrency and partial failures', () => {
    const { stack, queues, functions } = subscribe();
    const mappings = resourcesOf(Template.fromStack(stack), 'AWS::Lambda::EventSourceMapping').map(
      ([, m]) => m.Properties as Record<string, any>,
    );
    expect(mappings).toHaveLength(EVENT_SOURCES.length);
    for (const source of EVENT_SOURCES) {
      const queueId = stack.getLogicalId(queues.queue(source.queue).node.defaultChild as never);
      const mapping = mappings.find((m) => m.EventSourceArn['Fn::GetAtt'][0] === queueId);
      expect(mapping, source.queue).toMatchObject({
        FunctionName: { Ref: stack.getLogicalId(functions[source.function].node.defaultChild as never) },
        BatchSize: source.batchSize,
        MaximumBatchingWindowInSeconds: source.batchingWindowSeconds,
        ScalingConfig: { MaximumConcurrency: source.maxConcurrency },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    }
  });

  it('uses the configured provisioning batching window', () => {
    const { stack } = subscribe(5);
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      BatchSize: 1000,
      MaximumBatchingWindowInSeconds: 5,
    });
  });

  it('rejects settings Lambda would refuse, naming the event source', () => {
    expect(() => subscribe(0)).toThrow(/provisioning -> provisioner: a batch size over 10 .* at least 1 s/);
    expect(() => subscribe(301)).toThrow(/provisioning -> provisioner: batching window .* 0\.\.300/);
  });
});
