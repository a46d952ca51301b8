/**
 * A poison message in each of joiner's queues, with the real handlers in the simulated cloud and
 * the event source settings of the stack: the poison is reported as a batch item failure on every
 * receive and reaches the queue's DLQ after the redrive count (5 receives), while the valid
 * message of the same batch is handled once and deleted. Time is virtual: the clock runs by itself
 * and jumps to its next timer whenever everything waits, so the test waits only for the work, and a
 * busy host changes no timeout. Visibility, batching windows and function timeouts are scaled to
 * 1/120 (a visibility timeout of 6 minutes lasts 3 virtual seconds), so the minute schedules
 * (sweeps) hardly fire meanwhile.
 */
import {
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_SOURCES, type QueueName } from '../../../functions/shared/event-sources.js';
import { type SimulatedCloud, startSimulatedCloud } from '../../../functions/simulator/cloud.js';
import { installJoinerHandlers } from '../../../functions/simulator/scenario/joiner-handlers.js';
import { smallCatalog } from '../simulator/cloud/small-catalog.js';

let cloud: SimulatedCloud;
let sqs: SQSClient;
const lines: string[] = [];

beforeAll(async () => {
  cloud = await startSimulatedCloud({
    catalog: smallCatalog,
    seed: 19,
    autoAdvance: Number.POSITIVE_INFINITY,
    timeScale: 1 / 120,
  });
  await installJoinerHandlers(cloud, (line) => lines.push(line));
  const env = cloud.env();
  sqs = new SQSClient({
    region: cloud.region,
    endpoint: cloud.endpoints.sqs,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
  });
}, 30_000);
afterAll(async () => {
  sqs.destroy();
  await cloud.close();
});

/** The simulated account (the one in the functions' role ARN). */
const account = () => cloud.controllerRoleArn.split(':')[4] as string;

const envelope = (detailType: string, detail: unknown, source = 'joiner') => ({
  version: '0',
  id: `e-${detailType}`,
  'detail-type': detailType,
  source,
  account: account(),
  time: '2026-11-25T12:00:00Z',
  region: cloud.region,
  resources: [],
  detail,
});

/** A valid message per queue that changes nothing (no such pod, node, instance or claim). */
const valid: Record<QueueName, () => unknown> = {
  provisioning: () =>
    envelope('PodUnschedulable', { namespace: 'default', name: 'gone', uid: 'no-such-uid' }),
  lifecycle: () => envelope('NodeReady', { nodeName: 'no-such-node' }),
  interruption: () =>
    envelope(
      'EC2 Spot Instance Interruption Warning',
      { 'instance-id': 'i-0123456789abcdef0', 'instance-action': 'terminate' },
      'aws.ec2',
    ),
  timers: () => ({ nodeClaimId: 'no-such-claim', dueAt: 0 }),
};

/**
 * Poison: not JSON, and the queue's own message with a field of the wrong type; for the
 * interruption queue also a well-formed event from another account.
 */
function poison(queue: QueueName): string[] {
  const broken = valid[queue]() as Record<string, unknown>;
  if ('detail' in broken)
    broken.detail = { ...(broken.detail as object), uid: 7, nodeName: 7, 'instance-id': 7 };
  else broken.nodeClaimId = 7;
  const foreign =
    queue === 'interruption'
      ? [JSON.stringify({ ...(valid[queue]() as object), account: '999999999999' })]
      : [];
  return ['{not json', JSON.stringify(broken), ...foreign];
}

async function count(
  url: string,
  attribute: 'ApproximateNumberOfMessages' | 'ApproximateNumberOfMessagesNotVisible',
) {
  const out = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: [attribute] }));
  return Number(out.Attributes?.[attribute] ?? 0);
}

describe('a poison message in every queue', () => {
  it('reaches the DLQ after the redrive count while the rest of its batch is handled', async () => {
    const queues = EVENT_SOURCES.map((s) => s.queue);
    for (const queue of queues) {
      await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: cloud.queueUrls[queue],
          Entries: [...poison(queue), JSON.stringify(valid[queue]())].map((body, i) => ({
            Id: `m${i}`,
            MessageBody: body,
          })),
        }),
      );
    }
    const deadline = Date.now() + 45_000;
    const done = async () => {
      for (const q of queues)
        if ((await count(cloud.dlqUrls[q], 'ApproximateNumberOfMessages')) < poison(q).length) return false;
      return true;
    };
    while (!(await done())) {
      if (Date.now() > deadline) {
        const state = await Promise.all(
          queues.map(
            async (q) =>
              `${q}: dlq ${await count(cloud.dlqUrls[q], 'ApproximateNumberOfMessages')}, visible ${await count(cloud.queueUrls[q], 'ApproximateNumberOfMessages')}, in flight ${await count(cloud.queueUrls[q], 'ApproximateNumberOfMessagesNotVisible')}`,
          ),
        );
        const inv = cloud.runner
          .invocations()
          .filter((i) => i.records > 0)
          .map((i) => JSON.stringify(i));
        throw new Error(
          `poison messages did not reach every DLQ in time:\n${state.join('\n')}\n${inv.join('\n')}`,
        );
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    for (const queue of queues) {
      const source = EVENT_SOURCES.find((s) => s.queue === queue);
      const dead = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: cloud.dlqUrls[queue],
          MaxNumberOfMessages: 10,
        }),
      );
      // Only the poison is dead, after exactly the redrive count of receives by the function.
      expect((dead.Messages ?? []).map((m) => m.Body).sort(), queue).toEqual(poison(queue).sort());
      expect(await count(cloud.queueUrls[queue], 'ApproximateNumberOfMessages'), queue).toBe(0);
      expect(await count(cloud.queueUrls[queue], 'ApproximateNumberOfMessagesNotVisible'), queue).toBe(0);
      expect(source?.maxReceiveCount).toBe(5);
    }
    // Every poison message was received and refused the redrive count of times (an invocation
    // that ran past its scaled timeout refused its whole batch once more, never fewer).
    const refused = lines.filter((l) => l.includes('dropping malformed message')).length;
    expect(refused).toBeGreaterThanOrEqual(4 * 2 * 4);
    expect(refused).toBeLessThanOrEqual(4 * 2 * 5);
    // The foreign event was refused before any action and logged once, at its first receive.
    expect(lines.filter((l) => l.includes('interruption event refused: not from this stack')).length).toBe(1);
  }, 60_000);
});
