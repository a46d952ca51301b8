import { describe, expect, it } from 'vitest';
import { transition } from '../../../../functions/core/nodeclaim/state-machine.js';
import type { CloudInstance } from '../../../../functions/core/ports/cloud-provider.js';
import { collectOrphans } from '../../../../functions/core/sweep/orphans.js';
import { pendingClaim } from '../lifecycle/fakes.js';
import { harness } from '../lifecycle/harness.js';

const MIN = 60_000;
const OWNER = 'joiner-state-table-a';

type H = ReturnType<typeof harness>;

/** A running instance launched `ageMs` ago with the given tags. */
function instance(h: H, id: string, ageMs: number, o: Partial<CloudInstance> = {}): CloudInstance {
  const i: CloudInstance = {
    instanceId: id,
    instanceType: 'c5.large',
    zone: 'us-west-2a',
    capacityType: 'spot',
    state: 'running',
    launchTime: h.clock.now() - ageMs,
    tags: {},
    ...o,
  };
  h.cloud.instances.set(id, i);
  return i;
}

/** A finished claim record made `ageMs` ago (the table remembers it launched then). */
function goneClaim(h: H, id: string, ageMs: number): void {
  const at = h.clock.now() - ageMs;
  h.store.put(transition(pendingClaim(id, at), 'Gone', at));
}

function ownedHarness(): H {
  const h = harness();
  (h.sweep as { owner?: string }).owner = OWNER;
  return h;
}

describe('orphan GC: ownership', () => {
  it('terminates only orphans its own table launched (owner tag), never those of another table or untagged ones', async () => {
    const h = ownedHarness();
    goneClaim(h, 'default-old', 10 * MIN);
    instance(h, 'i-mine', 3 * MIN, { nodeClaimId: 'default-old', owner: OWNER });
    // A second stack for the same cluster, or the table before a delete-and-redeploy.
    instance(h, 'i-other-table', 3 * MIN, { nodeClaimId: 'default-x', owner: 'joiner-state-table-b' });
    instance(h, 'i-untagged', 3 * MIN, { nodeClaimId: 'default-y' });
    const outcome = await collectOrphans(h.sweep);
    expect(outcome.terminatedInstances).toEqual(['i-mine']);
    expect(h.cloud.terminated).toEqual(['i-mine']);
  });

  it('collects nothing when it does not know its own identity', async () => {
    const h = harness();
    goneClaim(h, 'default-old', 10 * MIN);
    instance(h, 'i-mine', 3 * MIN, { nodeClaimId: 'default-old', owner: OWNER });
    expect((await collectOrphans(h.sweep)).terminatedInstances).toEqual([]);
  });
});

describe('orphan GC: safety limits', () => {
  it('terminates at most maxOrphanTerminations per sweep, oldest first; the next sweep takes the rest', async () => {
    const h = ownedHarness();
    (h.sweep as { settings?: object }).settings = { orphanGraceMs: 2 * MIN, maxOrphanTerminations: 2 };
    goneClaim(h, 'default-old', 60 * MIN);
    for (let n = 1; n <= 5; n++)
      instance(h, `i-${n}`, (10 - n) * MIN, { nodeClaimId: `c-${n}`, owner: OWNER });
    expect((await collectOrphans(h.sweep)).terminatedInstances).toEqual(['i-1', 'i-2']);
    expect(h.log.messages()).toContain('orphan GC capped: the next sweep takes the rest');
    for (const id of ['i-1', 'i-2']) h.cloud.instances.delete(id);
    expect((await collectOrphans(h.sweep)).terminatedInstances).toEqual(['i-3', 'i-4']);
  });

  it('refuses to collect from an empty table (restored, truncated or new): it would kill every node', async () => {
    const h = ownedHarness();
    for (let n = 1; n <= 4; n++) instance(h, `i-${n}`, 5 * MIN, { nodeClaimId: `c-${n}`, owner: OWNER });
    const outcome = await collectOrphans(h.sweep);
    expect(outcome.terminatedInstances).toEqual([]);
    expect(h.cloud.terminated).toEqual([]);
    expect(h.log.messages()).toContain('orphan GC refused: the state table holds no nodeclaim record');
  });

  it('refuses to collect instances launched before the table was first written (a newly created table)', async () => {
    const h = ownedHarness();
    // The table's first record is 10 minutes old: it cannot have launched a 30-minute-old instance.
    goneClaim(h, 'default-first', 10 * MIN);
    instance(h, 'i-before', 30 * MIN, { nodeClaimId: 'c-before', owner: OWNER });
    instance(h, 'i-after', 5 * MIN, { nodeClaimId: 'c-after', owner: OWNER });
    expect((await collectOrphans(h.sweep)).terminatedInstances).toEqual(['i-after']);
    expect(h.log.messages()).toContain('orphan GC skips instances older than the state table');
  });
});
