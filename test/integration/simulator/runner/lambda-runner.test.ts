import { GetQueueAttributesCommand, SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { Context, LambdaFunctionURLEvent, ScheduledEvent, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TIMEOUT_EARLY_MS } from '../../../../functions/handlers/runtime/early-timeout.js';
import { lambdaHandler } from '../../../../functions/handlers/runtime/lambda.js';
import {
  EVENT_SOURCES,
  type EventSourceSpec,
  type FunctionName,
  type QueueName,
} from '../../../../functions/shared/event-sources.js';
import { VirtualClock } from '../../../../functions/simulator/clock.js';
import { type FunctionHandler, LambdaRunner } from '../../../../functions/simulator/runner/lambda-runner.js';
import { createJoinerQueues } from '../../../../functions/simulator/sqs/joiner-queues.js';
import type { QueueRef, SqsSimulator } from '../../../../functions/simulator/sqs/sqs-simulator.js';
import { startSqsSimulator } from '../../../../functions/simulator/sqs/sqs-simulator.js';

const region = 'us-west-2';
let sqs: SqsSimulator;
let runner: LambdaRunner | undefined;
let prefix = 0;

beforeAll(async () => {
  sqs = await startSqsSimulator({ region });
});
afterEach(async () => {
  await runner?.stop();
  runner = undefined;
});
afterAll(async () => {
  await sqs.close();
});

const lifecycleSource = EVENT_SOURCES.find((s) => s.queue === 'lifecycle') as EventSourceSpec;

async function send(queue: QueueRef, bodies: string[]): Promise<void> {
  for (let i = 0; i < bodies.length; i += 10) {
    await sqs.client.send(
      new SendMessageBatchCommand({
        QueueUrl: queue.url,
        Entries: bodies.slice(i, i + 10).map((body, n) => ({ Id: String(n), MessageBody: body })),
      }),
    );
  }
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function visibleCount(queue: QueueRef): Promise<number> {
  const out = await sqs.client.send(
    new GetQueueAttributesCommand({ QueueUrl: queue.url, AttributeNames: ['ApproximateNumberOfMessages'] }),
  );
  return Number(out.Attributes?.ApproximateNumberOfMessages);
}

/** Queues with a short redrive (2 receives) for the lifecycle source. */
async function redriveQueues(): Promise<{ queue: QueueRef; dlq: QueueRef }> {
  const name = `retry-${++prefix}`;
  const dlq = await sqs.createQueue(`${name}-dlq`);
  const queue = await sqs.createQueue(name, {
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: 2 }),
  });
  return { queue, dlq };
}

function startRunner(
  queues: Partial<Record<QueueName, QueueRef>>,
  handlers: Partial<Record<'lifecycle' | 'provisioner' | 'disruption' | 'webhook', FunctionHandler>>,
  extra: {
    sources?: EventSourceSpec[];
    timeScale?: number;
    clock?: VirtualClock;
    reservedConcurrency?: Partial<Record<FunctionName, number>>;
  } = {},
): LambdaRunner {
  runner = new LambdaRunner({
    sqs: sqs.client,
    clock: extra.clock ?? new VirtualClock(),
    region,
    queues: queues as Record<QueueName, QueueRef>,
    handlers,
    sources: extra.sources,
    timeScale: extra.timeScale ?? 1 / 180,
    ...(extra.reservedConcurrency ? { reservedConcurrency: extra.reservedConcurrency } : {}),
  });
  runner.start();
  return runner;
}

