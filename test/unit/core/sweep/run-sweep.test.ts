import { describe, expect, it } from 'vitest';
import { transition } from '../../../../functions/core/nodeclaim/state-machine.js';
import { handleTimerMessage, runSweep } from '../../../../functions/core/sweep/run-sweep.js';
import { kubeletNode, markReady, pendingClaim, podOn } from '../lifecycle/fakes.js';
import { harness, launchedClaim } from '../lifecycle/harness.js';

const MIN = 60_000;

describe('runSweep: timeouts', () => {
  it('retires a claim whose instance never registers after 15 minutes, not before', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    h.clock.advance(14 * MIN);
    await runSweep(h.sweep);
    expect(h.store.claims.get('default-abc')?.state).toBe('Launched');
    expect(h.cloud.terminated).toEqual([]);

    h.clock.advance(MIN);
    const outcome = await runSweep(h.sweep);
    const claim = h.store.claims.get('default-abc');
    expect(claim?.state).toBe('Gone');
    expect(claim?.failure?.reason).toBe('RegistrationTimeout');
    expect(claim?.timers).toEqual({});
    expect(h.cloud.terminated).toEqual(['i-0a']);
    expect(h.cluster.events).toMatchObject([{ type: 'Warning', reason: 'RegistrationTimeout' }]);
    expect(outcome.timers).toEqual([
      { nodeClaimId: 'default-abc', handled: ['registrationTimeout'], deferred: [] },
    ]);
  });

  it('initializes instead of retiring when the node registered but its events were lost', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    const node = kubeletNode('ip-1', 'i-0a');
    markReady(node);
    h.cluster.nodes.set('ip-1', node);
    h.clock.advance(15 * MIN);
    await runSweep(h.sweep);
    expect(h.store.claims.get('default-abc')?.state).toBe('Initialized');
    expect(h.cloud.terminated).toEqual([]);
  });

  it('retires a claim that never launched after 5 minutes, terminating an instance a crash left behind', async () => {
    const h = harness();
    h.store.put(pendingClaim('default-p', h.clock.now()));
    h.cloud.instances.set('i-crash', {
      instanceId: 'i-crash',
      instanceType: 'c5.large',
      zone: 'us-west-2a',
      capacityType: 'spot',
      state: 'running',
      launchTime: h.clock.now(),
      nodeClaimId: 'default-p',
      tags: {},
    });
    h.clock.advance(5 * MIN);
    await runSweep(h.sweep);
    const claim = h.store.claims.get('default-p');
    expect(claim?.state).toBe('Gone');
    expect(claim?.failure?.reason).toBe('LaunchTimeout');
    expect(h.cloud.terminated).toContain('i-crash');
  });

  it('a launch timeout adopts the instance of a recorded attempt (tagged with the claim) instead of terminating it', async () => {
    const h = harness();
    const claim = pendingClaim('default-p', h.clock.now());
    h.store.put({
      ...claim,
      launchAttempts: 1,
      lastAttempt: { capacityType: 'spot', offerings: ['c5.large|us-west-2a|spot'] },
    });
    h.cloud.instances.set('i-crash', {
      instanceId: 'i-crash',
      instanceType: 'c5.large',
      zone: 'us-west-2a',
      capacityType: 'spot',
      state: 'running',
      launchTime: h.clock.now(),
      nodeClaimId: 'default-p',
      tags: {},
    });
    h.clock.advance(5 * MIN);
    await runSweep(h.sweep);
    const stored = h.store.claims.get('default-p');
    expect(stored?.state).toBe('Launched');
    expect(stored?.instance?.instanceId).toBe('i-crash');
    expect(stored?.timers.registrationTimeout).toBeGreaterThan(h.clock.now());
    expect(h.cloud.terminated).toEqual([]);
  });

  it('a timer message acts only on the named claim and only when due', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    launchedClaim(h, 'default-def', 'i-0b');
    const early = await handleTimerMessage(h.sweep, { nodeClaimId: 'default-abc', dueAt: h.clock.now() });
    expect(early.handled).toEqual([]);
    h.clock.advance(15 * MIN);
    await handleTimerMessage(h.sweep, { nodeClaimId: 'default-abc', dueAt: h.clock.now() });
    expect(h.store.claims.get('default-abc')?.state).toBe('Gone');
    expect(h.store.claims.get('default-def')?.state).toBe('Launched');
    await handleTimerMessage(h.sweep, { nodeClaimId: 'missing', dueAt: 0 });
  });

  it('finishes a retire a crash left in Terminating', async () => {
    const h = harness();
    const claim = launchedClaim(h, 'default-abc', 'i-0a');
    h.store.put({ ...claim, state: 'Terminating', timers: { terminationCheck: h.clock.now() } });
    await runSweep(h.sweep);
    expect(h.store.claims.get('default-abc')?.state).toBe('Gone');
    expect(h.cloud.terminated).toEqual(['i-0a']);
  });

  it('two sweeps at once retire a timed-out claim once', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    h.clock.advance(16 * MIN);
    await Promise.all([runSweep(h.sweep), runSweep(h.sweep)]);
    expect(h.store.claims.get('default-abc')?.state).toBe('Gone');
    expect(h.cluster.events.length).toBeLessThanOrEqual(2);
  });
});

