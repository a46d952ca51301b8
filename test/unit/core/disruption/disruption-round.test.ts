import { describe, expect, it } from 'vitest';
import {
  NODECLASS_HASH_VERSION,
  NODEPOOL_HASH_VERSION,
} from '../../../../functions/core/disruption/drift-hashes.js';
import { handleTimerMessage, runSweep } from '../../../../functions/core/sweep/run-sweep.js';
import { pendingClaim, podOn } from '../lifecycle/fakes.js';
import { harness, runningClaim } from '../lifecycle/harness.js';

const MIN = 60_000;

describe('disruption round: emptiness', () => {
  it('arms the emptiness timer of an empty node, then terminates it once consolidateAfter has passed', async () => {
    const h = harness({ consolidateAfterMs: 30_000 });
    runningClaim(h, 'default-a', 'ip-a');
    await runSweep(h.sweep);
    const armed = h.store.claims.get('default-a');
    expect(armed?.timers.emptiness).toBe(h.clock.now() + 30_000);
    expect(h.timers.scheduled).toContainEqual({ nodeClaimId: 'default-a', dueAt: h.clock.now() + 30_000 });

    h.clock.advance(30_000);
    const outcome = await runSweep(h.sweep);
    expect(outcome.disruption.started).toEqual([
      { nodeClaim: 'default-a', nodePool: 'default', cause: 'empty' },
    ]);
    expect(outcome.disruption.decisions).toEqual([{ decision: 'delete', reason: 'empty', nodes: 1 }]);
    expect(outcome.disruption.terminated).toEqual([{ nodePool: 'default', cause: 'empty', drainMs: 0 }]);
    expect(h.cloud.terminated).toEqual(['i-default-a']);
    expect(h.cluster.deleted).toEqual(['ip-a']);
    expect(h.store.claims.get('default-a')?.state).toBe('Gone');
    expect(h.store.claims.get('default-a')?.failure?.reason).toBe('Empty');
    expect(h.log.messages()).toContain(
      'disrupting node(s) via delete, terminating 1 node(s) (0 pods) ip-a/c5.large/spot',
    );
  });

  it('disarms the timer when a pod came back, and never arms it on a node with workloads', async () => {
    const h = harness({ consolidateAfterMs: 30_000 });
    runningClaim(h, 'default-a', 'ip-a');
    runningClaim(h, 'default-b', 'ip-b', ['web-1']);
    await runSweep(h.sweep);
    expect(h.store.claims.get('default-b')?.timers.emptiness).toBeUndefined();
    h.cluster.pods.push(podOn('ip-a', 'web-2'));
    h.clock.advance(30_000);
    const outcome = await runSweep(h.sweep);
    expect(outcome.disruption.started).toEqual([]);
    expect(h.store.claims.get('default-a')?.timers.emptiness).toBeUndefined();
    expect(h.cloud.terminated).toEqual([]);
  });

  it('consolidateAfter Never keeps empty nodes', async () => {
    const h = harness({ consolidateAfterMs: null });
    runningClaim(h, 'default-a', 'ip-a');
    await runSweep(h.sweep);
    h.clock.advance(10 * MIN);
    await runSweep(h.sweep);
    expect(h.store.claims.get('default-a')?.state).toBe('Initialized');
  });

  it('a do-not-disrupt node stays; its timer is moved later with the reason and an event', async () => {
    const h = harness({ consolidateAfterMs: 0 });
    runningClaim(h, 'default-a', 'ip-a');
    const node = h.cluster.nodes.get('ip-a');
    if (node) node.metadata.annotations = { 'karpenter.sh/do-not-disrupt': 'true' };
    await runSweep(h.sweep);
    await runSweep(h.sweep);
    const claim = h.store.claims.get('default-a');
    expect(claim?.state).toBe('Initialized');
    expect(claim?.blocked?.reason).toBe('node ip-a has do-not-disrupt annotation');
    expect(claim?.timers.emptiness).toBeGreaterThan(h.clock.now());
    expect(h.cluster.events).toContainEqual(
      expect.objectContaining({
        reason: 'DisruptionBlocked',
        message: 'node ip-a has do-not-disrupt annotation',
      }),
    );
  });
});

