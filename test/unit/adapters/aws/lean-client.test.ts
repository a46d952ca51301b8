import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { DescribeInstancesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { DescribeClusterCommand, EKSClient } from '@aws-sdk/client-eks';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetInstanceProfileCommand, IAMClient } from '@aws-sdk/client-iam';
import { GetProductsCommand, PricingClient } from '@aws-sdk/client-pricing';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type HttpRequest, HttpResponse } from '@smithy/protocol-http';
import type { AuthScheme, AwsCredentialIdentity, RequestSigner } from '@smithy/types';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createEc2Client,
  createIamClient,
  createSsmClient,
} from '../../../../functions/adapters/aws/clients.js';
import { createEksClient } from '../../../../functions/adapters/aws/cluster-description.js';
import { createEventBridgeClient } from '../../../../functions/adapters/aws/event-publisher.js';
import {
  leanSdkClient,
  withFastConfig,
  withoutSdkLogging,
  withSharedSigner,
} from '../../../../functions/adapters/aws/lean-client.js';
import { createLiveCatalogClients } from '../../../../functions/adapters/aws/live-catalog-reader.js';
import { createPricingClient } from '../../../../functions/adapters/aws/pricing-client.js';
import { createSecretsManagerClient } from '../../../../functions/adapters/aws/secret-reader.js';
import { createSqsClient } from '../../../../functions/adapters/aws/timer-queue.js';
import { createDocumentClient } from '../../../../functions/adapters/store/create-state-store.js';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' };

/** A request handler that records each request's body and answers `reply` with HTTP 200. */
function recordingHandler(reply: object) {
  const bodies: string[] = [];
  return {
    bodies,
    handler: {
      handle: async (request: HttpRequest) => {
        const body = request.body as string | Uint8Array;
        // The bytes themselves: the SDK's JSON body warns when read as a string.
        bodies.push(
          typeof body === 'string'
            ? body
            : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'),
        );
        return {
          response: new HttpResponse({
            statusCode: 200,
            headers: { 'content-type': 'application/x-amz-json-1.1' },
            body: Buffer.from(JSON.stringify(reply)),
          }),
        };
      },
      updateHttpClientConfig: () => {},
      httpHandlerConfigs: () => ({}),
    },
  };
}

const putEvents = (detail: string) =>
  new PutEventsCommand({
    Entries: [{ Source: 'joiner', DetailType: 't', Detail: detail, EventBusName: 'b' }],
  });

describe('withoutSdkLogging', () => {
  it('stops building the log record the SDK hands its logger', async () => {
    const logged: unknown[] = [];
    const logger = { debug: () => {}, info: (r: unknown) => logged.push(r), warn: () => {}, error: () => {} };
    const reply = { FailedEntryCount: 0, Entries: [{ EventId: '1' }] };
    const plain = new EventBridgeClient({
      region: 'us-west-2',
      credentials,
      logger,
      ...recordingHandlerConfig(reply),
    });
    await plain.send(putEvents('{}'));
    expect(logged).toHaveLength(1);
    const lean = withoutSdkLogging(
      new EventBridgeClient({ region: 'us-west-2', credentials, logger, ...recordingHandlerConfig(reply) }),
    );
    const out = await lean.send(putEvents('{}'));
    expect(out.Entries?.[0]?.EventId).toBe('1');
    expect(logged).toHaveLength(1);
  });

  it('leaves errors to reach the caller', async () => {
    const failing = {
      handle: async () => ({
        response: new HttpResponse({
          statusCode: 400,
          headers: { 'content-type': 'application/x-amz-json-1.1' },
          body: Buffer.from(JSON.stringify({ __type: 'ResourceNotFoundException', message: 'no bus b' })),
        }),
      }),
      updateHttpClientConfig: () => {},
      httpHandlerConfigs: () => ({}),
    };
    const client = withoutSdkLogging(
      new EventBridgeClient({ region: 'us-west-2', credentials, requestHandler: failing }),
    );
    await expect(client.send(putEvents('{}'))).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });
});

function recordingHandlerConfig(reply: object) {
  return { requestHandler: recordingHandler(reply).handler };
}

