import { describe, expect, it } from 'vitest';
import { decideRound } from '../../../../functions/core/disruption/decide.js';
import { disruptionView } from '../../../../functions/core/disruption/disruption-view.js';
import type { ClusterConfig } from '../../../../functions/core/lifecycle/cluster-config.js';
import { registrationPatch } from '../../../../functions/core/lifecycle/reconcile-node.js';
import { runSweep } from '../../../../functions/core/sweep/run-sweep.js';
import { nodePool } from '../../../builders/config.js';
import { kubeletNode, podOn } from '../lifecycle/fakes.js';
import { harness, launchedClaim, runningClaim } from '../lifecycle/harness.js';

const MIN = 60_000;

const deleting = (h: ReturnType<typeof harness>, nodeName: string): void => {
  const node = h.cluster.nodes.get(nodeName);
  if (node) {
    node.metadata.deletionTimestamp = new Date(h.clock.now()).toISOString();
    node.metadata.finalizers = ['karpenter.sh/termination'];
  }
};

describe('kubectl delete node / nodeclaim: the termination flow', () => {
  it('a deleted Node is drained and its instance terminated, whatever the budget or do-not-disrupt', async () => {
    const h = harness({ consolidateAfterMs: null, budgets: [{ nodes: { count: 0 } }] });
    runningClaim(h, 'default-a', 'ip-a');
    runningClaim(h, 'default-b', 'ip-b');
    const node = h.cluster.nodes.get('ip-a');
    if (node) node.metadata.annotations = { 'karpenter.sh/do-not-disrupt': 'true' };
    deleting(h, 'ip-a');
    const outcome = await runSweep(h.sweep);
    expect(outcome.disruption.started).toEqual([
      { nodeClaim: 'default-a', nodePool: 'default', cause: 'deleted' },
    ]);
    expect(h.cloud.terminated).toEqual(['i-default-a']);
    expect(h.cluster.deleted).toEqual(['ip-a']);
    const claim = h.store.claims.get('default-a');
    expect(claim?.state).toBe('Gone');
    expect(claim?.failure).toEqual({ reason: 'Deleted', message: 'Node ip-a was deleted' });
    expect(h.store.claims.get('default-b')?.state).toBe('Initialized');
  });

  it('a deleted NodeClaim resource drains its node the same way', async () => {
    const h = harness({ consolidateAfterMs: null });
    runningClaim(h, 'default-a', 'ip-a');
    h.cluster.nodeClaims.push({ name: 'default-a', resource: {}, deleting: true });
    await runSweep(h.sweep);
    expect(h.cloud.terminated).toEqual(['i-default-a']);
    expect(h.store.claims.get('default-a')?.failure?.message).toBe('NodeClaim default-a was deleted');
  });

  it('a NodeClaim resource that is not being deleted changes nothing', async () => {
    const h = harness({ consolidateAfterMs: null });
    runningClaim(h, 'default-a', 'ip-a');
    h.cluster.nodeClaims.push({ name: 'default-a', resource: {} });
    await runSweep(h.sweep);
    expect(h.cloud.terminated).toEqual([]);
    expect(h.store.claims.get('default-a')?.state).toBe('Initialized');
  });

  it('a deleted claim still launching (no node yet) has its instance terminated at once', async () => {
    const h = harness({ consolidateAfterMs: null });
    launchedClaim(h, 'default-a', 'i-a');
    h.cluster.nodeClaims.push({ name: 'default-a', resource: {}, deleting: true });
    await runSweep(h.sweep);
    expect(h.cloud.terminated).toEqual(['i-a']);
    expect(h.store.claims.get('default-a')?.state).toBe('Gone');
    expect(h.store.claims.get('default-a')?.failure?.reason).toBe('Deleted');
  });

  it('a Node deleted without the finalizer (gone already) ends its claim and instance', async () => {
    const h = harness({ consolidateAfterMs: null });
    runningClaim(h, 'default-a', 'ip-a');
    const claim = h.store.claims.get('default-a');
    if (claim)
      h.store.put({ ...claim, timestamps: { ...claim.timestamps, Registered: h.clock.now() - 5 * MIN } });
    h.cluster.nodes.delete('ip-a');
    await runSweep(h.sweep);
    expect(h.cloud.terminated).toEqual(['i-default-a']);
    expect(h.store.claims.get('default-a')?.failure).toEqual({
      reason: 'Deleted',
      message: 'Node ip-a was deleted',
    });
  });

  it('a claim registered moments ago whose node is not listed yet is left alone', async () => {
    const h = harness({ consolidateAfterMs: null });
    runningClaim(h, 'default-a', 'ip-a');
    const claim = h.store.claims.get('default-a');
    if (claim) h.store.put({ ...claim, timestamps: { ...claim.timestamps, Registered: h.clock.now() } });
    h.cluster.nodes.delete('ip-a');
    await runSweep(h.sweep);
    expect(h.cloud.terminated).toEqual([]);
  });
});