describe('disruption round: hash versions', () => {
  it('re-stamps a claim stamped without a hash version, and does not call it drifted', async () => {
    const h = harness({ consolidateAfterMs: null });
    runningClaim(h, 'default-a', 'ip-a', ['web-1']);
    expect(h.store.claims.get('default-a')?.nodePoolHashVersion).toBeUndefined();
    const outcome = await runSweep(h.sweep);
    const claim = h.store.claims.get('default-a');
    expect(claim?.nodePoolHashVersion).toBe(NODEPOOL_HASH_VERSION);
    expect(claim?.nodeClassHashVersion).toBe(NODECLASS_HASH_VERSION);
    expect(claim?.nodePoolHash).not.toBe('p');
    expect(outcome.disruption.started).toEqual([]);
    await runSweep(h.sweep);
    expect(h.store.claims.get('default-a')?.state).toBe('Initialized');
    expect(h.store.claims.get('default-a')?.version).toBe(claim?.version);
  });
});

describe('disruption round: delivered twice, run twice at once', () => {
  it('two sweeps at once start and finish each drain once', async () => {
    const h = harness({ consolidateAfterMs: 0 });
    for (const n of ['a', 'b', 'c']) {
      const claim = runningClaim(h, `default-${n}`, `ip-${n}`);
      h.store.put({ ...claim, timers: { emptiness: h.clock.now() - 1_000 } });
    }
    const [one, two] = await Promise.all([runSweep(h.sweep), runSweep(h.sweep)]);
    const started = [...one.disruption.started, ...two.disruption.started].map((s) => s.nodeClaim).sort();
    expect(started).toEqual(['default-a', 'default-b', 'default-c']);
    expect([...h.cloud.terminated].sort()).toEqual(['i-default-a', 'i-default-b', 'i-default-c']);
    expect(h.cluster.deleted.sort()).toEqual(['ip-a', 'ip-b', 'ip-c']);
    expect([...h.store.claims.values()].map((c) => c.state)).toEqual(['Gone', 'Gone', 'Gone']);
  });

  it('a timer message delivered twice acts once', async () => {
    const h = harness({ consolidateAfterMs: 0 });
    const claim = runningClaim(h, 'default-a', 'ip-a');
    h.store.put({ ...claim, timers: { emptiness: h.clock.now() - 1_000 } });
    const message = { nodeClaimId: 'default-a', dueAt: h.clock.now() - 1_000 };
    await handleTimerMessage(h.sweep, message);
    await handleTimerMessage(h.sweep, message);
    expect(h.cloud.terminated).toEqual(['i-default-a']);
    expect(h.log.messages().filter((m) => m.startsWith('disrupting node(s)'))).toHaveLength(1);
  });
});

describe('disruption round: budgets and timers that never jam', () => {
  it('500 emptiness timers blocked by a budget and one due launch timeout are all handled in one sweep', async () => {
    const h = harness({ consolidateAfterMs: 0, budgets: [{ nodes: { count: 0 } }] });
    for (let i = 0; i < 500; i++) {
      const claim = runningClaim(h, `default-${i}`, `ip-${i}`);
      h.store.put({ ...claim, timers: { emptiness: h.clock.now() - 1_000 - i } });
    }
    h.store.put(pendingClaim('default-launch', h.clock.now() - 5 * MIN));
    const outcome = await runSweep(h.sweep);
    expect(h.store.claims.get('default-launch')?.failure?.reason).toBe('LaunchTimeout');
    expect(outcome.disruption.blocked).toBe(500);
    expect(outcome.disruption.started).toEqual([]);
    const now = h.clock.now();
    const stillDue = [...h.store.claims.values()].filter((c) =>
      Object.values(c.timers).some((t) => t !== undefined && t <= now),
    );
    expect(stillDue).toEqual([]);
    expect(h.store.claims.get('default-7')?.blocked?.reason).toBe('no allowed disruptions due to budget');
    expect(h.cloud.terminated).toEqual([]);
  });

  it('a nodes: 1 budget lets one empty node go at a time', async () => {
    const h = harness({ consolidateAfterMs: 0, budgets: [{ nodes: { count: 1 } }] });
    for (const n of ['a', 'b', 'c']) runningClaim(h, `default-${n}`, `ip-${n}`);
    await runSweep(h.sweep);
    h.clock.advance(1_000);
    // The fake cloud terminates at once, so each drain ends within its sweep: one node per sweep.
    const first = await runSweep(h.sweep);
    expect(first.disruption.started).toHaveLength(1);
    expect(first.disruption.blocked).toBe(2);
  });
});

