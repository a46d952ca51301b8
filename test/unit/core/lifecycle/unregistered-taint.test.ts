/**
 * Karpenter's registration taint (`karpenter.sh/unregistered:NoExecute`): joiner removes it when it
 * registers the node, in the same patch that labels the node registered, once (idempotent); a
 * node that registered without it is registered with a warning.
 */
import { describe, expect, it } from 'vitest';
import { handleLifecycleEvent } from '../../../../functions/core/lifecycle/handle-lifecycle-event.js';
import { kubeletNode, markReady } from './fakes.js';
import { harness, launchedClaim, MULTUS_TAINT } from './harness.js';

const UNREGISTERED = { key: 'karpenter.sh/unregistered', effect: 'NoExecute' } as const;
const registered = (nodeName: string) => ({ detailType: 'NodeRegistered' as const, detail: { nodeName } });
const ready = (nodeName: string) => ({ detailType: 'NodeReady' as const, detail: { nodeName } });

describe('the karpenter.sh/unregistered taint at registration', () => {
  it('is removed in the patch that labels the node registered; the claim taints are added', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    h.cluster.nodes.set('ip-1', kubeletNode('ip-1', 'i-0a', [UNREGISTERED, MULTUS_TAINT]));

    expect(await handleLifecycleEvent(h.lifecycle, registered('ip-1'))).toBe('reconciled');

    const node = h.cluster.nodes.get('ip-1');
    expect(node?.spec?.taints).toEqual([
      MULTUS_TAINT,
      { key: 'dedicated', value: 'telco', effect: 'NoSchedule' },
    ]);
    const first = h.cluster.patches[0] as { patch: { labels?: Record<string, string>; taints?: unknown[] } };
    expect(first.patch.labels?.['karpenter.sh/registered']).toBe('true');
    expect(first.patch.taints).not.toContainEqual(UNREGISTERED);
    expect(h.store.claims.get('default-abc')?.state).toBe('Registered');
    expect(h.log.lines.filter((l) => l.level === 'warn')).toEqual([]);
  });

  it('duplicate and concurrent deliveries remove it once and patch nothing more', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    h.cluster.nodes.set('ip-1', kubeletNode('ip-1', 'i-0a', [UNREGISTERED]));
    await Promise.all([
      handleLifecycleEvent(h.lifecycle, registered('ip-1')),
      handleLifecycleEvent(h.lifecycle, registered('ip-1')),
    ]);
    const patches = h.cluster.patches.length;
    await handleLifecycleEvent(h.lifecycle, registered('ip-1'));
    expect(h.cluster.patches.length).toBe(patches);
    expect(h.cluster.nodes.get('ip-1')?.spec?.taints).not.toContainEqual(UNREGISTERED);
    expect(h.log.messages().filter((m) => m === 'registered nodeclaim')).toHaveLength(1);
  });

  it('a Ready node initializes only once it is gone (it counts as a startup taint until then)', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    const node = kubeletNode('ip-1', 'i-0a', [UNREGISTERED]);
    markReady(node);
    h.cluster.nodes.set('ip-1', node);
    await handleLifecycleEvent(h.lifecycle, ready('ip-1'));
    expect(h.store.claims.get('default-abc')?.state).toBe('Initialized');
    expect(h.cluster.nodes.get('ip-1')?.spec?.taints).not.toContainEqual(UNREGISTERED);
  });

  it('a node that registered without it (Custom user data) is registered, with a warning naming the taint', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    h.cluster.nodes.set('ip-1', kubeletNode('ip-1', 'i-0a'));
    await handleLifecycleEvent(h.lifecycle, registered('ip-1'));
    expect(h.store.claims.get('default-abc')?.state).toBe('Registered');
    const warnings = h.log.lines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0].message).toContain('karpenter.sh/unregistered:NoExecute');
    expect(warnings[0].fields).toMatchObject({ nodeclaim: 'default-abc', node: 'ip-1' });
    // Registered now: a later event warns no more.
    await handleLifecycleEvent(h.lifecycle, registered('ip-1'));
    expect(h.log.lines.filter((l) => l.level === 'warn')).toHaveLength(1);
  });
});