describe('the termination finalizer', () => {
  it('registration adds karpenter.sh/termination to the Node, keeping other finalizers', () => {
    const h = harness();
    const claim = launchedClaim(h, 'default-a', 'i-a');
    const node = kubeletNode('ip-a', 'i-a');
    node.metadata.finalizers = ['example.com/keep'];
    expect(registrationPatch(claim, node)?.finalizers).toEqual([
      'example.com/keep',
      'karpenter.sh/termination',
    ]);
    node.metadata.finalizers = ['karpenter.sh/termination'];
    expect(registrationPatch(claim, node)?.finalizers).toBeUndefined();
  });

  it('is not added to a Node already being deleted', () => {
    const h = harness();
    const claim = launchedClaim(h, 'default-a', 'i-a');
    const node = kubeletNode('ip-a', 'i-a');
    node.metadata.deletionTimestamp = new Date(h.clock.now()).toISOString();
    expect(registrationPatch(claim, node)?.finalizers).toBeUndefined();
  });
});

describe('drift with a terminationGracePeriod (Karpenter: pods cannot block it)', () => {
  const decide = (terminationGracePeriodMs: number | undefined, nodeAnnotated = false) => {
    const h = harness();
    const claim = runningClaim(h, 'default-a', 'ip-a');
    const node = h.cluster.nodes.get('ip-a');
    if (node && nodeAnnotated) node.metadata.annotations = { 'karpenter.sh/do-not-disrupt': 'true' };
    const pinned = podOn('ip-a', 'db-0');
    pinned.metadata.annotations = { 'karpenter.sh/do-not-disrupt': 'true' };
    const pool = nodePool({ terminationGracePeriodMs });
    const view = disruptionView(h.clock.now(), [claim], [...h.cluster.nodes.values()], [pinned], [], {
      nodePools: [pool],
      nodeClasses: [],
      nodePoolNames: new Set([pool.name]),
    } as unknown as ClusterConfig);
    return decideRound({
      view,
      drift: new Map([['default-a', { message: 'NodePool template changed' }]]),
      dueEmptiness: new Set(),
      settleMs: 30_000,
    });
  };

  it('a do-not-disrupt pod blocks drift without one, not with one (its drain waits up to the grace)', () => {
    const without = decide(undefined);
    expect(without.decisions).toEqual([]);
    expect(without.blocked.map((b) => b.message)).toEqual(['pod default/db-0 has do-not-disrupt annotation']);
    const withGrace = decide(60 * MIN);
    expect(withGrace.decisions.map((d) => [d.claim.id, d.cause, d.forceful])).toEqual([
      ['default-a', 'drifted', false],
    ]);
  });

  it('a do-not-disrupt node still blocks it', () => {
    expect(decide(60 * MIN, true).blocked.map((b) => b.message)).toEqual([
      'node ip-a has do-not-disrupt annotation',
    ]);
  });
});
