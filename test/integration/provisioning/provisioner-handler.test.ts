import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createProvisionerHandler } from '../../../functions/handlers/provisioner.js';
import { DETAIL_TYPES, JOINER_EVENT_SOURCE } from '../../../functions/shared/event-rules.js';
import { createLambdaContext } from '../../../functions/simulator/runner/lambda-context.js';
import { harness } from '../../unit/core/provisioning/harness.js';
import { seedCluster } from '../../unit/core/provisioning/seed-cluster.js';

const context = () =>
  createLambdaContext(
    { region: 'us-west-2', account: '123456789012', functionPrefix: 'joiner' },
    'provisioner',
    60_000,
  );

function record(messageId: string, body: string): SQSRecord {
  return {
    messageId,
    receiptHandle: `rh-${messageId}`,
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: '0',
      SenderId: 'events',
      ApproximateFirstReceiveTimestamp: '0',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-west-2:123456789012:joiner-provisioning',
    awsRegion: 'us-west-2',
  };
}

function envelope(name: string, uid: string): string {
  return JSON.stringify({
    id: `evt-${uid}`,
    'detail-type': DETAIL_TYPES.podUnschedulable,
    source: JOINER_EVENT_SOURCE,
    time: '2025-01-01T00:00:00Z',
    detail: { namespace: 'default', name, uid },
  });
}

describe('provisioner handler', () => {
  it('provisions for the valid messages and reports only the poison ones as failures', async () => {
    const h = harness(await seedCluster('examples/seed-004'));
    const handler = createProvisionerHandler(() => h.deps);
    const [first] = h.cluster.pods;
    const event: SQSEvent = {
      Records: [
        record('m1', envelope(first.metadata.name, first.metadata.uid!)),
        record('poison-json', '{not json'),
        record('poison-shape', JSON.stringify({ id: 'x', 'detail-type': 'PodUnschedulable', detail: {} })),
      ],
    };
    const response = await handler(event, context());
    expect(response.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual([
      'poison-json',
      'poison-shape',
    ]);
    expect(h.cloud.instances).toHaveLength(4);
    expect(h.log.messages()).toContain('provisioning run finished');
  });

  it('a batch of only poison messages runs nothing', async () => {
    const h = harness(await seedCluster('examples/seed-004'));
    const handler = createProvisionerHandler(() => h.deps);
    const response = await handler({ Records: [record('bad', '[]')] }, context());
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'bad' }]);
    expect(h.cloud.launches).toBe(0);
  });

  it('fails the whole batch when the API server is unreachable, so it is retried', async () => {
    const cluster = await seedCluster('examples/seed-004');
    cluster.failing = new Error('connect ECONNREFUSED 10.0.0.1:443');
    const h = harness(cluster);
    const handler = createProvisionerHandler(() => h.deps);
    await expect(handler({ Records: [record('m1', envelope('p', 'u'))] }, context())).rejects.toThrow(
      'ECONNREFUSED',
    );
  });

  it('returns every message when a launch failed with an error and its claim waits for the next run', async () => {
    const h = harness(await seedCluster('examples/seed-004'));
    h.cloud.throwNext = 1000;
    const handler = createProvisionerHandler(() => h.deps);
    const response = await handler(
      { Records: [record('m1', envelope('a', 'ua')), record('m2', envelope('b', 'ub'))] },
      context(),
    );
    expect(response.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['m1', 'm2']);
  });
});