describe('CACHED_MIDDLEWARE', () => {
  it('still sends each command its own input', async () => {
    const { bodies, handler } = recordingHandler({ FailedEntryCount: 0, Entries: [{ EventId: '1' }] });
    const client = createEventBridgeClient({ region: 'us-west-2', credentials });
    expect(client.config.cacheMiddleware).toBe(true);
    client.config.requestHandler = handler;
    await Promise.all([client.send(putEvents('{"n":1}')), client.send(putEvents('{"n":2}'))]);
    await client.send(putEvents('{"n":3}'));
    expect(bodies.map((b) => JSON.parse(b).Entries[0].Detail)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
  });

  it('is not set on the DynamoDB document client, whose commands bind their input', async () => {
    const { bodies, handler } = recordingHandler({ Item: { pk: { S: 'x' } } });
    const doc = createDocumentClient({ region: 'us-west-2', credentials });
    expect(doc.config.cacheMiddleware).not.toBe(true);
    doc.config.requestHandler = handler;
    await doc.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } }));
    await doc.send(new GetCommand({ TableName: 't', Key: { pk: 'b' } }));
    expect(bodies.map((b) => JSON.parse(b).Key.pk.S)).toEqual(['a', 'b']);
  });
});

/** A request handler that records each signed request's headers and answers HTTP 200, no body. */
function headerRecorder() {
  const sent: Record<string, string>[] = [];
  return {
    sent,
    requestHandler: {
      handle: async (request: HttpRequest) => {
        sent.push({
          ':method': request.method,
          ':host': request.hostname,
          ':path': request.path,
          ...request.headers,
        });
        return { response: new HttpResponse({ statusCode: 200, headers: {}, body: Buffer.alloc(0) }) };
      },
      updateHttpClientConfig: () => {},
      httpHandlerConfigs: () => ({}),
    },
  };
}

/** The signature of a recorded request (the end of its Authorization header). */
const signatureOf = (headers: Record<string, string>) => headers.authorization?.split('Signature=')[1];

/** A client of any SDK service, as far as these tests send with it. */
interface AnyClient {
  send(command: never): Promise<unknown>;
  config: { signer: (authScheme?: AuthScheme) => Promise<RequestSigner>; credentials?: unknown };
}
type ClientConfig = {
  region: string;
  endpoint?: string;
  credentials: unknown;
  maxAttempts: number;
  requestHandler: unknown;
};

/** Every SDK client joiner builds, with one call of it. */
const SERVICES: readonly {
  readonly name: string;
  readonly region: string;
  readonly client: (config: ClientConfig) => AnyClient;
  readonly command: () => unknown;
}[] = [
  {
    name: 'EC2',
    region: 'us-west-2',
    client: (c) => new EC2Client(c as never) as never,
    command: () => new DescribeInstancesCommand({ Filters: [{ Name: 'tag:a', Values: ['b'] }] }),
  },
  {
    name: 'SSM',
    region: 'us-west-2',
    client: (c) => new SSMClient(c as never) as never,
    command: () => new GetParameterCommand({ Name: '/aws/service/eks/x' }),
  },
  {
    name: 'IAM (global: signed for us-east-1)',
    region: 'us-west-2',
    client: (c) => new IAMClient(c as never) as never,
    command: () => new GetInstanceProfileCommand({ InstanceProfileName: 'p' }),
  },
  {
    name: 'EKS',
    region: 'us-west-2',
    client: (c) => new EKSClient(c as never) as never,
    command: () => new DescribeClusterCommand({ name: 'c' }),
  },
  {
    name: 'Pricing',
    region: 'us-east-1',
    client: (c) => new PricingClient(c as never) as never,
    command: () => new GetProductsCommand({ ServiceCode: 'AmazonEC2', MaxResults: 1 }),
  },
  {
    name: 'EventBridge (multi-region signer)',
    region: 'us-west-2',
    client: (c) => new EventBridgeClient(c as never) as never,
    command: () => putEvents('{"n":1}'),
  },
  {
    name: 'SQS',
    region: 'us-west-2',
    client: (c) => new SQSClient(c as never) as never,
    command: () =>
      new SendMessageCommand({ QueueUrl: 'https://sqs.us-west-2.amazonaws.com/1/q', MessageBody: 'x' }),
  },
  {
    name: 'Secrets Manager',
    region: 'us-west-2',
    client: (c) => new SecretsManagerClient(c as never) as never,
    command: () => new GetSecretValueCommand({ SecretId: 's' }),
  },
  {
    name: 'DynamoDB',
    region: 'us-west-2',
    client: (c) => new DynamoDBClient(c as never) as never,
    command: () => new GetItemCommand({ TableName: 't', Key: { pk: { S: 'a' } } }),
  },
];

