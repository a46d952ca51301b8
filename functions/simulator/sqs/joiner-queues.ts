/**
 * Creates joiner's queues in the simulated SQS exactly as the CDK stack does: one queue per event
 * source with the visibility timeout of the shared description, and a dead-letter queue reached
 * after the source's `maxReceiveCount` receives.
 */
import { EVENT_SOURCES, type QueueName, visibilityTimeoutSeconds } from '../../shared/event-sources.js';
import type { QueueRef, SqsSimulator } from './sqs-simulator.js';

/** joiner's queues and their dead-letter queues. */
export interface JoinerQueues {
  readonly queues: Record<QueueName, QueueRef>;
  readonly deadLetters: Record<QueueName, QueueRef>;
}

/** Creates the queues named `<prefix>-<queue>` and `<prefix>-<queue>-dlq`. */
export async function createJoinerQueues(sqs: SqsSimulator, prefix = 'joiner'): Promise<JoinerQueues> {
  const queues: Partial<Record<QueueName, QueueRef>> = {};
  const deadLetters: Partial<Record<QueueName, QueueRef>> = {};
  for (const source of EVENT_SOURCES) {
    const dlq = await sqs.createQueue(`${prefix}-${source.queue}-dlq`, { MessageRetentionPeriod: '1209600' });
    deadLetters[source.queue] = dlq;
    queues[source.queue] = await sqs.createQueue(`${prefix}-${source.queue}`, {
      VisibilityTimeout: String(visibilityTimeoutSeconds(source)),
      RedrivePolicy: JSON.stringify({
        deadLetterTargetArn: dlq.arn,
        maxReceiveCount: source.maxReceiveCount,
      }),
    });
  }
  return {
    queues: queues as Record<QueueName, QueueRef>,
    deadLetters: deadLetters as Record<QueueName, QueueRef>,
  };
}
