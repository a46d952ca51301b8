/**
 * A drain reads its claim once per step at most: the due claim the round hands it is not read
 * again, and the step's later writes (replacements remembered, the evicting phase, the retire)
 * start from the claim as the step stored it. Every write stays conditional on the version, so a
 * claim another writer changed meanwhile is read again there and the drain still acts once.
 */
import { describe, expect, it, vi } from 'vitest';
import { beginDrain, type DrainStart } from '../../../../functions/core/disruption/begin-drain.js';
import { drainStep } from '../../../../functions/core/disruption/drain-step.js';
import { runDisruption } from '../../../../functions/core/disruption/run-disruption.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import {
  boundTo,
  type DrainHarness,
  drainHarness,
  initializeLaunched,
  runningNode,
} from './drain-harness.js';

const OLD = 'default-old';
const OLD_NODE = 'ip-old';
const DRIFT: DrainStart = { cause: 'drifted', message: 'NodePool template changed', forceful: false };
const EXPIRY: DrainStart = { cause: 'expired', message: 'expireAfter 720h reached', forceful: true };

const claim = (h: DrainHarness, id = OLD): NodeClaim => h.store.claims.get(id) as NodeClaim;

/** Counts the reads of claim `id` from now on. */
function readsOf(h: DrainHarness, id: string): () => number {
  const spy = vi.spyOn(h.store, 'getNodeClaim');
  return () => spy.mock.calls.filter(([read]) => read === id).length;
}

function toNextStep(h: DrainHarness): void {
  const due = claim(h).timers.drainStep;
  if (due === undefined) throw new Error('no drain step armed');
  h.clock.advance(Math.max(0, due - h.clock.now()));
}

/** The step as a round takes it: with the due claim as the round read it. */
async function stepKnown(h: DrainHarness, known = claim(h)): Promise<string> {
  return (await drainStep(h.deps, OLD, known)).state;
}

describe('drain steps read their claim once', () => {
  it('a whole drain (replacement launched, evictions, termination) reads nothing the round did not hand it', async () => {
    const h = await drainHarness();
    runningNode(h, { claimId: OLD, nodeName: OLD_NODE, instanceType: 'c5.2xlarge' });
    h.cluster.pods = h.workloads.map((p) => boundTo(p, OLD_NODE));
    const reads = readsOf(h, OLD);

    expect((await beginDrain(h.deps, OLD, DRIFT, claim(h)))?.state).toBe('Draining');
    expect(await stepKnown(h)).toBe('replacing');
    expect(claim(h).disruption?.replacements).toHaveLength(1);
    initializeLaunched(h);
    toNextStep(h);
    expect(await stepKnown(h)).toBe('evicting');
    expect(claim(h).disruption?.phase).toBe('evicting');
    toNextStep(h);
    expect(await stepKnown(h)).toBe('terminated');
    expect(claim(h)).toMatchObject({ state: 'Gone', failure: { reason: 'Drifted' } });
    expect(h.cloud.terminated).toEqual([`i-${OLD}`]);
    expect(reads()).toBe(0);
  });

  it('a round hands its due drains their claims: one step, no read', async () => {
    const h = await drainHarness();
    runningNode(h, { claimId: OLD, nodeName: OLD_NODE });
    await beginDrain(h.deps, OLD, EXPIRY);
    const reads = readsOf(h, OLD);
    const outcome = await runDisruption(h.deps, [claim(h)], { full: false });
    expect(outcome.steps).toBe(1);
    expect(outcome.terminated).toHaveLength(1);
    expect(claim(h).state).toBe('Gone');
    expect(reads()).toBe(0);
  });

  it('a claim changed since the round read it is read again and its step taken once; a duplicate does nothing', async () => {
    const h = await drainHarness();
    runningNode(h, { claimId: OLD, nodeName: OLD_NODE });
    await beginDrain(h.deps, OLD, EXPIRY);
    const stale = claim(h);
    // Another writer (a mirror of the claim's labels, say) moves its version on.
    h.store.claims.set(OLD, { ...stale, labels: { changed: 'yes' }, version: stale.version + 1 });
    const reads = readsOf(h, OLD);

    expect(await stepKnown(h, stale)).toBe('terminated');
    expect(reads()).toBe(1);
    expect(claim(h)).toMatchObject({ state: 'Gone', labels: { changed: 'yes' } });
    expect(h.cloud.terminated).toEqual([`i-${OLD}`]);

    // The same message delivered again, with the claim as it was read then: the claim is Gone.
    expect(await stepKnown(h, stale)).toBe('not-draining');
    expect(h.cloud.terminated).toEqual([`i-${OLD}`]);
  });

  it("a round's claim that stopped draining since (cancelled) is left alone and its leftover step timer cleared", async () => {
    const h = await drainHarness();
    runningNode(h, { claimId: OLD, nodeName: OLD_NODE });
    await beginDrain(h.deps, OLD, DRIFT);
    const stale = claim(h);
    // The drain was cancelled meanwhile (the node stays), its step timer left behind.
    h.store.claims.set(OLD, { ...stale, state: 'Initialized', version: stale.version + 1 });
    expect(await stepKnown(h, stale)).toBe('not-draining');
    expect(claim(h).state).toBe('Initialized');
    expect(claim(h).timers.drainStep).toBeUndefined();
    expect(h.cloud.terminated).toEqual([]);
    expect(h.cluster.evictions).toEqual([]);
  });
});
