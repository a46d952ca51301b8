import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountAuthorizer } from '../../../../functions/simulator/iam/authorization/account-authorizer.js';
import { internalSqsClient } from '../../../../functions/simulator/sqs/internal-sqs-client.js';
import { type SqsSimulator, startSqsSimulator } from '../../../../functions/simulator/sqs/sqs-simulator.js';

const ACCOUNT = '111122223333';
const REGION = 'us-west-2';
const POLLER = `arn:aws:iam::${ACCOUNT}:role/poller`;
const OTHER = `arn:aws:iam::${ACCOUNT}:role/other`;

let sqs: SqsSimulator;
let poller: SQSClient;
let other: SQSClient;
let queueUrl: string;

beforeAll(async () => {
  // The poller may receive and delete on `work` only; `other` may only send to it.
  const queue = `arn:aws:sqs:${REGION}:${ACCOUNT}:work`;
  const allow = (actions: string[]) => [
    { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: actions, Resource: queue }] },
  ];
  const authorizer = AccountAuthorizer.fromPolicies(
    {
      identity: {
        [POLLER]: allow(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes']),
        [OTHER]: allow(['sqs:SendMessage']),
      },
    },
    { account: ACCOUNT, region: REGION, clock: () => Date.UTC(2026, 0, 1) },
  );
  sqs = await startSqsSimulator({ region: REGION, iam: authorizer, accountId: ACCOUNT });
  queueUrl = (await sqs.createQueue('work')).url;
  const client = (principal: string) =>
    internalSqsClient({
      region: REGION,
      endpoint: sqs.url,
      credentials: authorizer.registerPrincipal(principal, 'fn'),
    });
  poller = client(POLLER);
  other = client(OTHER);
});

afterAll(async () => {
  poller.destroy();
  other.destroy();
  await sqs.close();
});

describe('the simulator’s own SQS client', () => {
  it('sends, receives and deletes with the SDK’s input and output shapes', async () => {
    const sent = await other.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: 'hello',
        MessageAttributes: { blob: { DataType: 'Binary', BinaryValue: Buffer.from([1, 2, 3]) } },
      }),
    );
    expect(sent.MessageId).toBeTruthy();
    const out = await poller.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 0,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
    );
    const message = out.Messages?.[0];
    expect(message?.Body).toBe('hello');
    expect(message?.Attributes?.ApproximateReceiveCount).toBe('1');
    expect([...(message?.MessageAttributes?.blob?.BinaryValue ?? [])]).toEqual([1, 2, 3]);
    const deleted = await poller.send(
      new DeleteMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: [{ Id: '0', ReceiptHandle: message?.ReceiptHandle ?? '' }],
      }),
    );
    expect(deleted.Successful?.map((s) => s.Id)).toEqual(['0']);
    expect(deleted.Failed ?? []).toEqual([]);
  });

  it('is authorized as the role of its access key: a call the role may not make is refused', async () => {
    await expect(
      other.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 0 })),
    ).rejects.toMatchObject({ name: 'AccessDenied', statusCode: 403 });
    await expect(
      poller.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'x' })),
    ).rejects.toMatchObject({ name: 'AccessDenied' });
  });

  it('names the simulated SQS’s errors as the SDK does', async () => {
    await expect(
      poller.send(
        new ReceiveMessageCommand({ QueueUrl: `${sqs.url}/${ACCOUNT}/missing`, WaitTimeSeconds: 0 }),
      ),
    ).rejects.toMatchObject({ name: expect.stringMatching(/QueueDoesNotExist|AccessDenied/) });
  });

  it('ends a long poll when its abort signal fires', async () => {
    const abort = new AbortController();
    const poll = poller.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 20 }), {
      abortSignal: abort.signal,
    });
    setTimeout(() => abort.abort(), 20);
    await expect(poll).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('sends the calls it does not know through the SDK', async () => {
    const out = await poller.send(
      new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
    );
    expect(out.Attributes?.QueueArn).toMatch(/^arn:aws:sqs:us-west-2:\d{12}:work$/);
  });
});
