import { describe, expect, it } from 'vitest';
import { beginDrain, type DrainStart } from '../../../../functions/core/disruption/begin-drain.js';
import { lifecycleDeps } from '../../../../functions/core/lifecycle/lifecycle-deps.js';
import { reconcileNode } from '../../../../functions/core/lifecycle/reconcile-node.js';
import { wakeDrain } from '../../../../functions/core/lifecycle/wake-drains.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import {
  boundTo,
  type DrainHarness,
  drainHarness,
  evicted,
  initializeLaunched,
  runningNode,
  step,
} from './drain-harness.js';

const OLD = 'default-old';
const OLD_NODE = 'ip-old';
const STEP_MS = 5_000;
const RECHECK_MS = 30_000;
const DRIFT: DrainStart = { cause: 'drifted', message: 'NodePool template changed', forceful: false };
const INFLATE = ['inflate-0', 'inflate-1', 'inflate-2', 'inflate-3'];

/** The old node running the seed's 4 inflate pods, drained for drift; its first step taken. */
async function draining(): Promise<DrainHarness> {
  const h = await drainHarness();
  runningNode(h, { claimId: OLD, nodeName: OLD_NODE, instanceType: 'c5.2xlarge' });
  h.cluster.pods = h.workloads.map((p) => boundTo(p, OLD_NODE));
  await beginDrain(h.deps, OLD, DRIFT);
  expect(await step(h, OLD)).toBe('replacing');
  return h;
}

const claim = (h: DrainHarness, id = OLD): NodeClaim => h.store.claims.get(id) as NodeClaim;
const replacement = (h: DrainHarness): NodeClaim => {
  const [only] = [...h.store.claims.values()].filter((c) => c.id !== OLD);
  return only;
};

function toNextStep(h: DrainHarness): void {
  const due = claim(h).timers.drainStep;
  if (due === undefined) throw new Error('no drain step armed');
  h.clock.advance(Math.max(0, due - h.clock.now()));
}

/** The lifecycle's deps over the drain harness's fakes. */
function lifecycle(h: DrainHarness) {
  return lifecycleDeps(
    { clock: h.clock, log: h.log, cluster: h.cluster, store: h.store, timers: h.timers },
    h.deps.config,
  );
}

/**
 * The replacement's node joins and is Ready: its claim Registered (as the lifecycle leaves it at
 * registration), so the lifecycle's next reconcile initializes it. Returns the node's name.
 */
function replacementNodeReady(h: DrainHarness): string {
  const launched = replacement(h);
  const [nodeName] = initializeLaunched(h);
  const up = claim(h, launched.id);
  const { Initialized: _, ...timestamps } = up.timestamps;
  h.store.claims.set(launched.id, { ...up, state: 'Registered', timestamps });
  return nodeName;
}