describe('Lambda runner', () => {
  it('gathers a batch over the batching window and passes real SQS records and a context', async () => {
    const { queues } = await createJoinerQueues(sqs, `w${++prefix}`);
    await send(
      queues.provisioning,
      Array.from({ length: 25 }, (_, i) => `m${i}`),
    );
    await sqs.client.send(
      new SendMessageCommand({
        QueueUrl: queues.provisioning.url,
        MessageBody: 'tagged',
        MessageAttributes: { kind: { DataType: 'String', StringValue: 'pod' } },
      }),
    );
    const batches: SQSRecord[][] = [];
    let context: Context | undefined;
    startRunner(
      queues,
      {
        provisioner: async (event: SQSEvent, ctx: Context) => {
          batches.push(event.Records);
          context = ctx;
        },
      },
      { timeScale: 0.5 },
    );
    await until(() => batches.flat().length === 26);
    expect(batches).toHaveLength(1);
    const tagged = batches[0].find((r) => r.body === 'tagged') as SQSRecord;
    expect(tagged).toMatchObject({
      eventSource: 'aws:sqs',
      eventSourceARN: queues.provisioning.arn,
      awsRegion: region,
      attributes: { ApproximateReceiveCount: '1' },
      messageAttributes: { kind: { dataType: 'String', stringValue: 'pod' } },
    });
    expect(Number(tagged.attributes.SentTimestamp)).toBeGreaterThan(Date.UTC(2020, 0, 1));
    expect(tagged.messageId).toMatch(/\S/);
    expect(tagged.receiptHandle).toMatch(/\S/);
    expect(context?.functionName).toBe('joiner-provisioner');
    expect(context?.invokedFunctionArn).toBe(
      'arn:aws:lambda:us-west-2:000000000000:function:joiner-provisioner',
    );
    expect(context?.getRemainingTimeInMillis()).toBeGreaterThan(0);
    await runner?.idle();
    await until(async () => (await visibleCount(queues.provisioning)) === 0);
  });

  it('moves a batching window opened on wall time onto the virtual clock when the simulation starts', async () => {
    // A message sent while a scenario is set up (manual clock) opens the window on wall time; once
    // the clock runs by itself the window is the virtual clock's, whatever the host's load.
    const { queues } = await createJoinerQueues(sqs, `a${++prefix}`);
    const provisioning = EVENT_SOURCES.find((s) => s.queue === 'provisioning') as EventSourceSpec;
    const clock = new VirtualClock();
    const invokedAt: number[] = [];
    startRunner(
      queues,
      { provisioner: async () => void invokedAt.push(clock.now()) },
      { clock, timeScale: 1, sources: [{ ...provisioning, batchingWindowSeconds: 5 }] },
    );
    await send(queues.provisioning, ['set up']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(invokedAt).toEqual([]);
    const wallStart = Date.now();
    const virtualStart = clock.now();
    clock.startAuto(Number.POSITIVE_INFINITY);
    try {
      await until(() => invokedAt.length === 1);
      expect(invokedAt[0] - virtualStart).toBe(5000);
      expect(Date.now() - wallStart).toBeLessThan(4000);
      await runner?.idle();
    } finally {
      clock.stopAuto();
    }
  });

  it('without a batching window invokes with at most 10 records per batch', async () => {
    const { queues } = await createJoinerQueues(sqs, `z${++prefix}`);
    await send(
      queues.lifecycle,
      Array.from({ length: 25 }, (_, i) => `m${i}`),
    );
    const sizes: number[] = [];
    startRunner(
      queues,
      {
        lifecycle: async (event: SQSEvent) => {
          sizes.push(event.Records.length);
        },
      },
      { sources: [{ ...lifecycleSource, batchSize: 10, batchingWindowSeconds: 0 }] },
    );
    await until(() => sizes.reduce((a, b) => a + b, 0) === 25);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(10);
    expect(sizes.length).toBeGreaterThanOrEqual(3);
  });

  it("hands a burst of lifecycle hints to one invocation: the queue's batch of 100 gathered over its 1-s window", async () => {
    const { queues } = await createJoinerQueues(sqs, `l${++prefix}`);
    await send(
      queues.lifecycle,
      Array.from({ length: 45 }, (_, i) => `m${i}`),
    );
    const sizes: number[] = [];
    startRunner(
      queues,
      {
        lifecycle: async (event: SQSEvent) => {
          sizes.push(event.Records.length);
        },
      },
      { timeScale: 0.5 },
    );
    await until(() => sizes.reduce((a, b) => a + b, 0) === 45);
    expect(sizes).toEqual([45]);
  });

  it('retries reported failures after the visibility timeout, then moves a poison message to the DLQ without blocking the rest', async () => {
    const { queue, dlq } = await redriveQueues();
    const source = { ...lifecycleSource, maxReceiveCount: 2 };
    const seen = new Map<string, number>();
    startRunner(
      { lifecycle: queue },
      {
        lifecycle: async (event: SQSEvent) => {
          for (const r of event.Records) seen.set(r.body, (seen.get(r.body) ?? 0) + 1);
          return {
            batchItemFailures: event.Records.filter((r) => r.body === 'poison').map((r) => ({
              itemIdentifier: r.messageId,
            })),
          };
        },
      },
      { sources: [source] },
    );
    await send(queue, ['poison', 'a', 'b']);
    await until(() => seen.has('a') && seen.has('b'));
    await send(queue, ['c']);
    await until(() => seen.has('c'), 900);
    await until(async () => (await visibleCount(dlq)) === 1);
    expect(seen.get('poison')).toBe(2);
    expect([seen.get('a'), seen.get('b'), seen.get('c')]).toEqual([1, 1, 1]);
    const failed = runner?.invocations().filter((i) => i.failed > 0) ?? [];
    expect(failed.length).toBe(2);
  });

  it('retries the whole batch when the handler throws or names an unknown message', async () => {
    const { queue, dlq } = await redriveQueues();
    const receives: string[][] = [];
    startRunner(
      { lifecycle: queue },
      {
        lifecycle: async (event: SQSEvent) => {
          receives.push(event.Records.map((r) => `${r.body}:${r.attributes.ApproximateReceiveCount}`));
          if (receives.length === 1) throw new Error('boom');
          if (receives.length === 2) return { batchItemFailures: [{ itemIdentifier: 'not-in-batch' }] };
        },
      },
      { sources: [{ ...lifecycleSource, maxReceiveCount: 2 }] },
    );
    await send(queue, ['x']);
    await until(async () => (await visibleCount(dlq)) === 1);
    expect(receives).toEqual([['x:1'], ['x:2']]);
    expect(runner?.invocations().map((i) => i.error)).toEqual([
      'boom',
      'invalid batch response: the whole batch is retried',
    ]);
  });

  it('never runs more invocations at once than the maximum concurrency', async () => {
    const { queue } = await redriveQueues();
    let running = 0;
    let peak = 0;
    let done = 0;
    startRunner(
      { lifecycle: queue },
      {
        lifecycle: async () => {
          running++;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 60));
          running--;
          done++;
        },
      },
      { sources: [{ ...lifecycleSource, batchSize: 1, maxConcurrency: 2 }] },
    );
    await send(
      queue,
      Array.from({ length: 8 }, (_, i) => `m${i}`),
    );
    await until(() => done === 8);
    expect(peak).toBe(2);
  });

  it("runs a function's invocations within the reserved concurrency the stack sets, and unbounded without one", async () => {
    const peaks: number[] = [];
    for (const reserved of [1, undefined]) {
      const { queue } = await redriveQueues();
      let running = 0;
      let peak = 0;
      let done = 0;
      startRunner(
        { lifecycle: queue },
        {
          lifecycle: async () => {
            running++;
            peak = Math.max(peak, running);
            await new Promise((resolve) => setTimeout(resolve, 60));
            running--;
            done++;
          },
        },
        {
          sources: [{ ...lifecycleSource, batchSize: 1, maxConcurrency: 4 }],
          ...(reserved ? { reservedConcurrency: { lifecycle: reserved } } : {}),
        },
      );
      await send(
        queue,
        Array.from({ length: 8 }, (_, i) => `m${i}`),
      );
      await until(() => done === 8);
      await runner?.stop();
      runner = undefined;
      peaks.push(peak);
    }
    expect(peaks[0]).toBe(1);
    expect(peaks[1]).toBeGreaterThan(1);
  });

  it('fires the sweep schedule every virtual minute with the Scheduled Event shape', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 0, 1));
    const events: ScheduledEvent[] = [];
    startRunner(
      {},
      { disruption: async (event: ScheduledEvent) => void events.push(event) },
      { clock, sources: [] },
    );
    await clock.advance(59_000);
    expect(events).toHaveLength(0);
    await clock.advance(2 * 60_000);
    await runner?.idle();
    expect(events.map((e) => e.time)).toEqual(['2026-01-01T00:01:00Z', '2026-01-01T00:02:00Z']);
    expect(events[0]).toMatchObject({
      version: '0',
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      region,
      account: '000000000000',
      detail: {},
      resources: ['arn:aws:events:us-west-2:000000000000:rule/joiner-sweep'],
    });
  });

  it('fails an invocation that outlives the function timeout', async () => {
    startRunner(
      {},
      {
        lifecycle: () => new Promise((resolve) => setTimeout(resolve, 300)),
      },
      { sources: [], timeScale: 0.001 },
    );
    await expect(runner?.invoke('lifecycle', { Records: [] })).rejects.toThrow(
      /joiner-lifecycle: Task timed out/,
    );
  });

  it("keeps a function's timeout on the virtual clock: wall time spent computing does not count, virtual time waited does, and the early timeout fires at the virtual deadline", async () => {
    const clock = new VirtualClock(Date.UTC(2026, 0, 1));
    clock.startAuto(Number.POSITIVE_INFINITY);
    try {
      // lifecycle's 30 s timeout at 1/300: 100 virtual ms.
      const r = startRunner({}, {}, { sources: [], timeScale: 1 / 300, clock });
      // 300 wall ms of compute (a loaded host): virtual time stands still, the invocation completes.
      r.setHandler(
        'lifecycle',
        lambdaHandler(async () => {
          const until = Date.now() + 300;
          while (Date.now() < until) await new Promise((resolve) => setImmediate(resolve));
          return 'computed';
        }) as FunctionHandler,
      );
      await expect(r.invoke('lifecycle', { Records: [] })).resolves.toBe('computed');
      // Waiting 1 virtual second: the early timeout fails it 5 virtual ms before the deadline.
      let failedAt = 0;
      let startedAt = 0;
      r.setHandler(
        'lifecycle',
        lambdaHandler(async () => {
          startedAt = clock.now();
          await clock.sleep(1_000);
          return 'slept';
        }) as FunctionHandler,
      );
      await expect(
        r.invoke('lifecycle', { Records: [] }).finally(() => {
          failedAt = clock.now();
        }),
      ).rejects.toMatchObject({ name: 'TimeoutError' });
      expect(failedAt - startedAt).toBe(100 - TIMEOUT_EARLY_MS);
    } finally {
      clock.stopAuto();
    }
  });

  it('serves a function URL with the payload 2.0 event and the function result', async () => {
    const seen: LambdaFunctionURLEvent[] = [];
    const r = startRunner({}, {}, { sources: [] });
    r.setHandler('webhook', async (event: LambdaFunctionURLEvent) => {
      seen.push(event);
      if (event.rawPath === '/fail') throw new Error('broken');
      return { statusCode: 201, headers: { 'content-type': 'application/json' }, body: '{"allowed":true}' };
    });
    const url = await r.functionUrl('webhook');
    const ok = await fetch(`${url}validate?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-secret': 's3' },
      body: '{"kind":"AdmissionReview"}',
    });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ allowed: true });
    expect(seen[0]).toMatchObject({
      version: '2.0',
      rawPath: '/validate',
      rawQueryString: 'x=1',
      queryStringParameters: { x: '1' },
      headers: { 'x-secret': 's3' },
      body: '{"kind":"AdmissionReview"}',
      isBase64Encoded: false,
      requestContext: { http: { method: 'POST', path: '/validate' } },
    });
    const failed = await fetch(`${url}fail`, { method: 'POST', body: 'x' });
    expect(failed.status).toBe(502);
    await failed.text();
  });
});
