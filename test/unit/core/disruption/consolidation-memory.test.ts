import { describe, expect, it } from 'vitest';
import { consolidate } from '../../../../functions/core/disruption/consolidation/consolidation-round.js';
import type { ConsolidationMemory } from '../../../../functions/core/disruption/consolidation/search-fingerprint.js';
import { readDisruptionView } from '../../../../functions/core/disruption/disruption-view.js';
import { pod } from '../../../builders/workloads.js';
import { boundTo, type DrainHarness, drainHarness, runningNode } from './drain-harness.js';

const SKIPPED = 'consolidation: nothing changed since the last search found no move, not searched again';
const LARGE = { cpu: '1900m', memory: '3Gi', pods: '29' };

/** A node cheaper than any type its NodePool launches, so nothing can replace it. */
function cheapNode(h: DrainHarness, name: string): void {
  const claim = runningNode(h, {
    claimId: `default-${name}`,
    nodeName: name,
    instanceType: 'c5.large',
    allocatable: LARGE,
  });
  const instance = claim.instance;
  if (!instance) throw new Error('no instance');
  h.store.claims.set(claim.id, { ...claim, instance: { ...instance, price: 0.001 } });
}

function bind(h: DrainHarness, name: string, cpu: string, node: string): void {
  h.cluster.pods.push(
    boundTo(pod({ name, requests: { cpu, memory: '256Mi' }, ownerKind: 'ReplicaSet' }), node),
  );
}

async function round(h: DrainHarness, memory?: ConsolidationMemory) {
  const deps = memory ? { ...h.deps, consolidationMemory: memory } : h.deps;
  const before = h.log.lines.length;
  const outcome = await consolidate(deps, await readDisruptionView(deps), { propose: true, settleMs: 0 });
  const skipped = h.log.lines.slice(before).some((l) => l.message === SKIPPED);
  return { outcome, skipped };
}

describe('consolidation remembers a search that found nothing', () => {
  it('does not search an unchanged cluster again, and searches again once a pod, a node or a price changes', async () => {
    const h = await drainHarness('examples/consolidation');
    cheapNode(h, 'ip-a');
    bind(h, 'web-1', '1', 'ip-a');
    const memory: ConsolidationMemory = {};

    const first = await round(h, memory);
    expect(first).toEqual({ outcome: expect.objectContaining({ started: [] }), skipped: false });
    expect(first.outcome.proposed).toBeUndefined();
    expect(memory.emptySearch).toMatch(/^[0-9a-f]{64}$/);
    h.clock.advance(60_000);
    const again = await round(h, memory);
    expect(again.skipped).toBe(true);
    expect(again.outcome.proposed).toBeUndefined();

    // A second node, the two nodes' pods fit on one: the cluster changed, the search runs and finds the delete.
    cheapNode(h, 'ip-b');
    bind(h, 'job-1', '500m', 'ip-b');
    h.clock.advance(60_000);
    const changed = await round(h, memory);
    expect(changed.skipped).toBe(false);
    expect(changed.outcome.proposed?.method).toBe('delete');
    expect(changed.outcome.proposed?.candidates).toHaveLength(1);
    expect(memory.emptySearch).toBeUndefined();
  });

  it('a pod that grew, or a node that became dearer, changes the fingerprint', async () => {
    const h = await drainHarness('examples/consolidation');
    cheapNode(h, 'ip-a');
    cheapNode(h, 'ip-b');
    bind(h, 'web-1', '1500m', 'ip-a');
    bind(h, 'web-2', '1500m', 'ip-b');
    const memory: ConsolidationMemory = {};
    expect((await round(h, memory)).outcome.proposed).toBeUndefined();
    const remembered = memory.emptySearch;
    expect(remembered).toBeDefined();

    // web-2 shrinks: it now fits next to web-1, so ip-b can go.
    const web2 = h.cluster.pods.find((p) => p.metadata.name === 'web-2');
    if (!web2) throw new Error('web-2 missing');
    web2.spec.containers[0].resources = { requests: { cpu: '300m', memory: '256Mi' } };
    const shrunk = await round(h, memory);
    expect(shrunk.skipped).toBe(false);
    expect(shrunk.outcome.proposed?.method).toBe('delete');

    // Back as it was, but ip-a now costs more than a c5.large: a replace is possible again.
    web2.spec.containers[0].resources = { requests: { cpu: '1500m', memory: '256Mi' } };
    const claims = [...h.store.claims.values()];
    const a = claims.find((c) => c.nodeName === 'ip-a');
    if (!a?.instance) throw new Error('ip-a missing');
    h.store.claims.set(a.id, {
      ...a,
      consolidation: undefined,
      timers: {},
      instance: { ...a.instance, price: 0.5 },
    });
    for (const c of claims.filter((x) => x.nodeName !== 'ip-a'))
      h.store.claims.set(c.id, { ...c, consolidation: undefined, timers: {} });
    const dearer = await round(h, memory);
    expect(dearer.skipped).toBe(false);
    expect(dearer.outcome.proposed?.method).toBe('replace');
  });

  it('without a memory every round searches', async () => {
    const h = await drainHarness('examples/consolidation');
    cheapNode(h, 'ip-a');
    bind(h, 'web-1', '1', 'ip-a');
    expect((await round(h)).skipped).toBe(false);
    expect((await round(h)).skipped).toBe(false);
  });
});
