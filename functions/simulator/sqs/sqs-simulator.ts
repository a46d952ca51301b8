/**
 * The simulated SQS: fauxqs (SQS JSON protocol, visibility timeouts, long polling, FIFO, DLQ
 * redrive, DelaySeconds) in-process on 127.0.0.1, with an SDK client for the simulator's own use.
 * Queue timings (visibility, delays, long polls) run on wall time, as fauxqs implements them.
 */
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  ListQueuesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { buildApp } from 'fauxqs';

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
export const SIMULATOR_CREDENTIALS = { accessKeyId: 'joiner', secretAccessKey: 'simulated' };

/** Starts fauxqs on 127.0.0.1 (free port). */
export async function startSqsSimulator(options: { region: string }): Promise<SqsSimulator> {
  const app = buildApp({ logger: false, defaultRegion: options.region });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const url = address.replace('localhost', '127.0.0.1');
  const client = new SQSClient({ region: options.region, endpoint: url, credentials: SIMULATOR_CREDENTIALS });
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
