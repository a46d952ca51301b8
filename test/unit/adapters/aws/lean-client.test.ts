import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type HttpRequest, HttpResponse } from '@smithy/protocol-http';
import { describe, expect, it } from 'vitest';
import { createEventBridgeClient } from '../../../../functions/adapters/aws/event-publisher.js';
import { withoutSdkLogging } from '../../../../functions/adapters/aws/lean-client.js';
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
