import { describe, expect, it } from 'vitest';
import { handleInterruption } from '../../../../functions/core/interruption/handle-interruption.js';
import { readInterruptionEvent } from '../../../../functions/core/interruption/interruption-notice.js';
import { kubeletNode, markReady, podOn } from '../lifecycle/fakes.js';
import { harness, launchedClaim } from '../lifecycle/harness.js';

function runningNode(h: ReturnType<typeof harness>) {
  const claim = launchedClaim(h, 'default-abc', 'i-0a');
  h.store.put({ ...claim, state: 'Initialized', nodeName: 'ip-1', timers: {} });
  const node = kubeletNode('ip-1', 'i-0a');
  markReady(node);
  h.cluster.nodes.set('ip-1', node);
  h.cluster.pods.push(
    podOn('ip-1', 'web-1'),
    podOn('ip-1', 'web-2'),
    podOn('ip-1', 'ds', { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds' }] }),
  );
}

const envelope = (detailType: string, detail: unknown) => ({
  id: 'e-1',
  'detail-type': detailType,
  source: 'aws.ec2',
  detail,
});

describe('readInterruptionEvent', () => {
  it('reads the EC2 and Health shapes', () => {
    expect(
      readInterruptionEvent(
        envelope('EC2 Spot Instance Interruption Warning', {
          'instance-id': 'i-0a',
          'instance-action': 'terminate',
        }),
      ),
    ).toEqual([{ kind: 'spot-interruption', instanceId: 'i-0a', eventId: 'e-1' }]);
    expect(
      readInterruptionEvent(
        envelope('EC2 Instance State-change Notification', { 'instance-id': 'i-0a', state: 'stopping' }),
      ),
    ).toEqual([{ kind: 'state-change', instanceId: 'i-0a', state: 'stopping', eventId: 'e-1' }]);
    expect(
      readInterruptionEvent(
        envelope('EC2 Instance State-change Notification', { 'instance-id': 'i-0a', state: 'running' }),
      ),
    ).toEqual([]);
    expect(
      readInterruptionEvent(
        envelope('AWS Health Event', {
          service: 'EC2',
          eventTypeCategory: 'scheduledChange',
          affectedEntities: [{ entityValue: 'i-0a' }, { entityValue: 'vol-1' }],
        }),
      ),
    ).toEqual([{ kind: 'scheduled-change', instanceId: 'i-0a', eventId: 'e-1' }]);
    expect(
      readInterruptionEvent(
        envelope('AWS Health Event', {
          service: 'EC2',
          eventTypeCategory: 'scheduledChange',
          startTime: 'Sat, 05 Dec 2026 10:00:00 GMT',
          affectedEntities: [{ entityValue: 'i-0a' }],
        }),
      ),
    ).toEqual([
      {
        kind: 'scheduled-change',
        instanceId: 'i-0a',
        eventId: 'e-1',
        startsAt: Date.UTC(2026, 11, 5, 10),
      },
    ]);
    expect(readInterruptionEvent(envelope('Something Else', {}))).toEqual([]);
  });

  it('names what is wrong in a malformed event', () => {
    expect(() =>
      readInterruptionEvent(envelope('EC2 Spot Instance Interruption Warning', { 'instance-id': 'bogus' })),
    ).toThrow(/instance-id: an EC2 instance id/);
    expect(() => readInterruptionEvent('nope')).toThrow(/interruption event/);
  });
});

describe('handleInterruption', () => {
  it('spot interruption: starts a forceful drain bounded by the 2-minute deadline, marks the offering', async () => {
    const h = harness();
    runningNode(h);
    const now = h.clock.now();
    const outcome = await handleInterruption(h.interruption, {
      kind: 'spot-interruption',
      instanceId: 'i-0a',
    });
    expect(outcome).toBe('draining');
    const cordon = h.cluster.patches.find((p) => p.patch.taints);
    expect(cordon?.patch.taints).toContainEqual({ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' });
    const claim = h.store.claims.get('default-abc');
    expect(claim?.state).toBe('Draining');
    expect(claim?.disruption).toMatchObject({
      cause: 'interrupted',
      forceful: true,
      phase: 'replacing',
      forceAt: now + 120_000,
      replaceBy: now + 90_000,
    });
    expect(claim?.timers.drainStep).toBe(now);
    expect(h.timers.scheduled).toContainEqual({ nodeClaimId: 'default-abc', dueAt: now });
    // Nothing is evicted or terminated by the notice itself: the drain steps do that.
    expect(h.cluster.evicted).toEqual([]);
    expect(h.cloud.terminated).toEqual([]);
    expect(h.store.unavailable).toEqual([
      { instanceType: 'c5.large', zone: 'us-west-2a', capacityType: 'spot' },
    ]);
    expect(h.log.messages()).toContain(
      'disrupting node(s) via delete, terminating 1 node(s) (2 pods) ip-1/c5.large/spot',
    );
  });

  it('retires at once a claim whose node never registered', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    expect(await handleInterruption(h.interruption, { kind: 'spot-interruption', instanceId: 'i-0a' })).toBe(
      'cleaned-up',
    );
    expect(h.cloud.terminated).toEqual(['i-0a']);
    expect(h.store.claims.get('default-abc')?.state).toBe('Gone');
  });

  it('a duplicate warning while the node drains changes nothing', async () => {
    const h = harness();
    runningNode(h);
    await handleInterruption(h.interruption, { kind: 'spot-interruption', instanceId: 'i-0a' });
    const before = h.store.claims.get('default-abc');
    h.clock.advance(10_000);
    expect(await handleInterruption(h.interruption, { kind: 'spot-interruption', instanceId: 'i-0a' })).toBe(
      'draining',
    );
    const after = h.store.claims.get('default-abc');
    expect(after?.disruption).toEqual(before?.disruption);
    expect(after?.timers).toEqual(before?.timers);
  });

  it('a scheduled change drains on arrival, as Karpenter does, whatever its start time', async () => {
    const h = harness();
    runningNode(h);
    const now = h.clock.now();
    const startsAt = now + 14 * 24 * 3_600_000;
    expect(
      await handleInterruption(h.interruption, { kind: 'scheduled-change', instanceId: 'i-0a', startsAt }),
    ).toBe('draining');
    const claim = h.store.claims.get('default-abc');
    expect(claim?.state).toBe('Draining');
    expect(claim?.disruption).toMatchObject({ cause: 'interrupted', forceful: true });
    // No spot deadline: the drain runs at its own pace, replacement first.
    expect(claim?.disruption?.forceAt).toBeUndefined();
    expect(claim?.timers.interruption).toBeUndefined();
    expect(h.store.unavailable).toEqual([]);
    expect(h.cluster.events).toContainEqual(
      expect.objectContaining({
        reason: 'InstanceScheduledChange',
        message: expect.stringContaining(new Date(startsAt).toISOString()),
      }),
    );
  });

  it('terminated: cleans up the claim and node without draining', async () => {
    const h = harness();
    runningNode(h);
    expect(
      await handleInterruption(h.interruption, {
        kind: 'state-change',
        instanceId: 'i-0a',
        state: 'terminated',
      }),
    ).toBe('cleaned-up');
    expect(h.cluster.evicted).toEqual([]);
    expect(h.cloud.terminated).toEqual([]);
    expect(h.cluster.deleted).toEqual(['ip-1']);
    expect(h.store.claims.get('default-abc')?.state).toBe('Gone');
  });

  it('rebalance recommendation: an event only', async () => {
    const h = harness();
    runningNode(h);
    expect(await handleInterruption(h.interruption, { kind: 'rebalance', instanceId: 'i-0a' })).toBe('noted');
    expect(h.cluster.events).toMatchObject([
      { reason: 'RebalanceRecommendation', involvedObject: { kind: 'Node', name: 'ip-1' } },
    ]);
    expect(h.store.claims.get('default-abc')?.state).toBe('Initialized');
    expect(h.cloud.terminated).toEqual([]);
  });

  it('ignores instances joiner does not run', async () => {
    const h = harness();
    expect(
      await handleInterruption(h.interruption, { kind: 'spot-interruption', instanceId: 'i-other' }),
    ).toBe('ignored');
    expect(h.cloud.terminated).toEqual([]);
  });
});
