import { describe, expect, it } from 'vitest';
import { handleTimerMessages } from '../../../../functions/core/sweep/run-sweep.js';
import { harness, launchedClaim, runningClaim } from '../lifecycle/harness.js';

const MIN = 60_000;

/** Three empty nodes whose emptiness timers are due, and the messages that wake them. */
function threeEmptyNodes() {
  const h = harness({ consolidateAfterMs: 0 });
  for (const n of ['a', 'b', 'c']) {
    const claim = runningClaim(h, `default-${n}`, `ip-${n}`);
    h.store.put({ ...claim, timers: { emptiness: h.clock.now() - 1_000 } });
  }
  const messages = ['a', 'b', 'c'].map((n) => ({
    nodeClaimId: `default-${n}`,
    dueAt: h.clock.now() - 1_000,
  }));
  let nodeLists = 0;
  const listNodes = h.sweep.cluster.listNodes.bind(h.sweep.cluster);
  h.sweep.cluster.listNodes = async () => {
    nodeLists++;
    return listNodes();
  };
  return { h, messages, nodeLists: () => nodeLists };
}

describe('handleTimerMessages: one disruption round per batch', () => {
  it('a batch of three wake-ups reads the cluster once and drains all three nodes', async () => {
    const { h, messages, nodeLists } = threeEmptyNodes();
    const batch = await handleTimerMessages(h.sweep, messages);
    expect(nodeLists()).toBe(1);
    expect(batch.disruption?.started.map((s) => s.nodeClaim).sort()).toEqual([
      'default-a',
      'default-b',
      'default-c',
    ]);
    expect(batch.outcomes).toEqual(
      messages.map((m) => ({ nodeClaimId: m.nodeClaimId, handled: ['emptiness'], deferred: [] })),
    );
    expect([...h.cloud.terminated].sort()).toEqual(['i-default-a', 'i-default-b', 'i-default-c']);
  });

  it('the round starts from the claims as their messages read them, reading none again', async () => {
    const { h, messages } = threeEmptyNodes();
    const calls: string[] = [];
    const get = h.sweep.store.getNodeClaim.bind(h.sweep.store);
    h.sweep.store.getNodeClaim = async (id: string) => {
      calls.push(id);
      return get(id);
    };
    const listNodes = h.sweep.cluster.listNodes.bind(h.sweep.cluster);
    h.sweep.cluster.listNodes = async () => {
      calls.push('round reads the cluster');
      return listNodes();
    };
    const batch = await handleTimerMessages(h.sweep, messages);
    expect(batch.disruption?.started).toHaveLength(3);
    // One read per message before the round; the drains read their claims after it.
    expect(calls.slice(0, calls.indexOf('round reads the cluster'))).toEqual([
      'default-a',
      'default-b',
      'default-c',
    ]);
  });

  it('the same claim twice in a batch is one claim of the round', async () => {
    const { h, messages, nodeLists } = threeEmptyNodes();
    const batch = await handleTimerMessages(h.sweep, [messages[0], messages[0]]);
    expect(nodeLists()).toBe(1);
    expect(batch.outcomes).toHaveLength(2);
    expect(h.log.messages().filter((m) => m.startsWith('disrupting node(s)'))).toHaveLength(3);
  });

  it('a claim with only its own timers due runs no round', async () => {
    const h = harness();
    launchedClaim(h, 'default-x', 'i-0x');
    h.clock.advance(16 * MIN);
    const batch = await handleTimerMessages(h.sweep, [{ nodeClaimId: 'default-x', dueAt: h.clock.now() }]);
    expect(batch.disruption).toBeUndefined();
    expect(batch.outcomes).toEqual([
      { nodeClaimId: 'default-x', handled: ['registrationTimeout'], deferred: [] },
    ]);
    expect(h.store.claims.get('default-x')?.state).toBe('Gone');
  });

  it('when the round fails, the messages that waited for it fail and the others stand', async () => {
    const { h, messages } = threeEmptyNodes();
    launchedClaim(h, 'default-x', 'i-0x');
    h.clock.advance(16 * MIN);
    h.sweep.cluster.listPodDisruptionBudgets = async () => {
      throw new Error('API server unavailable');
    };
    const own = { nodeClaimId: 'default-x', dueAt: h.clock.now() };
    const batch = await handleTimerMessages(h.sweep, [messages[0], own, messages[1]]);
    expect(batch.disruption).toBeUndefined();
    expect(batch.outcomes[0]).toBeInstanceOf(Error);
    expect(String(batch.outcomes[0])).toContain('API server unavailable');
    expect(batch.outcomes[1]).toEqual({
      nodeClaimId: 'default-x',
      handled: ['registrationTimeout'],
      deferred: [],
    });
    expect(batch.outcomes[2]).toBeInstanceOf(Error);
    expect(h.cloud.terminated).toEqual(['i-0x']);
  });

  it('a message for a claim that no longer exists does nothing', async () => {
    const h = harness();
    const batch = await handleTimerMessages(h.sweep, [{ nodeClaimId: 'missing', dueAt: 0 }]);
    expect(batch).toEqual({ outcomes: [{ nodeClaimId: 'missing', handled: [], deferred: [] }] });
  });
});