describe('disruption round: budgets count every node already on its way out', () => {
  const dueEmpty = (h: ReturnType<typeof harness>, ids: string[]) => {
    for (const id of ids) {
      const claim = h.store.claims.get(id);
      if (claim) h.store.put({ ...claim, timers: { emptiness: h.clock.now() - 1_000 } });
    }
  };

  it('a node whose claim is Terminating but whose Node is still there uses up a nodes: 1 budget', async () => {
    const h = harness({ consolidateAfterMs: 0, budgets: [{ nodes: { count: 1 } }] });
    const a = runningClaim(h, 'default-a', 'ip-a');
    h.store.put({
      ...a,
      state: 'Terminating',
      timestamps: { ...a.timestamps, Draining: h.clock.now() - 5_000, Terminating: h.clock.now() - 1_000 },
      timers: { terminationCheck: h.clock.now() + 60_000 },
    });
    runningClaim(h, 'default-b', 'ip-b');
    runningClaim(h, 'default-c', 'ip-c');
    dueEmpty(h, ['default-b', 'default-c']);
    const outcome = await runSweep(h.sweep);
    expect(outcome.disruption.started).toEqual([]);
    expect(h.store.claims.get('default-b')?.blocked?.reason).toBe('no allowed disruptions due to budget');
  });

  it('a node being deleted or tainted disrupted, whatever its claim says, uses up the default 10% of 4 nodes', async () => {
    const h = harness({ consolidateAfterMs: 0, budgets: [{ nodes: { percent: 10 } }] });
    for (const n of ['a', 'b', 'c', 'd'])
      runningClaim(h, `default-${n}`, `ip-${n}`, n === 'a' ? [] : ['web']);
    const a = h.cluster.nodes.get('ip-a');
    if (a) a.metadata.deletionTimestamp = new Date(h.clock.now()).toISOString();
    h.cluster.pods.splice(
      h.cluster.pods.findIndex((p) => p.spec?.nodeName === 'ip-b'),
      1,
    );
    dueEmpty(h, ['default-b']);
    const first = await runSweep(h.sweep);
    // The deleted node itself is drained (kubectl delete node); the empty one waits for the budget.
    expect(first.disruption.started).toEqual([
      { nodeClaim: 'default-a', nodePool: 'default', cause: 'deleted' },
    ]);
    expect(h.store.claims.get('default-b')?.blocked?.reason).toBe('no allowed disruptions due to budget');
    runningClaim(h, 'default-a', 'ip-a');
    const a2 = h.cluster.nodes.get('ip-a');
    if (a2) a2.spec = { ...a2.spec, taints: [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }] };
    dueEmpty(h, ['default-b']);
    const second = await runSweep(h.sweep);
    expect(second.disruption.started).toEqual([]);
  });
});

describe('disruption round: one decision round at a time', () => {
  it('a round whose lease another round took over while it read the cluster starts no drain', async () => {
    const h = harness({ consolidateAfterMs: 0, budgets: [{ nodes: { count: 1 } }] });
    runningClaim(h, 'default-a', 'ip-a');
    const a = h.store.claims.get('default-a');
    if (a) h.store.put({ ...a, timers: { emptiness: h.clock.now() - 1_000 } });
    const list = h.cluster.listPodDisruptionBudgets.bind(h.cluster);
    h.cluster.listPodDisruptionBudgets = async () => {
      // The round's lease ran out while it read, and another round took it (and decides itself).
      h.store.leases.set('disruption', {
        name: 'disruption',
        holder: 'other',
        expiresAt: Date.now() + 60_000,
        token: 99,
      });
      return list();
    };
    const outcome = await runSweep(h.sweep);
    expect(outcome.disruption.started).toEqual([]);
    expect(h.store.claims.get('default-a')?.state).toBe('Initialized');
    expect(h.log.messages()).toContain('lost the disruption lease, starting no drain');
  });
});
