import { describe, expect, it } from 'vitest';
import { handleInterruption } from '../../../../functions/core/interruption/handle-interruption.js';
import type { InterruptionNotice } from '../../../../functions/core/interruption/interruption-notice.js';
import { MAX_IMMEDIATE_RELAUNCHES } from '../../../../functions/core/lifecycle/relaunch-hint.js';
import { collectOrphans } from '../../../../functions/core/sweep/orphans.js';
import { harness, launchedClaim } from './harness.js';

const KMS = {
  code: 'Client.InvalidKMSKey.InvalidState',
  message: 'Client.InvalidKMSKey.InvalidState: The KMS key provided is in an incorrect state',
};
const ICE = {
  code: 'Server.InsufficientInstanceCapacity',
  message: 'Server.InsufficientInstanceCapacity: Insufficient capacity to satisfy the launch request',
};

/** A Launched claim whose instance EC2 terminated with `reason`, and the pool's document. */
function terminatedAtLaunch(reason: { code: string; message: string } | undefined) {
  const h = harness();
  launchedClaim(h, 'default-abc', 'i-0a');
  const instance = h.cloud.instances.get('i-0a')!;
  h.cloud.instances.set('i-0a', {
    ...instance,
    state: 'terminated',
    ...(reason ? { stateReason: reason } : {}),
  });
  h.cluster.nodePoolDocuments.push({
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'default' },
  });
  return h;
}

const gone: InterruptionNotice = { kind: 'state-change', instanceId: 'i-0a', state: 'terminated' };

