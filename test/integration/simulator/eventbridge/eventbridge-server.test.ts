import {
  EventBridgeClient,
  ListTargetsByRuleCommand,
  PutEventsCommand,
  PutRuleCommand,
  PutTargetsCommand,
} from '@aws-sdk/client-eventbridge';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DETAIL_TYPES,
  JOINER_BUS_NAME,
  JOINER_EVENT_SOURCE,
} from '../../../../functions/shared/event-rules.js';
import { EventBusRegistry } from '../../../../functions/simulator/eventbridge/event-bus.js';
import {
  type EventBridgeServer,
  startEventBridgeServer,
} from '../../../../functions/simulator/eventbridge/eventbridge-server.js';
import { installJoinerRules } from '../../../../functions/simulator/eventbridge/joiner-rules.js';
import { FaultInjector } from '../../../../functions/simulator/faults.js';
import { createJoinerQueues, type JoinerQueues } from '../../../../functions/simulator/sqs/joiner-queues.js';
import {
  SIMULATOR_CREDENTIALS,
  type SqsSimulator,
  startSqsSimulator,
} from '../../../../functions/simulator/sqs/sqs-simulator.js';

const region = 'us-west-2';
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
let sqs: SqsSimulator;
let server: EventBridgeServer;
let queues: JoinerQueues;
let client: EventBridgeClient;
const faults = new FaultInjector();

beforeAll(async () => {
  sqs = await startSqsSimulator({ region });
  queues = await createJoinerQueues(sqs, 'eb');
  const registry = new EventBusRegistry({ sqs: sqs.client, region, now: () => T0 });
  installJoinerRules(registry, {
    provisioning: queues.queues.provisioning.arn,
    lifecycle: queues.queues.lifecycle.arn,
    interruption: queues.queues.interruption.arn,
    timers: queues.queues.timers.arn,
  });
  server = await startEventBridgeServer(registry, { faults });
  client = new EventBridgeClient({
    region,
    endpoint: server.url,
    credentials: SIMULATOR_CREDENTIALS,
    maxAttempts: 1,
  });
});

afterAll(async () => {
  client.destroy();
  await server.close();
  await sqs.close();
});

async function receiveAll(url: string): Promise<Array<Record<string, unknown>>> {
  const out = await sqs.client.send(
    new ReceiveMessageCommand({
      QueueUrl: url,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 0,
      VisibilityTimeout: 0,
    }),
  );
  return (out.Messages ?? []).map((m) => JSON.parse(m.Body as string));
}

async function drain(url: string): Promise<Array<Record<string, unknown>>> {
  const out = await sqs.client.send(
    new ReceiveMessageCommand({
      QueueUrl: url,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 0,
      VisibilityTimeout: 300,
    }),
  );
  return (out.Messages ?? []).map((m) => JSON.parse(m.Body as string));
}