describe('drain: woken when its replacement is initialized', () => {
  it('while its launched replacement boots, the drain re-checks every 30 s instead of stepping every 5 s', async () => {
    const h = await draining();
    expect(replacement(h)).toMatchObject({ state: 'Launched', wakesDrains: [OLD] });
    expect(claim(h).timers.drainStep).toBe(h.clock.now() + RECHECK_MS);
    // A 90-second boot: 3 more steps (18 at one every 5 s).
    const bootEnds = h.clock.now() + 90_000;
    let steps = 0;
    for (toNextStep(h); h.clock.now() < bootEnds; toNextStep(h)) {
      expect(await step(h, OLD)).toBe('replacing');
      steps++;
    }
    expect(steps).toBe(2);
    expect(h.cluster.evictions).toEqual([]);
    expect(h.cloud.launches).toBe(1);
  });

  it('evicts right after the lifecycle initializes its replacement, not at the next re-check', async () => {
    const h = await draining();
    h.clock.advance(7_000);
    const nodeName = replacementNodeReady(h);
    const stored = await reconcileNode(lifecycle(h), replacement(h), nodeName);
    expect(stored?.state).toBe('Initialized');
    // The drain's step is due now and its wake-up sent.
    expect(claim(h).timers.drainStep).toBe(h.clock.now());
    expect(h.timers.scheduled.at(-1)).toEqual({ nodeClaimId: OLD, dueAt: h.clock.now() });
    expect(await step(h, OLD)).toBe('evicting');
    expect(evicted(h).sort()).toEqual(INFLATE);
  });

  it('a lost wake-up: the safety re-check finds the replacement up and evicts', async () => {
    const h = await draining();
    const due = claim(h).timers.drainStep ?? 0;
    // Initialized without the lifecycle's wake-up (a crash between its two writes).
    initializeLaunched(h);
    h.clock.advance(due - h.clock.now() - 1);
    expect(await step(h, OLD)).toBe('busy');
    expect(h.cluster.evictions).toEqual([]);
    toNextStep(h);
    expect(await step(h, OLD)).toBe('evicting');
    expect(evicted(h).sort()).toEqual(INFLATE);
  });

  it('a duplicate wake-up acts once: the timer is written and the wake-up sent once, one step evicts', async () => {
    const h = await draining();
    h.clock.advance(3_000);
    const nodeName = replacementNodeReady(h);
    const deps = lifecycle(h);
    const sent = h.timers.scheduled.length;
    // The same NodeReady delivered twice, at once: one of them initializes the claim and wakes.
    await Promise.all([
      reconcileNode(deps, replacement(h), nodeName),
      reconcileNode(deps, replacement(h), nodeName),
    ]);
    expect(h.timers.scheduled.slice(sent)).toEqual([{ nodeClaimId: OLD, dueAt: h.clock.now() }]);
    const version = claim(h).version;
    // A wake-up sent again finds the step due already: nothing written, nothing sent.
    expect(await wakeDrain(deps, OLD)).toBe(false);
    expect(claim(h).version).toBe(version);
    expect(h.timers.scheduled.slice(sent)).toHaveLength(1);
    // Two deliveries of the woken step: one takes it.
    const states = await Promise.all([step(h, OLD), step(h, OLD)]);
    expect(states.sort()).toEqual(['busy', 'evicting']);
    expect(evicted(h).sort()).toEqual(INFLATE);
  });

  it("a wake-up landing during a step is not put off by that step's re-arm", async () => {
    const h = await draining();
    toNextStep(h);
    const waiting = replacement(h).id;
    const get = h.store.getNodeClaim.bind(h.store);
    let woke = false;
    // The step reads its replacement (still booting); meanwhile the lifecycle wakes the drain.
    h.store.getNodeClaim = async (id) => {
      const read = await get(id);
      if (id === waiting && !woke) {
        woke = true;
        expect(await wakeDrain(lifecycle(h), OLD)).toBe(true);
      }
      return read;
    };
    expect(await step(h, OLD)).toBe('replacing');
    expect(woke).toBe(true);
    expect(claim(h).timers.drainStep).toBe(h.clock.now());
    h.store.getNodeClaim = get;
    initializeLaunched(h);
    expect(await step(h, OLD)).toBe('evicting');
  });

  it('a Pending replacement is not written (its launch does not retry a version conflict): the drain keeps its 5 s step', async () => {
    const h = await draining();
    const launched = replacement(h);
    const { wakesDrains: _, ...rest } = launched;
    // As if its launch were still in flight.
    h.store.claims.set(launched.id, { ...rest, state: 'Pending', instance: undefined });
    const version = claim(h, launched.id).version;
    toNextStep(h);
    expect(await step(h, OLD)).toBe('replacing');
    expect(claim(h, launched.id).version).toBe(version);
    expect(claim(h, launched.id).wakesDrains).toBeUndefined();
    expect(claim(h).timers.drainStep).toBe(h.clock.now() + STEP_MS);
  });

  it('wakes only a drain that waits for its replacements: an evicting or finished drain is left alone', async () => {
    const h = await draining();
    initializeLaunched(h);
    toNextStep(h);
    expect(await step(h, OLD)).toBe('evicting');
    const version = claim(h).version;
    expect(await wakeDrain(lifecycle(h), OLD)).toBe(false);
    expect(await wakeDrain(lifecycle(h), 'no-such-claim')).toBe(false);
    expect(claim(h).version).toBe(version);
  });
});
