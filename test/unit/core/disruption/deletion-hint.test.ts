/**
 * kubectl delete of a Node or a NodeClaim acted on at once: the webhook's NodeDeleted hint arms
 * the claim's deletion timer and wakes the disruption function, whose round (reading the API
 * server, never trusting the hint) starts the termination flow without waiting for the sweep.
 */
import { describe, expect, it } from 'vitest';
import { handleLifecycleEvent } from '../../../../functions/core/lifecycle/handle-lifecycle-event.js';
import { handleTimerMessage } from '../../../../functions/core/sweep/run-sweep.js';
import { harness, runningClaim } from '../lifecycle/harness.js';

const nodeDeleted = (name: string, nodeClaim: string) =>
  ({
    detailType: 'NodeDeleted',
    detail: { kind: 'Node', name, nodeClaim, providerId: `aws:///us-west-2a/i-${nodeClaim}` },
  }) as const;

function markDeleting(h: ReturnType<typeof harness>, nodeName: string): void {
  const node = h.cluster.nodes.get(nodeName);
  if (!node) throw new Error(`no node ${nodeName}`);
  node.metadata.deletionTimestamp = new Date(h.clock.now()).toISOString();
  node.metadata.finalizers = ['karpenter.sh/termination'];
}

describe('a NodeDeleted hint starts the termination flow at once', () => {
  it('a deleted Node: the timer message that follows drains and terminates it, no sweep needed', async () => {
    const h = harness({ consolidateAfterMs: null, budgets: [{ nodes: { count: 0 } }] });
    runningClaim(h, 'default-a', 'ip-a');
    markDeleting(h, 'ip-a');
    expect(await handleLifecycleEvent(h.lifecycle, nodeDeleted('ip-a', 'default-a'))).toBe(
      'deletion-scheduled',
    );
    const now = h.clock.now();
    expect(h.timers.scheduled).toEqual([{ nodeClaimId: 'default-a', dueAt: now }]);
    expect(h.store.claims.get('default-a')?.timers.deletion).toBe(now);
    const handled = await handleTimerMessage(h.sweep, h.timers.scheduled[0]);
    expect(handled.disruption?.started).toEqual([
      { nodeClaim: 'default-a', nodePool: 'default', cause: 'deleted' },
    ]);
    expect(h.cloud.terminated).toEqual(['i-default-a']);
    expect(h.store.claims.get('default-a')?.failure).toEqual({
      reason: 'Deleted',
      message: 'Node ip-a was deleted',
    });
  });

  it('a deleted NodeClaim resource, named by the hint, the same way', async () => {
    const h = harness({ consolidateAfterMs: null });
    runningClaim(h, 'default-a', 'ip-a');
    h.cluster.nodeClaims.push({ name: 'default-a', resource: {}, deleting: true });
    const outcome = await handleLifecycleEvent(h.lifecycle, {
      detailType: 'NodeDeleted',
      detail: { kind: 'NodeClaim', name: 'default-a' },
    });
    expect(outcome).toBe('deletion-scheduled');
    await handleTimerMessage(h.sweep, h.timers.scheduled[0]);
    expect(h.cloud.terminated).toEqual(['i-default-a']);
  });

  it('is only a hint: when the API server shows nothing deleted, nothing happens and the timer is cleared', async () => {
    const h = harness({ consolidateAfterMs: null });
    runningClaim(h, 'default-a', 'ip-a');
    await handleLifecycleEvent(h.lifecycle, nodeDeleted('ip-a', 'default-a'));
    const handled = await handleTimerMessage(h.sweep, h.timers.scheduled[0]);
    expect(handled.disruption?.started).toEqual([]);
    expect(h.cloud.terminated).toEqual([]);
    const claim = h.store.claims.get('default-a');
    expect(claim?.state).toBe('Initialized');
    expect(claim?.timers.deletion).toBeUndefined();
  });

  it('ignores a Node of another instance under the label, a claim already ending, and unknown claims', async () => {
    const h = harness({ consolidateAfterMs: null });
    runningClaim(h, 'default-a', 'ip-a');
    const other = { ...nodeDeleted('ip-a', 'default-a') };
    const reused = { ...other, detail: { ...other.detail, providerId: 'aws:///us-west-2a/i-0other' } };
    expect(await handleLifecycleEvent(h.lifecycle, reused)).toBe('ignored');
    expect(await handleLifecycleEvent(h.lifecycle, nodeDeleted('ip-z', 'default-z'))).toBe('ignored');
    const claim = h.store.claims.get('default-a');
    if (claim) h.store.put({ ...claim, state: 'Terminating' });
    expect(await handleLifecycleEvent(h.lifecycle, nodeDeleted('ip-a', 'default-a'))).toBe('ignored');
    expect(h.timers.scheduled).toEqual([]);
  });
});
