import { describe, expect, it } from 'vitest';
import { handleInterruption } from '../../../../functions/core/interruption/handle-interruption.js';
import { kubeletNode, markReady, podOn } from '../lifecycle/fakes.js';
import { harness, launchedClaim } from '../lifecycle/harness.js';

const OWNER = 'joiner-state';
const ADOPTED = 'interruption for an instance whose nodeclaim record was missing: its claim is rebuilt';

/** A running node `ip-1` of instance i-0a (tagged `tags`) with two pods, and no claim record. */
function lostRecord(
  tags: { owner?: string; nodeClaimId?: string } = { owner: OWNER, nodeClaimId: 'default-abc' },
) {
  const h = harness();
  h.cloud.instances.set('i-0a', {
    instanceId: 'i-0a',
    instanceType: 'm5.large',
    zone: 'us-west-2a',
    capacityType: 'spot',
    state: 'running',
    launchTime: 0,
    nodePool: 'default',
    privateDnsName: 'ip-1',
    ...tags,
    tags: {
      ...(tags.nodeClaimId ? { 'joiner.sh/nodeclaim': tags.nodeClaimId } : {}),
      'joiner.sh/nodeclass': 'default',
    },
  });
  const node = kubeletNode('ip-1', 'i-0a');
  markReady(node);
  h.cluster.nodes.set('ip-1', node);
  h.cluster.pods.push(podOn('ip-1', 'web-1'), podOn('ip-1', 'web-2'));
  return { h, deps: { ...h.interruption, owner: OWNER } };
}

const spot = { kind: 'spot-interruption' as const, instanceId: 'i-0a' };

describe('an interruption for an instance whose claim record is missing', () => {
  it('adopts the instance under its tagged id and drains it; a duplicate and two at once adopt it once', async () => {
    const { h, deps } = lostRecord();
    const outcomes = await Promise.all([handleInterruption(deps, spot), handleInterruption(deps, spot)]);
    outcomes.push(await handleInterruption(deps, spot));
    expect(outcomes).toEqual(['draining', 'draining', 'draining']);
    const claim = await h.store.getNodeClaim('default-abc');
    expect(claim).toMatchObject({
      state: 'Draining',
      nodeName: 'ip-1',
      nodeClass: 'default',
      instance: { instanceId: 'i-0a', capacityType: 'spot' },
      disruption: { cause: 'interrupted', forceful: true },
    });
    expect(h.log.messages().filter((m) => m === ADOPTED)).toHaveLength(1);
    expect(h.cluster.nodes.get('ip-1')?.spec?.taints?.map((t) => t.key)).toContain('karpenter.sh/disrupted');
  });

  it('adopts nothing for an instance of another table, without a nodeclaim tag, or when its own identity is unknown', async () => {
    for (const [tags, withOwner] of [
      [{ owner: 'another-table', nodeClaimId: 'default-abc' }, true],
      [{ owner: OWNER }, true],
      [{ owner: OWNER, nodeClaimId: 'default-abc' }, false],
    ] as const) {
      const { h, deps } = lostRecord(tags);
      expect(await handleInterruption(withOwner ? deps : h.interruption, spot)).toBe('ignored');
      expect(await h.store.listNodeClaims()).toEqual([]);
      expect(h.cluster.nodes.get('ip-1')?.spec?.taints ?? []).toEqual([]);
    }
  });

  it('adopts nothing for a rebalance recommendation, an instance already terminating, or a node that never registered', async () => {
    const rebalance = lostRecord();
    expect(await handleInterruption(rebalance.deps, { kind: 'rebalance', instanceId: 'i-0a' })).toBe(
      'ignored',
    );
    expect(await rebalance.h.store.listNodeClaims()).toEqual([]);

    const going = lostRecord();
    expect(
      await handleInterruption(going.deps, {
        kind: 'state-change',
        instanceId: 'i-0a',
        state: 'shutting-down',
      }),
    ).toBe('ignored');
    expect(await going.h.store.listNodeClaims()).toEqual([]);

    const unregistered = lostRecord();
    unregistered.h.cluster.nodes.delete('ip-1');
    expect(await handleInterruption(unregistered.deps, spot)).toBe('ignored');
    expect(await unregistered.h.store.listNodeClaims()).toEqual([]);
  });

  it('leaves a retired claim record as it is (not lost: the sweep deals with its instance)', async () => {
    const { h, deps } = lostRecord();
    await handleInterruption(deps, spot);
    const stored = await h.store.getNodeClaim('default-abc');
    if (!stored) throw new Error('not adopted');
    h.store.put({ ...stored, state: 'Gone' });
    expect(await handleInterruption(deps, spot)).toBe('ignored');
    expect((await h.store.getNodeClaim('default-abc'))?.state).toBe('Gone');
  });

  it('drains, not terminates, a Launched claim whose node registered meanwhile (its registration lost)', async () => {
    const h = harness();
    h.store.put(launchedClaim(h, 'default-abc', 'i-0a'));
    const node = kubeletNode('ip-1', 'i-0a');
    markReady(node);
    h.cluster.nodes.set('ip-1', node);
    h.cluster.pods.push(podOn('ip-1', 'web-1'));
    expect(await handleInterruption(h.interruption, spot)).toBe('draining');
    expect(await h.store.getNodeClaim('default-abc')).toMatchObject({ state: 'Draining', nodeName: 'ip-1' });
    expect(h.cloud.terminated).toEqual([]);
    expect(await handleInterruption(h.interruption, spot)).toBe('draining');

    // Without a node, a Launched claim is still retired at once.
    const bare = harness();
    bare.store.put(launchedClaim(bare, 'default-abc', 'i-0a'));
    expect(await handleInterruption(bare.interruption, spot)).toBe('cleaned-up');
  });
});
