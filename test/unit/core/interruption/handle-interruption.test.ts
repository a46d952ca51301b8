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
  it('spot interruption: cordons, evicts workload pods, terminates, retires the claim and deletes the node', async () => {
    const h = harness();
    runningNode(h);
    const outcome = await handleInterruption(h.interruption, {
      kind: 'spot-interruption',
      instanceId: 'i-0a',
    });
    expect(outcome).toBe('drained');
    const cordon = h.cluster.patches.find((p) => p.patch.taints);
    expect(cordon?.patch.taints).toContainEqual({ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' });
    expect(h.cluster.evicted.sort()).toEqual(['default/web-1', 'default/web-2']);
    expect(h.cloud.terminated).toEqual(['i-0a']);
    expect(h.cluster.deleted).toEqual(['ip-1']);
    const claim = h.store.claims.get('default-abc');
    expect(claim?.state).toBe('Gone');
    expect(claim?.failure?.reason).toBe('SpotInterrupted');
    expect(h.store.unavailable).toEqual([
      { instanceType: 'c5.large', zone: 'us-west-2a', capacityType: 'spot' },
    ]);
  });

  it('drains the node of a claim whose registration was not recorded yet', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    h.cluster.nodes.set('ip-1', kubeletNode('ip-1', 'i-0a'));
    h.cluster.pods.push(podOn('ip-1', 'web-1'));
    expect(await handleInterruption(h.interruption, { kind: 'spot-interruption', instanceId: 'i-0a' })).toBe(
      'drained',
    );
    expect(h.cluster.evicted).toEqual(['default/web-1']);
    expect(h.cluster.deleted).toEqual(['ip-1']);
    expect(h.store.claims.get('default-abc')?.state).toBe('Gone');
  });

  it('a duplicate warning after the claim is gone does nothing', async () => {
    const h = harness();
    runningNode(h);
    await handleInterruption(h.interruption, { kind: 'spot-interruption', instanceId: 'i-0a' });
    const terminated = h.cloud.terminated.length;
    expect(await handleInterruption(h.interruption, { kind: 'spot-interruption', instanceId: 'i-0a' })).toBe(
      'ignored',
    );
    expect(h.cloud.terminated.length).toBe(terminated);
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