describe('an instance EC2 terminated during launch', () => {
  it('an unusable KMS key: the claim is retired with the reason, events on the NodeClaim, the NodePool and the pods, one warning line', async () => {
    const h = terminatedAtLaunch(KMS);
    expect(await handleInterruption(h.interruption, gone)).toBe('cleaned-up');
    const claim = h.store.claims.get('default-abc');
    expect(claim?.state).toBe('Gone');
    expect(claim?.failure?.reason).toBe('InvalidKMSKey');
    expect(claim?.failure?.message).toContain(
      'EC2 terminated instance i-0a during launch (Client.InvalidKMSKey.InvalidState: The KMS key provided',
    );
    expect(h.cluster.events.map((e) => [e.involvedObject.kind, e.type, e.reason])).toEqual([
      ['NodeClaim', 'Warning', 'InvalidKMSKey'],
      ['NodePool', 'Warning', 'InvalidKMSKey'],
      ['Pod', 'Warning', 'InvalidKMSKey'],
    ]);
    expect(h.cluster.events[2].message).toMatch(
      /^nodeclaim default-abc: EC2 terminated instance i-0a during launch/,
    );
    expect(h.log.lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    expect(h.log.lines.find((l) => l.level === 'warn')?.fields).toMatchObject({
      'state-reason': KMS.code,
      nodeclass: 'default',
    });
    // A NodeClass cause marks no offering: the NodeClass backs off instead.
    expect(h.store.unavailable).toEqual([]);
    expect(h.cloud.terminated).toEqual([]);
  });

  it('a capacity cause marks the offering unavailable', async () => {
    const h = terminatedAtLaunch(ICE);
    await handleInterruption(h.interruption, gone);
    expect(h.store.claims.get('default-abc')?.failure?.reason).toBe('InsufficientCapacity');
    expect(h.store.unavailable).toEqual([
      { instanceType: 'c5.large', zone: 'us-west-2a', capacityType: 'spot' },
    ]);
  });

  it('a duplicate delivery does nothing more', async () => {
    const h = terminatedAtLaunch(KMS);
    await handleInterruption(h.interruption, gone);
    const events = h.cluster.events.length;
    const lines = h.log.lines.length;
    expect(await handleInterruption(h.interruption, gone)).toBe('ignored');
    expect(h.cluster.events).toHaveLength(events);
    expect(h.log.lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    expect(h.log.lines.length).toBeGreaterThanOrEqual(lines);
  });

  it('concurrent deliveries (shutting-down and terminated at once) report it once', async () => {
    const h = terminatedAtLaunch(ICE);
    await Promise.all([
      handleInterruption(h.interruption, gone),
      handleInterruption(h.interruption, { ...gone, state: 'shutting-down' }),
      handleInterruption(h.interruption, gone),
    ]);
    expect(h.store.claims.get('default-abc')?.state).toBe('Gone');
    expect(h.cluster.events.filter((e) => e.involvedObject.kind === 'NodeClaim')).toHaveLength(1);
    expect(h.cluster.events.filter((e) => e.involvedObject.kind === 'Pod')).toHaveLength(1);
    expect(h.store.unavailable).toHaveLength(1);
    expect(h.log.lines.filter((l) => l.level === 'warn')).toHaveLength(1);
  });

  it('a user or spot termination, or no state reason, is cleaned up as before', async () => {
    for (const reason of [
      {
        code: 'Client.UserInitiatedShutdown',
        message: 'Client.UserInitiatedShutdown: User initiated shutdown',
      },
      undefined,
    ]) {
      const h = terminatedAtLaunch(reason);
      await handleInterruption(h.interruption, gone);
      expect(h.store.claims.get('default-abc')?.failure?.reason).toBe('InstanceStopped');
      expect(h.cluster.events.some((e) => e.involvedObject.kind === 'NodeClaim')).toBe(false);
    }
  });

  it('the event lost, the sweep reads the state reason of the vanished instance', async () => {
    const h = terminatedAtLaunch(KMS);
    h.clock.advance(5 * 60_000);
    const out = await collectOrphans(h.sweep);
    expect(out.retiredClaims).toEqual(['default-abc']);
    expect(h.store.claims.get('default-abc')?.failure?.reason).toBe('InvalidKMSKey');
    expect(h.cluster.events.map((e) => e.involvedObject.kind)).toEqual(['NodeClaim', 'NodePool', 'Pod']);
  });
});

/** A claim `id` whose instance `instanceId` EC2 terminated during launch with `reason`. */
function alsoTerminated(h: ReturnType<typeof harness>, id: string, instanceId: string, reason: typeof ICE) {
  launchedClaim(h, id, instanceId);
  const instance = h.cloud.instances.get(instanceId)!;
  h.cloud.instances.set(instanceId, { ...instance, state: 'terminated', stateReason: reason });
}

describe('the provisioner is woken at once after a launch lost its capacity', () => {
  it('a capacity cause publishes PodUnschedulable for the claim’s pods once it is Gone', async () => {
    const h = terminatedAtLaunch(ICE);
    let stateAtPublish: string | undefined;
    const events = {
      publish: async (e: Parameters<typeof h.events.publish>[0]) => {
        stateAtPublish = h.store.claims.get('default-abc')?.state;
        return h.events.publish(e);
      },
    };
    await handleInterruption({ ...h.interruption, events }, gone);
    expect(h.events.published).toHaveLength(1);
    expect(h.events.published[0]).toMatchObject({
      detailType: 'PodUnschedulable',
      detail: { namespace: 'default', name: 'web-1' },
    });
    // No run may find the claim still in flight and wait for it.
    expect(stateAtPublish).toBe('Gone');
  });

  it('a NodeClass cause publishes nothing: its launch backoff would refuse the launch', async () => {
    const h = terminatedAtLaunch(KMS);
    await handleInterruption({ ...h.interruption, events: h.events }, gone);
    expect(h.events.published).toEqual([]);
  });

  it('duplicate and concurrent deliveries wake it once', async () => {
    const h = terminatedAtLaunch(ICE);
    const deps = { ...h.interruption, events: h.events };
    await Promise.all([
      handleInterruption(deps, gone),
      handleInterruption(deps, { ...gone, state: 'shutting-down' }),
      handleInterruption(deps, gone),
    ]);
    await handleInterruption(deps, gone);
    expect(h.events.published).toHaveLength(1);
  });

  it('the sweep that finds the lost event wakes it too', async () => {
    const h = terminatedAtLaunch(ICE);
    h.clock.advance(5 * 60_000);
    await collectOrphans(h.sweep);
    expect(h.events.published.map((e) => e.detailType)).toEqual(['PodUnschedulable']);
  });

  it(`bounded: after ${MAX_IMMEDIATE_RELAUNCHES} capacity losses of a NodePool within 3 minutes, the sweep relaunches`, async () => {
    const h = harness();
    const deps = { ...h.interruption, events: h.events };
    h.cluster.nodePoolDocuments.push({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'default' },
    });
    for (let n = 1; n <= MAX_IMMEDIATE_RELAUNCHES + 1; n++) {
      alsoTerminated(h, `default-${n}`, `i-${n}`, ICE);
      await handleInterruption(deps, { ...gone, instanceId: `i-${n}` });
      h.clock.advance(10_000);
    }
    expect(h.events.published).toHaveLength(MAX_IMMEDIATE_RELAUNCHES);
    expect(h.log.messages()).toContain(
      'many launches of the NodePool lost their capacity, the sweep relaunches',
    );
    // Three minutes on, the earlier failures no longer count.
    h.clock.advance(3 * 60_000);
    alsoTerminated(h, 'default-late', 'i-late', ICE);
    await handleInterruption(deps, { ...gone, instanceId: 'i-late' });
    expect(h.events.published).toHaveLength(MAX_IMMEDIATE_RELAUNCHES + 1);
  });
});
