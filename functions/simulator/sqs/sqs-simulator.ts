/**
 * The simulated SQS: fauxqs (SQS JSON protocol, visibility timeouts, long polling, FIFO, DLQ
 * redrive, DelaySeconds) in-process on 127.0.0.1, with a client for the simulator's own use
 * (internal-sqs-client.ts).
 * Queue timings (visibility, long polls) run on wall time, as fauxqs implements them. With a
 * virtual clock, a SendMessage's DelaySeconds (joiner's timer wake-ups) run on that clock instead:
 * the message is answered at once, as SQS does, and enqueued when its delay has passed in virtual
 * time, so a 5-second timer is 5 virtual seconds at any speed.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  ListQueuesCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { buildApp } from 'fauxqs';
import type { ServiceAuthorizer } from '../iam/authorization/authorization-request.js';
import { accessKeyOf, gateCall, SIMULATOR_ACCESS_KEY_ID } from '../iam/authorization/service-gate.js';
import type { ApiLatency } from '../latency/api-latency.js';
import { keepIdleConnections } from '../loopback-server.js';
import { internalSqsClient } from './internal-sqs-client.js';
import { type StampClock, stampVirtualSendTimes } from './virtual-timestamps.js';

/** A queue's URL and ARN. */
export interface QueueRef {
  readonly url: string;
  readonly arn: string;
}

/** A running simulated SQS. */
export interface SqsSimulator {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** A client bound to this endpoint (the simulator's own; callers may build theirs). */
  readonly client: SQSClient;
  /** Creates a queue (idempotent for equal attributes) and returns its URL and ARN. */
  createQueue(name: string, attributes?: Record<string, string>): Promise<QueueRef>;
  /** Deletes every queue (ending pending long polls), then stops the server. */
  close(): Promise<void>;
}

/** Local credentials: fauxqs accepts any and never checks them. */
export const SIMULATOR_CREDENTIALS = { accessKeyId: SIMULATOR_ACCESS_KEY_ID, secretAccessKey: 'simulated' };

/** The clock delayed messages wait on (the simulated cloud's virtual clock). */
export interface DelayClock {
  setTimeout(fn: () => void, delayMs: number): unknown;
}

interface SendMessageBody {
  QueueUrl?: string;
  MessageBody?: string;
  DelaySeconds?: number;
  MessageAttributes?: unknown;
  MessageGroupId?: string;
}

/** Starts fauxqs on 127.0.0.1 (free port); with `delays`, SendMessage delays run on that clock. */
export async function startSqsSimulator(options: {
  region: string;
  delays?: DelayClock;
  /** Modeled latency of the calls (virtual time), except ReceiveMessage (the pollers model theirs). */
  latency?: ApiLatency;
  /** The account's IAM: every call is authorized on its queue's ARN first (none: all allowed). */
  iam?: ServiceAuthorizer;
  /** The account queue ARNs are evaluated in. Default `000000000000` (fauxqs' own). */
  accountId?: string;
  /** The clock received messages' `SentTimestamp` is on while it runs by itself (virtual-timestamps.ts). */
  stamps?: StampClock;
}): Promise<SqsSimulator> {
  const app = buildApp({ logger: false, defaultRegion: options.region });
  if (options.stamps) stampVirtualSendTimes(app, options.stamps);
  const latency = options.latency;
  const iam = options.iam;
  if (iam) {
    const account = options.accountId ?? '000000000000';
    app.addHook('preHandler', async (request, reply) => {
      const call = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      const body = (request.body ?? {}) as { QueueUrl?: unknown; QueueName?: unknown };
      const denial = gateCall(iam, accessKeyOf(request.headers), 'sqs', () => [
        {
          action: `sqs:${sqsActionOf(call)}`,
          resource: queueArnOf(options.region, account, body),
          context: {},
        },
      ]);
      if (!denial) return;
      reply.code(denial.status);
      reply.header('content-type', 'application/x-amz-json-1.0');
      reply.header('x-amzn-query-error', `${denial.code};Sender`);
      return reply.send({ __type: `com.amazonaws.sqs#${denial.code}`, message: denial.message });
    });
  }
  if (latency) {
    app.addHook('onRequest', async (request) => {
      const call = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      // A receive is a long poll that waits for messages, not a latency to model; it still counts.
      if (call === 'ReceiveMessage') latency.count('sqs', call);
      else if (call) await latency.wait('sqs', call);
    });
  }
  let sender: SQSClient | undefined;
  const delays = options.delays;
  if (delays) {
    app.addHook('preHandler', async (request, reply) => {
      if (request.headers['x-amz-target'] !== 'AmazonSQS.SendMessage') return;
      const body = request.body as SendMessageBody;
      const seconds = Number(body.DelaySeconds ?? 0);
      // Attributes and FIFO groups are left to fauxqs (their answer needs more than the body's MD5).
      if (
        !(seconds > 0) ||
        body.MessageAttributes ||
        body.MessageGroupId ||
        typeof body.MessageBody !== 'string'
      )
        return;
      const message = { QueueUrl: body.QueueUrl, MessageBody: body.MessageBody };
      delays.setTimeout(() => {
        sender?.send(new SendMessageCommand(message)).catch(() => undefined);
      }, seconds * 1000);
      const md5 = createHash('md5').update(body.MessageBody).digest('hex');
      reply.header('content-type', 'application/x-amz-json-1.0');
      return reply.send({ MessageId: randomUUID(), MD5OfMessageBody: md5 });
    });
  }
  keepIdleConnections(app.server);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const url = address.replace('localhost', '127.0.0.1');
  const client = internalSqsClient({
    region: options.region,
    endpoint: url,
    credentials: SIMULATOR_CREDENTIALS,
  });
  sender = client;
  return {
    url,
    client,
    async createQueue(name, attributes) {
      const out = await client.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
      const queueUrl = out.QueueUrl as string;
      const attrs = await client.send(
        new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
      );
      return { url: queueUrl, arn: attrs.Attributes?.QueueArn as string };
    },
    async close() {
      const listed = await client.send(new ListQueuesCommand({})).catch(() => ({ QueueUrls: [] }));
      for (const QueueUrl of listed.QueueUrls ?? []) {
        await client.send(new DeleteQueueCommand({ QueueUrl })).catch(() => undefined);
      }
      client.destroy();
      await app.close();
    },
  };
}

/** The IAM action of an SQS call: the batch calls are authorized as their single forms. */
export function sqsActionOf(call: string): string {
  return call.endsWith('Batch') ? call.slice(0, -'Batch'.length) : call;
}

/** The queue ARN a call names (its QueueUrl's last segment, or QueueName), `*` for none. */
export function queueArnOf(
  region: string,
  account: string,
  body: { readonly QueueUrl?: unknown; readonly QueueName?: unknown },
): string {
  const name =
    typeof body.QueueUrl === 'string'
      ? body.QueueUrl.split('/').pop()
      : typeof body.QueueName === 'string'
        ? body.QueueName
        : undefined;
  return name ? `arn:aws:sqs:${region}:${account}:${name}` : '*';
}
