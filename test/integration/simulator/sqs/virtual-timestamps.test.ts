import { ReceiveMessageCommand, SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../../functions/simulator/clock.js';
import { type SqsSimulator, startSqsSimulator } from '../../../../functions/simulator/sqs/sqs-simulator.js';

let sqs: SqsSimulator | undefined;
let clock: VirtualClock | undefined;

afterEach(async () => {
  clock?.stopAuto();
  await sqs?.close();
  sqs = undefined;
});

async function sentTimes(queueUrl: string): Promise<Map<string, number>> {
  const out = await sqs?.client.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 0,
      MessageSystemAttributeNames: ['All'],
    }),
  );
  return new Map((out?.Messages ?? []).map((m) => [m.Body ?? '', Number(m.Attributes?.SentTimestamp)]));
}

describe('simulated SQS: SentTimestamp on the virtual clock', () => {
  it('stamps messages with the virtual time they were sent at while the clock runs by itself', async () => {
    clock = new VirtualClock(Date.UTC(2026, 0, 1));
    sqs = await startSqsSimulator({ region: 'us-west-2', stamps: clock });
    const { url } = await sqs.createQueue('provisioning');
    clock.startAuto(1);
    const before = clock.now();
    await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'one' }));
    await sqs.client.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: [
          { Id: 'a', MessageBody: 'two' },
          { Id: 'b', MessageBody: 'three' },
        ],
      }),
    );
    const after = clock.now();
    const times = await sentTimes(url);
    expect([...times.keys()].sort()).toEqual(['one', 'three', 'two']);
    for (const at of times.values()) {
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(after);
    }
  });

  it('keeps the wall stamps with a manual clock (handlers then run on wall time)', async () => {
    clock = new VirtualClock(Date.UTC(2026, 0, 1));
    sqs = await startSqsSimulator({ region: 'us-west-2', stamps: clock });
    const { url } = await sqs.createQueue('provisioning');
    const before = Date.now();
    await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'one' }));
    const at = (await sentTimes(url)).get('one') ?? 0;
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
  });
});
