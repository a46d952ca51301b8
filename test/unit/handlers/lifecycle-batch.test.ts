import { describe, expect, it } from 'vitest';
import { groupHints } from '../../../functions/core/lifecycle/batch-hints.js';
import { createLifecycleHandler } from '../../../functions/handlers/lifecycle.js';
import { createLambdaContext } from '../../../functions/simulator/runner/lambda-context.js';
import { sqsEvent } from '../../builders/sqs-event.js';
import { kubeletNode } from '../core/lifecycle/fakes.js';
import { harness } from '../core/lifecycle/harness.js';

const DISRUPTED = { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' } as const;
const context = () =>
  createLambdaContext(
    { region: 'us-west-2', account: '123456789012', functionPrefix: 'joiner' },
    'lifecycle',
    30_000,
  );

const batch = (bodies: unknown[]) => sqsEvent(bodies, 'lifecycle');

const envelope = (detailType: string, detail: unknown) => ({
  id: `e-${Math.random()}`,
  'detail-type': detailType,
  source: 'joiner',
  time: new Date(0).toISOString(),
  detail,
});
const gone = (nodeName: string, name: string) =>
  envelope('PodGone', { nodeName, namespace: 'default', name, uid: `uid-${name}` });

/** The lifecycle handler over the fakes, counting the Node reads by name. */
function setup() {
  const h = harness();
  const reads: string[] = [];
  const getNode = h.cluster.getNode;
  h.cluster.getNode = async (name: string) => {
    reads.push(name);
    return getNode(name);
  };
  const handler = createLifecycleHandler(() => ({
    clock: h.clock,
    log: h.log,
    cluster: h.cluster as never,
    store: h.store as never,
    timers: h.timers,
  }));
  return { h, reads, handler };
}

describe('lifecycle handler: a batch is handled once per node and kind of work', () => {
  it('the PodGone hints of a drained node in one batch read that node once, not once per pod', async () => {
    const { h, reads, handler } = setup();
    h.cluster.nodes.set('ip-1', kubeletNode('ip-1', 'i-01', [DISRUPTED]));
    h.cluster.nodes.set('ip-2', kubeletNode('ip-2', 'i-02', [DISRUPTED]));
    const bodies = [
      ...Array.from({ length: 20 }, (_, i) => gone('ip-1', `a-${i}`)),
      ...Array.from({ length: 5 }, (_, i) => gone('ip-2', `b-${i}`)),
    ];
    const result = await handler(batch(bodies), context());
    expect(result.batchItemFailures).toEqual([]);
    expect(reads.sort()).toEqual(['ip-1', 'ip-2']);
  });

  it("a node's registration and Ready hints in one batch are one reconcile: one read of the node and of its claim", async () => {
    const { h, reads, handler } = setup();
    h.cluster.nodes.set('ip-1', kubeletNode('ip-1', 'i-0a'));
    const lookups: string[] = [];
    const find = h.store.findNodeClaimByInstanceId;
    h.store.findNodeClaimByInstanceId = async (id: string) => {
      lookups.push(id);
      return find(id);
    };
    const result = await handler(
      batch([envelope('NodeRegistered', { nodeName: 'ip-1' }), envelope('NodeReady', { nodeName: 'ip-1' })]),
      context(),
    );
    expect(result.batchItemFailures).toEqual([]);
    expect(reads).toEqual(['ip-1']);
    expect(lookups).toEqual(['i-0a']);
  });

  it('work that fails reports every message that asked for it, and only those; a malformed one fails alone', async () => {
    const { h, handler } = setup();
    h.cluster.nodes.set('ip-1', kubeletNode('ip-1', 'i-01', [DISRUPTED]));
    const getNode = h.cluster.getNode;
    h.cluster.getNode = async (name: string) => {
      if (name === 'ip-2') throw new Error('API server unavailable');
      return getNode(name);
    };
    const result = await handler(
      batch([gone('ip-2', 'x'), gone('ip-1', 'y'), '{"not": "an event"', gone('ip-2', 'z')]),
      context(),
    );
    expect(result.batchItemFailures).toEqual([
      { itemIdentifier: 'm-0' },
      { itemIdentifier: 'm-2' },
      { itemIdentifier: 'm-3' },
    ]);
  });
});

describe('groupHints', () => {
  const node = (detailType: 'NodeRegistered' | 'NodeReady', nodeName: string) =>
    ({ detailType, detail: { nodeName } }) as const;
  it('keeps pod departures, reconciles and deletions of one node apart, and other nodes apart', () => {
    const grouped = groupHints([
      { messageId: '1', event: node('NodeRegistered', 'a') },
      {
        messageId: '2',
        event: { detailType: 'PodGone', detail: { nodeName: 'a', namespace: 'd', name: 'p', uid: 'u' } },
      },
      { messageId: '3', event: node('NodeReady', 'a') },
      { messageId: '4', event: node('NodeReady', 'b') },
      { messageId: '5', event: { detailType: 'NodeDeleted', detail: { kind: 'Node', name: 'a' } } },
      { messageId: '6', event: { detailType: 'NodeDeleted', detail: { kind: 'NodeClaim', name: 'a' } } },
    ]);
    expect(grouped.map((g) => g.messageIds)).toEqual([['1', '3'], ['2'], ['4'], ['5'], ['6']]);
  });
});