describe('simulated EventBridge', () => {
  it('delivers a PutEvents entry through the rule to the queue with the real envelope', async () => {
    const out = await client.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: JOINER_BUS_NAME,
            Source: JOINER_EVENT_SOURCE,
            DetailType: DETAIL_TYPES.podUnschedulable,
            Detail: JSON.stringify({ uid: 'u1', namespace: 'default', name: 'web-1' }),
            Resources: ['pod/default/web-1'],
          },
        ],
      }),
    );
    expect(out.FailedEntryCount).toBe(0);
    const [message] = await drain(queues.queues.provisioning.url);
    expect(message).toEqual({
      version: '0',
      id: out.Entries?.[0].EventId,
      'detail-type': 'PodUnschedulable',
      source: 'joiner',
      account: '000000000000',
      time: '2026-01-01T12:00:00Z',
      region,
      resources: ['pod/default/web-1'],
      detail: { uid: 'u1', namespace: 'default', name: 'web-1' },
    });
    expect(await drain(queues.queues.lifecycle.url)).toEqual([]);
  });

  it('routes lifecycle events and default-bus EC2 events by pattern, honouring the entry time', async () => {
    const time = new Date(Date.UTC(2026, 0, 2));
    await client.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: JOINER_BUS_NAME,
            Source: 'joiner',
            DetailType: 'NodeReady',
            Detail: '{"node":"n1"}',
            Time: time,
          },
          {
            Source: 'aws.ec2',
            DetailType: 'EC2 Spot Instance Interruption Warning',
            Detail: '{"instance-id":"i-1"}',
          },
          {
            Source: 'aws.ec2',
            DetailType: 'EC2 Instance State-change Notification',
            Detail: '{"instance-id":"i-2","state":"running"}',
          },
          { Source: 'joiner', DetailType: 'PodReady', Detail: '{}' },
        ],
      }),
    );
    const lifecycle = await drain(queues.queues.lifecycle.url);
    expect(lifecycle).toHaveLength(1);
    expect(lifecycle[0]).toMatchObject({ 'detail-type': 'NodeReady', time: '2026-01-02T00:00:00Z' });
    const interruption = await drain(queues.queues.interruption.url);
    expect(interruption.map((m) => m['detail-type'])).toEqual(['EC2 Spot Instance Interruption Warning']);
  });

  it('reports bad entries per entry and keeps the good ones', async () => {
    const out = await client.send(
      new PutEventsCommand({
        Entries: [
          { EventBusName: 'nope', Source: 'joiner', DetailType: 'NodeReady', Detail: '{}' },
          { EventBusName: JOINER_BUS_NAME, Source: 'joiner', DetailType: 'NodeReady', Detail: 'not json' },
          { EventBusName: JOINER_BUS_NAME, Source: 'joiner', DetailType: 'NodeReady' },
          { EventBusName: JOINER_BUS_NAME, Source: 'joiner', DetailType: 'NodeReady', Detail: '{"ok":1}' },
        ],
      }),
    );
    expect(out.FailedEntryCount).toBe(3);
    expect(out.Entries?.map((e) => e.ErrorCode)).toEqual([
      'ResourceNotFoundException',
      'MalformedDetail',
      'InvalidArgument',
      undefined,
    ]);
    expect(out.Entries?.[2].ErrorMessage).toMatch(/Detail is a required argument/);
    expect(out.Entries?.[3].EventId).toBeTruthy();
    expect(await drain(queues.queues.lifecycle.url)).toHaveLength(1);
  });

  it('rejects more than 10 entries and requests over 256 KB as a whole', async () => {
    const entry = { EventBusName: JOINER_BUS_NAME, Source: 'joiner', DetailType: 'NodeReady', Detail: '{}' };
    await expect(client.send(new PutEventsCommand({ Entries: Array(11).fill(entry) }))).rejects.toMatchObject(
      {
        name: 'ValidationException',
      },
    );
    const big = { ...entry, Detail: JSON.stringify({ pad: 'x'.repeat(140_000) }) };
    await expect(client.send(new PutEventsCommand({ Entries: [big, big] }))).rejects.toThrow(
      /over the limit/,
    );
    expect(await receiveAll(queues.queues.lifecycle.url)).toEqual([]);
  });

  it('creates rules and targets through the API and rejects invalid patterns', async () => {
    await client.send(
      new PutRuleCommand({
        Name: 'big-pods',
        EventBusName: JOINER_BUS_NAME,
        EventPattern: JSON.stringify({ detail: { cpu: [{ numeric: ['>=', 8] }] } }),
      }),
    );
    await client.send(
      new PutTargetsCommand({
        Rule: 'big-pods',
        EventBusName: JOINER_BUS_NAME,
        Targets: [{ Id: 'timers', Arn: queues.queues.timers.arn }],
      }),
    );
    await client.send(
      new PutEventsCommand({
        Entries: [
          { EventBusName: JOINER_BUS_NAME, Source: 'x', DetailType: 'Y', Detail: '{"cpu":16}' },
          { EventBusName: JOINER_BUS_NAME, Source: 'x', DetailType: 'Y', Detail: '{"cpu":2}' },
        ],
      }),
    );
    const timers = await drain(queues.queues.timers.url);
    expect(timers.map((m) => m.detail)).toEqual([{ cpu: 16 }]);
    await expect(
      client.send(new PutRuleCommand({ Name: 'bad', EventPattern: '{"source":"x"}' })),
    ).rejects.toMatchObject({
      name: 'InvalidEventPatternException',
      message: expect.stringMatching(/source/),
    });
  });

  it("applies a target's InputPath / InputTransformer as AWS does", async () => {
    await client.send(
      new PutRuleCommand({
        Name: 'shaped',
        EventBusName: JOINER_BUS_NAME,
        EventPattern: JSON.stringify({ source: ['shape'] }),
      }),
    );
    const transformer = {
      InputPathsMap: { name: '$.detail.name' },
      InputTemplate: '{"pod":"<name>","rule":"<aws.events.rule-name>"}',
    };
    await client.send(
      new PutTargetsCommand({
        Rule: 'shaped',
        EventBusName: JOINER_BUS_NAME,
        Targets: [
          { Id: 'path', Arn: queues.queues.timers.arn, InputPath: '$.detail' },
          { Id: 'template', Arn: queues.queues.timers.arn, InputTransformer: transformer },
        ],
      }),
    );
    const listed = await client.send(
      new ListTargetsByRuleCommand({ Rule: 'shaped', EventBusName: JOINER_BUS_NAME }),
    );
    expect(listed.Targets?.[1]).toMatchObject({ Id: 'template', InputTransformer: transformer });
    await client.send(
      new PutEventsCommand({
        Entries: [
          { EventBusName: JOINER_BUS_NAME, Source: 'shape', DetailType: 'Y', Detail: '{"name":"web-1"}' },
        ],
      }),
    );
    const bodies = await drain(queues.queues.timers.url);
    expect(bodies).toEqual(expect.arrayContaining([{ name: 'web-1' }, { pod: 'web-1', rule: 'shaped' }]));
    expect(bodies).toHaveLength(2);
  });

  it('answers injected faults with the named error', async () => {
    faults.inject({ service: 'eventbridge', action: 'PutEvents', error: 'ThrottlingException', times: 1 });
    const put = () =>
      client.send(new PutEventsCommand({ Entries: [{ Source: 'joiner', DetailType: 'X', Detail: '{}' }] }));
    await expect(put()).rejects.toMatchObject({ name: 'ThrottlingException' });
    await expect(put()).resolves.toMatchObject({ FailedEntryCount: 0 });
  });
});
