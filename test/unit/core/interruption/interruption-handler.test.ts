import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createInterruptionHandler } from '../../../../functions/handlers/interruption.js';
import { createLambdaContext } from '../../../../functions/simulator/runner/lambda-context.js';
import { kubeletNode, markReady } from '../lifecycle/fakes.js';
import { harness, launchedClaim } from '../lifecycle/harness.js';

function sqsEvent(bodies: string[], receiveCount = '1'): SQSEvent {
  return {
    Records: bodies.map(
      (body, i) =>
        ({
          messageId: `m-${i}`,
          body,
          attributes: { ApproximateReceiveCount: receiveCount },
        }) as SQSEvent['Records'][number],
    ),
  };
}

/** Where the stack of {@link context} runs, as EventBridge stamps its events. */
const ORIGIN = {
  account: '123456789012',
  region: 'us-west-2',
  resources: ['arn:aws:ec2:us-west-2:123456789012:instance/i-0a'],
};

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
      ...ORIGIN,
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

  it('handles duplicate messages about one instance in a batch once, in order, and acknowledges them all', async () => {
    const h = harness();
    const claim = launchedClaim(h, 'default-abc', 'i-0a');
    h.store.put({ ...claim, state: 'Initialized', nodeName: 'ip-1', timers: {} });
    const node = kubeletNode('ip-1', 'i-0a');
    markReady(node);
    h.cluster.nodes.set('ip-1', node);
    let writes = 0;
    let concurrent = 0;
    let most = 0;
    const update = h.store.updateNodeClaim.bind(h.store);
    h.store.updateNodeClaim = async (c) => {
      writes++;
      concurrent++;
      most = Math.max(most, concurrent);
      await new Promise((resolve) => setTimeout(resolve, 1));
      try {
        return await update(c);
      } finally {
        concurrent--;
      }
    };
    const handler = createInterruptionHandler(() => h.interruption as never);
    const spot = (id: string) => ({
      id,
      'detail-type': 'EC2 Spot Instance Interruption Warning',
      source: 'aws.ec2',
      ...ORIGIN,
      detail: { 'instance-id': 'i-0a' },
    });
    const rebalance = {
      id: 'r1',
      'detail-type': 'EC2 Instance Rebalance Recommendation',
      source: 'aws.ec2',
      ...ORIGIN,
      detail: { 'instance-id': 'i-0a' },
    };
    const bodies = [spot('e1'), spot('e1'), rebalance, spot('e2')].map((b) => JSON.stringify(b));
    const result = await handler(sqsEvent(bodies), context());
    expect(result.batchItemFailures).toEqual([]);
    expect(h.store.claims.get('default-abc')?.state).toBe('Draining');
    expect(most).toBe(1);
    const drains = h.log.lines.filter((l) => l.message === 'duplicate interruption notice in the batch');
    expect(drains.length).toBe(2);
    expect(writes).toBeGreaterThan(0);
  });

  const refused = [
    [
      'another account',
      { ...ORIGIN, account: '999999999999' },
      /account 999999999999, not this stack's account 123456789012/,
    ],
    [
      'another region',
      { ...ORIGIN, region: 'eu-west-1' },
      /region eu-west-1, not this stack's region us-west-2/,
    ],
    ['no account', { region: 'us-west-2' }, /names no account/],
    [
      'an instance ARN of another account',
      { ...ORIGIN, resources: ['arn:aws:ec2:us-west-2:999999999999:instance/i-0a'] },
      /is in account 999999999999/,
    ],
  ] as const;
  for (const [what, origin, reason] of refused) {
    it(`refuses an event from ${what} before any action: logged at its first receive, sent on to the DLQ`, async () => {
      const h = harness();
      const claim = launchedClaim(h, 'default-abc', 'i-0a');
      h.store.put({ ...claim, state: 'Initialized', nodeName: 'ip-1', timers: {} });
      const node = kubeletNode('ip-1', 'i-0a');
      markReady(node);
      h.cluster.nodes.set('ip-1', node);
      const lookups: string[] = [];
      const find = h.store.findNodeClaimByInstanceId.bind(h.store);
      h.store.findNodeClaimByInstanceId = async (id) => {
        lookups.push(id);
        return find(id);
      };
      const handler = createInterruptionHandler(() => h.interruption as never);
      const forged = {
        id: 'f1',
        'detail-type': 'EC2 Spot Instance Interruption Warning',
        source: 'aws.ec2',
        ...origin,
        detail: { 'instance-id': 'i-0a' },
      };
      for (const receive of ['1', '2', '3']) {
        const result = await handler(sqsEvent([JSON.stringify(forged)], receive), context());
        expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm-0' }]);
      }
      expect(lookups).toEqual([]);
      expect(h.store.claims.get('default-abc')?.state).toBe('Initialized');
      const errors = h.log.lines.filter((l) => l.level === 'error');
      expect(errors).toHaveLength(1);
      expect(errors[0]?.message).toMatch(/refused.*dead-letter queue/);
      expect(errors[0]?.fields?.reason).toMatch(reason);
    });
  }

  it('fails the batch when the invoked function ARN does not say where the stack runs', async () => {
    const h = harness();
    const handler = createInterruptionHandler(() => h.interruption as never);
    await expect(handler(sqsEvent(['{}']), { ...context(), invokedFunctionArn: 'nonsense' })).rejects.toThrow(
      /account and region.*"nonsense"/,
    );
  });
});
