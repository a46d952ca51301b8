import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEventBridgeClient,
  EventBridgePublisher,
} from '../../../../functions/adapters/aws/event-publisher.js';
import { createSqsClient, SqsTimerScheduler } from '../../../../functions/adapters/aws/timer-queue.js';
import { type SimulatedCloud, startSimulatedCloud } from '../../../../functions/simulator/cloud.js';
import { smallCatalog } from '../../simulator/cloud/small-catalog.js';

let cloud: SimulatedCloud;
let sqs: SQSClient;
let credentials: { accessKeyId: string; secretAccessKey: string };

beforeAll(async () => {
  cloud = await startSimulatedCloud({ catalog: smallCatalog, seed: 3 });
  const env = cloud.env();
  credentials = { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY };
  sqs = new SQSClient({ region: cloud.region, endpoint: cloud.endpoints.sqs, credentials });
}, 30_000);
afterAll(async () => {
  sqs.destroy();
  await cloud.close();
});

async function drain(queueUrl: string, expected: number): Promise<string[]> {
  const bodies: string[] = [];
  for (let i = 0; i < 20 && bodies.length < expected; i++) {
    const out = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    bodies.push(...(out.Messages ?? []).map((m) => m.Body ?? ''));
  }
  return bodies;
}

function publisher() {
  const client = createEventBridgeClient({
    region: cloud.region,
    endpoint: cloud.endpoints.eventbridge,
    credentials,
  });
  return new EventBridgePublisher(client, { busName: cloud.busName, clock: cloud.clock, baseDelayMs: 1 });
}

describe('EventBridge publisher and SQS timers on the simulated cloud', () => {
  it('publishes 23 events in calls of at most 10 and the rule delivers them to the provisioning queue', async () => {
    const events = Array.from({ length: 23 }, (_, i) => ({
      detailType: 'PodUnschedulable',
      detail: { namespace: 'default', name: `pod-${i}`, uid: `uid-${i}` },
    }));
    await publisher().publish(events);
    const bodies = await drain(cloud.queueUrls.provisioning, 23);
    const names = bodies.map((b) => JSON.parse(b).detail.name).sort();
    expect(names).toEqual(events.map((e) => e.detail.name).sort());
    expect(JSON.parse(bodies[0])).toMatchObject({ source: 'joiner', 'detail-type': 'PodUnschedulable' });
  }, 30_000);

  it('gets through injected throttling of whole calls', async () => {
    const remove = cloud.faults.inject({
      service: 'eventbridge',
      action: 'PutEvents',
      error: 'ThrottlingException',
      httpStatus: 400,
      times: 2,
    });
    try {
      await publisher().publish([
        { detailType: 'PodUnschedulable', detail: { namespace: 'a', name: 'b', uid: 'c' } },
      ]);
    } finally {
      remove();
    }
    expect((await drain(cloud.queueUrls.provisioning, 1)).length).toBe(1);
  }, 30_000);

  it('throws naming the entries the bus rejects after the retries', async () => {
    const client = createEventBridgeClient({
      region: cloud.region,
      endpoint: cloud.endpoints.eventbridge,
      credentials,
    });
    const wrongBus = new EventBridgePublisher(client, {
      busName: 'no-such-bus',
      clock: cloud.clock,
      baseDelayMs: 1,
    });
    await expect(
      wrongBus.publish([{ detailType: 'PodUnschedulable', detail: { namespace: 'a', name: 'b', uid: 'c' } }]),
    ).rejects.toThrow(/no-such-bus failed for 1 of 1 event\(s\): PodUnschedulable/);
  });

  it('sends a timer wake-up to the timers queue with body {nodeClaimId, dueAt}', async () => {
    const timers = new SqsTimerScheduler(
      createSqsClient({ region: cloud.region, endpoint: cloud.endpoints.sqs, credentials }),
      cloud.queueUrls.timers,
      cloud.clock,
    );
    const dueAt = cloud.clock.now() - 5;
    await timers.schedule('nc-1', dueAt);
    const [body] = await drain(cloud.queueUrls.timers, 1);
    expect(JSON.parse(body)).toEqual({ nodeClaimId: 'nc-1', dueAt });
  }, 30_000);
});