/** Sends `command()` with `client`, ignoring the answer (the empty 200 may not parse). */
async function sendIgnoringAnswer(client: AnyClient, command: () => unknown): Promise<void> {
  await client.send(command() as never).catch(() => {});
}

describe('withSharedSigner', () => {
  const START = Date.UTC(2026, 0, 1, 23, 50);
  beforeEach(() => {
    // A fixed clock (signing dates) and fixed invocation ids (a signed header), so that two clients
    // sending the same call at the same time send the same bytes.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START);
    vi.spyOn(globalThis.crypto, 'randomUUID').mockReturnValue('00000000-0000-4000-8000-000000000000');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  for (const service of SERVICES) {
    for (const endpoint of [undefined, 'http://127.0.0.1:4566']) {
      it(`signs ${service.name} requests as the SDK does${endpoint ? ' (endpoint override)' : ''}`, async () => {
        const plain = headerRecorder();
        const shared = headerRecorder();
        const config = (requestHandler: unknown): ClientConfig => ({
          region: service.region,
          ...(endpoint ? { endpoint } : {}),
          credentials: { ...credentials, sessionToken: 'token' },
          maxAttempts: 1,
          requestHandler,
        });
        const plainClient = service.client(config(plain.requestHandler));
        // All of leanSdkClient: the shared signer, and the logger and configuration changes with it.
        const sharedClient = leanSdkClient(
          service.client(config(shared.requestHandler)) as never,
        ) as AnyClient;
        // Three calls: two within a day, one the next day (a new date in the signing scope).
        for (const advance of [0, 60_000, 24 * 3_600_000]) {
          vi.setSystemTime(Date.now() + advance);
          await sendIgnoringAnswer(plainClient, service.command);
          await sendIgnoringAnswer(sharedClient, service.command);
        }
        expect(plain.sent).toHaveLength(3);
        expect(plain.sent.every((h) => signatureOf(h) !== undefined)).toBe(true);
        expect(new Set(plain.sent.map(signatureOf)).size).toBe(3);
        expect(shared.sent).toEqual(plain.sent);
        expect(await sharedClient.config.signer()).toBe(await sharedClient.config.signer());
      });
    }
  }

  it('signs IAM for us-east-1 and other services for their region', async () => {
    const iam = headerRecorder();
    const client = withSharedSigner(
      new IAMClient({ region: 'eu-west-1', credentials, maxAttempts: 1, requestHandler: iam.requestHandler }),
    );
    await sendIgnoringAnswer(
      client as never,
      () => new GetInstanceProfileCommand({ InstanceProfileName: 'p' }),
    );
    expect(iam.sent[0]?.authorization).toContain('/20260101/us-east-1/iam/aws4_request');
    const ec2 = headerRecorder();
    const ec2Client = withSharedSigner(
      new EC2Client({ region: 'eu-west-1', credentials, maxAttempts: 1, requestHandler: ec2.requestHandler }),
    );
    await sendIgnoringAnswer(ec2Client as never, () => new DescribeInstancesCommand({}));
    expect(ec2.sent[0]?.authorization).toContain('/20260101/eu-west-1/ec2/aws4_request');
  });

  it('resolves credentials on every call: expiring credentials are refreshed', async () => {
    const sequence = (): (() => Promise<AwsCredentialIdentity>) => {
      let n = 0;
      return async () => {
        n += 1;
        // Each set expires 10 minutes after it was handed out.
        return {
          accessKeyId: `AKID${n}`,
          secretAccessKey: `secret${n}`,
          sessionToken: `token${n}`,
          expiration: new Date(Date.now() + 10 * 60_000),
        };
      };
    };
    const plain = headerRecorder();
    const shared = headerRecorder();
    const plainClient = new SQSClient({
      region: 'us-west-2',
      credentials: sequence(),
      maxAttempts: 1,
      requestHandler: plain.requestHandler,
    });
    const sharedClient = withSharedSigner(
      new SQSClient({
        region: 'us-west-2',
        credentials: sequence(),
        maxAttempts: 1,
        requestHandler: shared.requestHandler,
      }),
    );
    const send = () =>
      new SendMessageCommand({ QueueUrl: 'https://sqs.us-west-2.amazonaws.com/1/q', MessageBody: 'x' });
    for (const advance of [0, 60_000, 9 * 60_000, 60_000]) {
      vi.setSystemTime(Date.now() + advance);
      await sendIgnoringAnswer(plainClient as never, send);
      await sendIgnoringAnswer(sharedClient as never, send);
    }
    const keyIds = shared.sent.map((h) => h.authorization?.match(/Credential=(\w+)\//)?.[1]);
    // Refreshed once less than 5 minutes of the first set remained (the SDK's refresh window).
    expect(keyIds).toEqual(['AKID1', 'AKID1', 'AKID2', 'AKID2']);
    expect(shared.sent.map((h) => h['x-amz-security-token'])).toEqual([
      'token1',
      'token1',
      'token2',
      'token2',
    ]);
    expect(shared.sent).toEqual(plain.sent);
  });

  it('builds a new signer when the client is given new credentials', async () => {
    const recorder = headerRecorder();
    const client = withSharedSigner(
      new SQSClient({
        region: 'us-west-2',
        credentials,
        maxAttempts: 1,
        requestHandler: recorder.requestHandler,
      }),
    );
    const send = () =>
      new SendMessageCommand({ QueueUrl: 'https://sqs.us-west-2.amazonaws.com/1/q', MessageBody: 'x' });
    await sendIgnoringAnswer(client as never, send);
    const first = await client.config.signer();
    client.config.credentials = { accessKeyId: 'AKIDNEW', secretAccessKey: 'new' } as never;
    await sendIgnoringAnswer(client as never, send);
    expect(await client.config.signer()).not.toBe(first);
    expect(recorder.sent.map((h) => h.authorization?.match(/Credential=(\w+)\//)?.[1])).toEqual([
      'AKIDEXAMPLE',
      'AKIDNEW',
    ]);
  });

  it('does not keep a signer build that failed', async () => {
    const signer = { sign: async () => ({}) } as unknown as RequestSigner;
    let calls = 0;
    const client = withSharedSigner({
      config: {
        signer: async () => {
          calls += 1;
          if (calls === 1) throw new Error('region provider failed');
          return signer;
        },
      },
    });
    await expect(client.config.signer()).rejects.toThrow('region provider failed');
    expect(await client.config.signer()).toBe(signer);
    expect(await client.config.signer()).toBe(signer);
    expect(calls).toBe(2);
  });

  it('is what every client factory of the adapters applies', async () => {
    const options = { region: 'us-west-2', credentials };
    const catalog = createLiveCatalogClients(options);
    const clients: Record<string, { config: { signer: () => Promise<RequestSigner> } }> = {
      ec2: createEc2Client(options),
      ssm: createSsmClient(options),
      iam: createIamClient(options),
      eks: createEksClient({ ...options, clusterName: 'c' }),
      pricing: createPricingClient(options),
      events: createEventBridgeClient(options),
      sqs: createSqsClient(options),
      secrets: createSecretsManagerClient('us-west-2', credentials),
      'catalog ec2': catalog.ec2,
      'catalog pricing': catalog.pricing,
      dynamodb: createDocumentClient(options),
    };
    for (const [name, client] of Object.entries(clients)) {
      const first = await client.config.signer();
      expect({ name, same: (await client.config.signer()) === first }).toEqual({ name, same: true });
    }
    // Without it the SDK builds a new signer for each request.
    const plain = new SQSClient(options);
    expect(await plain.config.signer()).not.toBe(await plain.config.signer());
  });
});

describe('withFastConfig', () => {
  it('keeps the configuration object, its properties, values and accessors', async () => {
    const client = new SQSClient({ region: 'us-west-2', credentials, maxAttempts: 1 });
    const config = client.config;
    const before = Object.getOwnPropertyDescriptors(config);
    expect(withFastConfig(client).config).toBe(config);
    const after = Object.getOwnPropertyDescriptors(config);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const key of Object.keys(before)) expect([key, after[key]]).toEqual([key, before[key]]);
    expect(Object.getPrototypeOf(config)).toBe(Object.getPrototypeOf({}));
    expect(await config.region()).toBe('us-west-2');
  });
});
