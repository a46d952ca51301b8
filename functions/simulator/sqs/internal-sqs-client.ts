/**
 * The SQS client of the simulated cloud's own callers: Lambda's event source mapping pollers
 * (ReceiveMessage, DeleteMessageBatch, ChangeMessageVisibilityBatch with the function's role) and
 * EventBridge's delivery to its target queues (SendMessage). In AWS neither runs in joiner's
 * functions, so neither is work a function pays for; here they ran through a full AWS SDK client,
 * whose request building, signing and response parsing cost about as much CPU as the simulated
 * SQS's own work on every call.
 *
 * This client sends the same requests (the SQS JSON protocol: `POST /`, `X-Amz-Target`, the JSON
 * body the SDK would send) over the same loopback HTTP, so the simulated SQS, its IAM gate (which
 * reads the caller's access key from the `Credential=` of the Authorization header), its modeled
 * latency and the clock's tracking of requests in flight all see what they saw before. It does not
 * sign: the simulated SQS never verifies signatures. Calls it does not know go to the SDK client.
 */
import { Agent, type IncomingMessage, request } from 'node:http';
import {
  ChangeMessageVisibilityBatchCommand,
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';

/** Where the client sends and as whom. */
export interface InternalSqsClientOptions {
  readonly region: string;
  /** `http://127.0.0.1:PORT` of the simulated SQS. */
  readonly endpoint: string;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

/** The calls sent without the SDK, by command class. */
const DIRECT = [
  [SendMessageCommand, 'SendMessage'],
  [ReceiveMessageCommand, 'ReceiveMessage'],
  [DeleteMessageCommand, 'DeleteMessage'],
  [DeleteMessageBatchCommand, 'DeleteMessageBatch'],
  [ChangeMessageVisibilityCommand, 'ChangeMessageVisibility'],
  [ChangeMessageVisibilityBatchCommand, 'ChangeMessageVisibilityBatch'],
  [GetQueueUrlCommand, 'GetQueueUrl'],
] as const;

/** An error answered by the simulated SQS, named as the SDK names it (`QueueDoesNotExist`...). */
export class InternalSqsError extends Error {
  constructor(
    name: string,
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
    this.name = name;
  }
}

/**
 * An SQS client for the simulator's own calls: the calls of {@link DIRECT} go straight over HTTP,
 * anything else through the SDK client it is. `destroy()` closes both.
 */
export function internalSqsClient(options: InternalSqsClientOptions): SQSClient {
  const client = new SQSClient({
    region: options.region,
    endpoint: options.endpoint,
    credentials: options.credentials,
  });
  const viaSdk = client.send.bind(client) as (command: unknown, options?: unknown) => Promise<unknown>;
  const destroy = client.destroy.bind(client);
  const direct = new DirectSqs(options);
  const send = (command: unknown, sendOptions?: { abortSignal?: AbortSignal }): Promise<unknown> => {
    const operation = DIRECT.find(([type]) => command instanceof type)?.[1];
    if (!operation || typeof sendOptions === 'function') return viaSdk(command, sendOptions);
    return direct.call(operation, (command as { input: object }).input, sendOptions?.abortSignal);
  };
  Object.assign(client, {
    send,
    destroy: () => {
      direct.destroy();
      destroy();
    },
  });
  return client;
}

class DirectSqs {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 50 });
  private readonly url: URL;
  private readonly authorization: string;

  constructor(options: InternalSqsClientOptions) {
    this.url = new URL(options.endpoint);
    // The access key as a SigV4 Authorization header carries it (the scope's date is not read).
    this.authorization = `AWS4-HMAC-SHA256 Credential=${options.credentials.accessKeyId}/20240101/${options.region}/sqs/aws4_request, SignedHeaders=content-type;host;x-amz-target, Signature=0`;
  }

  call(operation: string, input: object, abortSignal?: AbortSignal): Promise<unknown> {
    const body = JSON.stringify(input, bytesAsBase64);
    return new Promise((resolve, reject) => {
      if (abortSignal?.aborted) return reject(abortError());
      const req = request(
        {
          host: this.url.hostname,
          port: this.url.port,
          path: '/',
          method: 'POST',
          agent: this.agent,
          headers: {
            'content-type': 'application/x-amz-json-1.0',
            'x-amz-target': `AmazonSQS.${operation}`,
            'content-length': Buffer.byteLength(body),
            authorization: this.authorization,
          },
        },
        (res) => readAnswer(res, operation).then(resolve, reject),
      );
      const abort = (): void => {
        req.destroy();
        reject(abortError());
      };
      abortSignal?.addEventListener('abort', abort, { once: true });
      req.once('close', () => abortSignal?.removeEventListener('abort', abort));
      req.once('error', reject);
      req.end(body);
    });
  }

  destroy(): void {
    this.agent.destroy();
  }
}

async function readAnswer(res: IncomingMessage, operation: string): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const status = res.statusCode ?? 0;
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text.trim() === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    throw new InternalSqsError(
      'SQSServiceException',
      `${operation}: unreadable answer (${status}): ${text}`,
      status,
    );
  }
  if (status < 200 || status >= 300) {
    const type = String(parsed.__type ?? 'SQSServiceException');
    const name = type.slice(type.lastIndexOf('#') + 1);
    throw new InternalSqsError(name, String(parsed.message ?? parsed.Message ?? text), status);
  }
  if (operation === 'ReceiveMessage') decodeBinaryAttributes(parsed);
  return { $metadata: { httpStatusCode: status }, ...parsed };
}

/** Binary message attributes come as base64 in JSON; the SDK hands them out as bytes. */
function decodeBinaryAttributes(out: Record<string, unknown>): void {
  const messages = Array.isArray(out.Messages) ? (out.Messages as Record<string, unknown>[]) : [];
  for (const message of messages) {
    const attributes = (message.MessageAttributes ?? {}) as Record<string, { BinaryValue?: unknown }>;
    for (const value of Object.values(attributes))
      if (typeof value.BinaryValue === 'string') value.BinaryValue = Buffer.from(value.BinaryValue, 'base64');
  }
}

/** Bytes (binary message attributes) go as base64, as the SDK's JSON serializer sends them. */
function bytesAsBase64(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const original = this[key];
  return original instanceof Uint8Array ? Buffer.from(original).toString('base64') : value;
}

function abortError(): Error {
  const error = new Error('Request aborted');
  error.name = 'AbortError';
  return error;
}
