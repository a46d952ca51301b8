import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../../functions/simulator/clock.js';
import { type SqsSimulator, startSqsSimulator } from '../../../../functions/simulator/sqs/sqs-simulator.js';

let sqs: SqsSimulator | undefined;

afterEach(async () => {
  await sqs?.close();
  sqs = undefined;
});

async function receive(queueUrl: string): Promise<string[]> {
  const out = await sqs?.client.send(
    new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
  );
  return (out?.Messages ?? []).map((m) => m.Body ?? '');
}

describe('simulated SQS: DelaySeconds on the virtual clock', () => {
  it('a delayed message is answered at once and delivered when its delay has passed in virtual time', async () => {
    const clock = new VirtualClock();
    sqs = await startSqsSimulator({ region: 'us-west-2', delays: clock });
    const { url } = await sqs.createQueue('timers');
    const sent = await sqs.client.send(
      new SendMessageCommand({ QueueUrl: url, MessageBody: '{"nodeClaimId":"a"}', DelaySeconds: 5 }),
    );
    expect(sent.MessageId).toBeTruthy();
    await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'now' }));
    expect(await receive(url)).toEqual(['now']);
    await clock.advance(4_000);
    expect(await receive(url)).toEqual([]);
    await clock.advance(1_000);
    // The simulator's own client enqueues it when the virtual timer fires.
    let delivered: string[] = [];
    for (let i = 0; i < 50 && delivered.length === 0; i++) {
      delivered = await receive(url);
      if (delivered.length === 0) await new Promise((r) => setTimeout(r, 10));
    }
    expect(delivered).toEqual(['{"nodeClaimId":"a"}']);
  });
});