describe('runSweep: orphans', () => {
  it('terminates tagged instances without a live claim after the grace period only', async () => {
    const h = harness();
    const owner = 'joiner-table';
    (h.sweep as { owner?: string }).owner = owner;
    const base = {
      instanceType: 'c5.large',
      zone: 'us-west-2a',
      capacityType: 'spot' as const,
      state: 'running' as const,
      tags: {},
      owner,
    };
    // The record of the claim the orphan's launch was for, retired while its launch was in flight.
    h.store.put(
      transition(pendingClaim('gone-claim', h.clock.now() - 4 * MIN), 'Gone', h.clock.now() - 4 * MIN),
    );
    h.cloud.instances.set('i-orphan', {
      ...base,
      instanceId: 'i-orphan',
      launchTime: h.clock.now() - 3 * MIN,
      nodeClaimId: 'gone-claim',
    });
    h.cloud.instances.set('i-young', { ...base, instanceId: 'i-young', launchTime: h.clock.now() - 30_000 });
    launchedClaim(h, 'default-abc', 'i-owned');
    h.cloud.instances.set('i-owned', {
      ...base,
      instanceId: 'i-owned',
      launchTime: h.clock.now() - 3 * MIN,
      nodeClaimId: 'default-abc',
    });
    const outcome = await runSweep(h.sweep);
    expect(outcome.orphans.terminatedInstances).toEqual(['i-orphan']);
    expect(h.cloud.terminated).toEqual(['i-orphan']);
  });

  it('retires running claims whose instance is gone and deletes their node', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    const claim = h.store.claims.get('default-abc');
    if (!claim) throw new Error('no claim');
    h.store.put({ ...claim, state: 'Initialized', nodeName: 'ip-1', timers: {} });
    h.cluster.nodes.set('ip-1', kubeletNode('ip-1', 'i-0a'));
    h.cloud.instances.delete('i-0a');
    h.clock.advance(3 * MIN);
    const outcome = await runSweep(h.sweep);
    expect(outcome.orphans.retiredClaims).toEqual(['default-abc']);
    expect(h.store.claims.get('default-abc')?.state).toBe('Gone');
    expect(h.cluster.deleted).toEqual(['ip-1']);
    expect(h.cloud.terminated).toEqual([]);
  });
});

describe('runSweep: safety net', () => {
  it('publishes PodUnschedulable for pending pods no in-flight claim waits on', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    h.cluster.pending = [
      podOn('', 'web-1'),
      podOn('', 'web-2'),
      podOn('', 'dying', { deletionTimestamp: 'x' }),
    ];
    const outcome = await runSweep(h.sweep);
    expect(outcome.republished.map((p) => p.name)).toEqual(['web-2']);
    expect(h.events.published).toEqual([
      {
        detailType: 'PodUnschedulable',
        detail: { namespace: 'default', name: 'web-2', uid: 'uid-web-2' },
        time: h.clock.now(),
      },
    ]);
  });

  it('republishes pods of a claim past its timeout', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    h.cluster.pending = [podOn('', 'web-1')];
    h.clock.advance(15 * MIN);
    const outcome = await runSweep(h.sweep);
    expect(outcome.republished.map((p) => p.name)).toEqual(['web-1']);
  });

  it('publishes nothing when nothing is pending', async () => {
    const h = harness();
    await runSweep(h.sweep);
    expect(h.events.published).toEqual([]);
  });
});
