/**
 * The lifecycle and interruption functions read a claim once per event: the claim their lookup
 * found is the one their writes start from (each write conditional on its version, so a claim
 * changed meanwhile is read again and the decision made again).
 */
import { describe, expect, it, vi } from 'vitest';
import { handleInterruption } from '../../../../functions/core/interruption/handle-interruption.js';
import { handleLifecycleEvent } from '../../../../functions/core/lifecycle/handle-lifecycle-event.js';
import { kubeletNode, markReady } from './fakes.js';
import { harness, launchedClaim, runningClaim } from './harness.js';

const ready = (nodeName: string) => ({ detailType: 'NodeReady' as const, detail: { nodeName } });

/** A Launched claim `default-abc` whose node `ip-1` (instance i-0a) joined Ready. */
function joinedReady(h: ReturnType<typeof harness>): void {
  launchedClaim(h, 'default-abc', 'i-0a');
  const node = kubeletNode('ip-1', 'i-0a');
  markReady(node);
  h.cluster.nodes.set('ip-1', node);
}

describe('one read of the claim per event', () => {
  it('a NodeReady registers and initializes the claim its lookup found, reading it no more', async () => {
    const h = harness();
    joinedReady(h);
    const gets = vi.spyOn(h.store, 'getNodeClaim');
    const finds = vi.spyOn(h.store, 'findNodeClaimByInstanceId');
    expect(await handleLifecycleEvent(h.lifecycle, ready('ip-1'))).toBe('reconciled');
    expect(h.store.claims.get('default-abc')?.state).toBe('Initialized');
    expect(finds).toHaveBeenCalledTimes(1);
    expect(gets).not.toHaveBeenCalled();
  });

  it('a claim changed after the lookup is read again and initialized once', async () => {
    const h = harness();
    joinedReady(h);
    // Another writer moves the version on between the lookup and the writes.
    const find = h.store.findNodeClaimByInstanceId;
    h.store.findNodeClaimByInstanceId = async (id: string) => {
      const found = await find(id);
      if (found)
        h.store.claims.set(found.id, { ...found, labels: { other: 'write' }, version: found.version + 1 });
      return found;
    };
    expect(await handleLifecycleEvent(h.lifecycle, ready('ip-1'))).toBe('reconciled');
    expect(h.store.claims.get('default-abc')).toMatchObject({
      state: 'Initialized',
      labels: { other: 'write' },
    });
    expect(h.log.messages().filter((m) => m === 'initialized nodeclaim')).toHaveLength(1);
    // A duplicate event finds it Initialized: nothing more.
    expect(await handleLifecycleEvent(h.lifecycle, ready('ip-1'))).toBe('reconciled');
    expect(h.log.messages().filter((m) => m === 'initialized nodeclaim')).toHaveLength(1);
  });

  it('a scheduled change drains the claim its lookup found without reading it again', async () => {
    const h = harness();
    const instanceId = runningClaim(h, 'default-abc', 'ip-1', ['web-1']).instance?.instanceId;
    const notice = { kind: 'scheduled-change' as const, instanceId: instanceId ?? '' };
    const gets = vi.spyOn(h.store, 'getNodeClaim');
    expect(await handleInterruption(h.interruption, notice)).toBe('draining');
    expect(h.store.claims.get('default-abc')).toMatchObject({
      state: 'Draining',
      disruption: { cause: 'interrupted' },
    });
    expect(gets).not.toHaveBeenCalled();
    // A duplicate notice changes nothing.
    expect(await handleInterruption(h.interruption, notice)).toBe('draining');
    expect(h.store.claims.get('default-abc')?.disruption?.cause).toBe('interrupted');
  });
});
