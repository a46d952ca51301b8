import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createInterruptionHandler } from '../../../../functions/handlers/interruption.js';
import { createLambdaContext } from '../../../../functions/simulator/runner/lambda-context.js';
import { kubeletNode, markReady } from '../lifecycle/fakes.js';
import { harness, launchedClaim } from '../lifecycle/harness.js';

function sqsEvent(bodies: string[]): SQSEvent {
  return {
    Records: bodies.map((body, i) => ({ messageId: `m-${i}`, body }) as SQSEvent['Records'][number]),
  };
}

const context = () =>
  createLambdaContext(
    { region: 'us-west-2', account: '123456789012', functionPrefix: 'joiner' },
    'interruption',
    5_000,
  );

describe('interruption handler', () => {
  it('reports unreadable messages alone and handles the rest of the batch', async () => {
    const h = harness();
    const claim = launchedClaim(h, 'default-abc', 'i-0a');
    h.store.put({ ...claim, state: 'Initialized', nodeName: 'ip-1', timers: {} });
    const node = kubeletNode('ip-1', 'i-0a');
    markReady(node);
    h.cluster.nodes.set('ip-1', node);
    const handler = createInterruptionHandler(() => h.interruption as never);
    const spot = {
      id: 'e1',
      'detail-type': 'EC2 Spot Instance Interruption Warning',
      source: 'aws.ec2',
      detail: { 'instance-id': 'i-0a' },
    };
    const bad = { ...spot, detail: { 'instance-id': 42 } };
    const result = await handler(
      sqsEvent([JSON.stringify(bad), 'not json', JSON.stringify(spot)]),
      context(),
    );
    expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['m-0', 'm-1']);
    expect(h.store.claims.get('default-abc')?.state).toBe('Draining');
    expect(h.log.lines.find((l) => l.message === 'interruption event failed')?.fields?.error).toMatch(
      /instance-id/,
    );
  });
});
