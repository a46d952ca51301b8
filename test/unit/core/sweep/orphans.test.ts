import { describe, expect, it } from 'vitest';
import { transition } from '../../../../functions/core/nodeclaim/state-machine.js';
import type { CloudInstance } from '../../../../functions/core/ports/cloud-provider.js';
import { collectOrphans } from '../../../../functions/core/sweep/orphans.js';
import { kubeletNode, markReady, pendingClaim, podOn } from '../lifecycle/fakes.js';
import { harness, launchedClaim } from '../lifecycle/harness.js';

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
    // Claim records lost, no node: collected once past the registration timeout (15 min).
    for (let n = 1; n <= 5; n++)
      instance(h, `i-${n}`, (30 - n) * MIN, { nodeClaimId: `c-${n}`, owner: OWNER });
    expect((await collectOrphans(h.sweep)).terminatedInstances).toEqual(['i-1', 'i-2']);
    expect(h.log.messages()).toContain('orphan GC capped: the next sweep takes the rest');
    for (const id of ['i-1', 'i-2']) h.cloud.instances.delete(id);
    expect((await collectOrphans(h.sweep)).terminatedInstances).toEqual(['i-3', 'i-4']);
  });

  it('refuses to collect from an empty table (restored, truncated or new): it would kill every node', async () => {
    const h = ownedHarness();
    for (let n = 1; n <= 4; n++) instance(h, `i-${n}`, 20 * MIN, { nodeClaimId: `c-${n}`, owner: OWNER });
    const outcome = await collectOrphans(h.sweep);
    expect(outcome.terminatedInstances).toEqual([]);
    expect(h.cloud.terminated).toEqual([]);
    expect(h.log.messages()).toContain('orphan GC refused: the state table holds no nodeclaim record');
  });

  it('refuses to collect instances launched before the table was first written (a newly created table)', async () => {
    const h = ownedHarness();
    // The table's first record is 25 minutes old: it cannot have launched a 40-minute-old instance.
    goneClaim(h, 'default-first', 25 * MIN);
    instance(h, 'i-before', 40 * MIN, { nodeClaimId: 'c-before', owner: OWNER });
    instance(h, 'i-after', 20 * MIN, { nodeClaimId: 'c-after', owner: OWNER });
    expect((await collectOrphans(h.sweep)).terminatedInstances).toEqual(['i-after']);
    expect(h.log.messages()).toContain('orphan GC skips instances older than the state table');
  });
});

/** A Ready node of pool `default` registered for `instanceId`, running `pods`. */
function registeredNode(h: H, name: string, instanceId: string, pods: readonly string[]): void {
  const node = kubeletNode(name, instanceId);
  node.metadata.labels = { ...node.metadata.labels, 'karpenter.sh/nodepool': 'default' };
  node.metadata.annotations = { 'karpenter.sh/nodepool-hash': 'pool-hash-1' };
  markReady(node);
  h.cluster.nodes.set(name, node);
  for (const pod of pods) h.cluster.pods.push(podOn(name, pod));
}

