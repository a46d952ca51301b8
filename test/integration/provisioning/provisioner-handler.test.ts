import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createProvisionerHandler } from '../../../functions/handlers/provisioner.js';
import {
  podUnschedulableEnvelope,
  provisionerContext,
  provisioningRecord,
} from '../../builders/provisioning-event.js';
import { harness } from '../../unit/core/provisioning/harness.js';
import { seedCluster } from '../../unit/core/provisioning/seed-cluster.js';

const context = provisionerContext;
const record = provisioningRecord;
const envelope = podUnschedulableEnvelope;

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