describe('orphan GC: lost state is recovered, not punished', () => {
  it('adopts a registered instance whose claim record is missing: the claim is rebuilt, nothing is terminated', async () => {
    const h = ownedHarness();
    goneClaim(h, 'default-first', 60 * MIN);
    instance(h, 'i-lost', 20 * MIN, {
      nodeClaimId: 'default-0123456789',
      owner: OWNER,
      nodePool: 'default',
      tags: { 'joiner.sh/nodeclass': 'default' },
    });
    registeredNode(h, 'ip-lost', 'i-lost', ['web-1', 'web-2']);
    const outcome = await collectOrphans(h.sweep);
    expect(outcome.adoptedInstances).toEqual(['i-lost']);
    expect(outcome.terminatedInstances).toEqual([]);
    expect(h.cloud.terminated).toEqual([]);
    const claim = h.store.claims.get('default-0123456789');
    expect(claim).toMatchObject({
      state: 'Initialized',
      nodePool: 'default',
      nodeClass: 'default',
      nodeName: 'ip-lost',
      nodePoolHash: 'pool-hash-1',
      instance: { instanceId: 'i-lost', instanceType: 'c5.large', zone: 'us-west-2a', capacityType: 'spot' },
    });
    expect(claim?.instance?.price).toBeGreaterThan(0);
    expect(h.log.messages()).toContain(
      'adopted an instance whose nodeclaim record was missing: its claim is rebuilt',
    );
    // The next sweep finds it owned: nothing adopted twice, nothing terminated.
    const again = await collectOrphans(h.sweep);
    expect(again).toMatchObject({ adoptedInstances: [], terminatedInstances: [], drainingInstances: [] });
  });

  it('returns an adopted node whose drain was lost with its record to service (no disrupted taint left)', async () => {
    const h = ownedHarness();
    goneClaim(h, 'default-first', 60 * MIN);
    instance(h, 'i-lost', 20 * MIN, { nodeClaimId: 'default-0123456789', owner: OWNER, nodePool: 'default' });
    registeredNode(h, 'ip-lost', 'i-lost', ['web-1']);
    const node = h.cluster.nodes.get('ip-lost');
    if (node?.spec) node.spec.taints = [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }];
    expect((await collectOrphans(h.sweep)).adoptedInstances).toEqual(['i-lost']);
    expect(h.cluster.nodes.get('ip-lost')?.spec?.taints ?? []).toEqual([]);
    expect(h.cloud.terminated).toEqual([]);
  });

  it('waits the registration timeout for an instance whose record is missing and has no node, then terminates it', async () => {
    const h = ownedHarness();
    goneClaim(h, 'default-first', 60 * MIN);
    instance(h, 'i-young', 10 * MIN, { nodeClaimId: 'c-young', owner: OWNER });
    instance(h, 'i-never', 16 * MIN, { nodeClaimId: 'c-never', owner: OWNER });
    expect((await collectOrphans(h.sweep)).terminatedInstances).toEqual(['i-never']);
    expect(h.cloud.terminated).toEqual(['i-never']);
  });

  it('drains, never terminates, an instance whose claim retired while its node runs pods', async () => {
    const h = ownedHarness();
    goneClaim(h, 'default-retired', 30 * MIN);
    instance(h, 'i-late', 20 * MIN, { nodeClaimId: 'default-retired', owner: OWNER, nodePool: 'default' });
    registeredNode(h, 'ip-late', 'i-late', ['web-1']);
    const outcome = await collectOrphans(h.sweep);
    expect(outcome.drainingInstances).toEqual(['i-late']);
    expect(outcome.terminatedInstances).toEqual([]);
    expect(h.cloud.terminated).toEqual([]);
    const drainer = [...h.store.claims.values()].find(
      (c) => c.instance?.instanceId === 'i-late' && c.state !== 'Gone',
    );
    expect(drainer).toMatchObject({ state: 'Draining', disruption: { cause: 'orphaned', forceful: true } });
    expect(h.cluster.nodes.get('ip-late')?.spec?.taints).toContainEqual({
      key: 'karpenter.sh/disrupted',
      effect: 'NoSchedule',
    });
    // Its drain claim owns it now: later sweeps leave it to the drain.
    const again = await collectOrphans(h.sweep);
    expect(again).toMatchObject({ drainingInstances: [], terminatedInstances: [] });
  });

  it('still terminates an instance whose claim retired when its node runs no pods', async () => {
    const h = ownedHarness();
    goneClaim(h, 'default-retired', 30 * MIN);
    instance(h, 'i-idle', 20 * MIN, { nodeClaimId: 'default-retired', owner: OWNER, nodePool: 'default' });
    registeredNode(h, 'ip-idle', 'i-idle', []);
    expect((await collectOrphans(h.sweep)).terminatedInstances).toEqual(['i-idle']);
  });
});

describe('sweep: a node that joined before its launch was recorded', () => {
  it('registers and initializes a Launched claim whose node is already there, once, without touching the instance', async () => {
    const h = ownedHarness();
    const claim = launchedClaim(h, 'default-late', 'i-late');
    // The node joined while the claim was still Pending: its registration event was dropped.
    const node = kubeletNode('ip-late', 'i-late');
    markReady(node);
    h.cluster.nodes.set('ip-late', node);
    const outcome = await collectOrphans(h.sweep);
    expect(outcome.registeredClaims).toEqual([claim.id]);
    expect(h.store.claims.get(claim.id)).toMatchObject({ state: 'Initialized', nodeName: 'ip-late' });
    expect(outcome.terminatedInstances).toEqual([]);
    expect(h.log.messages()).toContain(
      'registered a nodeclaim whose node joined before its launch was recorded',
    );
    // Twice, or beside the lifecycle function: nothing moves again.
    expect((await collectOrphans(h.sweep)).registeredClaims).toEqual([]);
  });

  it('leaves a Launched claim whose node has not joined as it is (the registration timeout still applies)', async () => {
    const h = ownedHarness();
    const claim = launchedClaim(h, 'default-booting', 'i-booting');
    const outcome = await collectOrphans(h.sweep);
    expect(outcome.registeredClaims).toEqual([]);
    expect(h.store.claims.get(claim.id)?.state).toBe('Launched');
  });
});
