import { describe, expect, it, vi } from 'vitest';
import type { Pod } from '../../../../functions/core/model/kube-objects.js';
import type { LaunchInput } from '../../../../functions/core/ports/cloud-provider.js';
import { provision } from '../../../../functions/core/provisioning/provision.js';
import { MAX_PASSES } from '../../../../functions/core/provisioning/run-passes.js';
import type { ProvisionDeps, ProvisionResult } from '../../../../functions/core/provisioning/types.js';
import { type Harness, harness } from './harness.js';
import { seedCluster } from './seed-cluster.js';

const SEED_004 = 'examples/seed-004';

/** The seed's cluster with `held` of its pending pods set aside (they turn pending later). */
async function split(held: number): Promise<{ h: Harness; later: Pod[] }> {
  const h = harness(await seedCluster(SEED_004));
  const pending = await h.cluster.listPendingPods();
  const later = pending.slice(pending.length - held);
  h.cluster.pods = h.cluster.pods.filter((p) => !later.includes(p));
  return { h, later };
}

/** The pending pods no live claim was planned for. */
async function uncovered(h: Harness): Promise<string[]> {
  const claims = await h.store.listNodeClaims(['Pending', 'Launched', 'Registered', 'Initialized']);
  const planned = new Set(claims.flatMap((c) => c.pods.map((p) => p.uid)));
  return (await h.cluster.listPendingPods())
    .map((p) => p.metadata.uid ?? '')
    .filter((uid) => !planned.has(uid));
}

/** Deps whose cloud calls `during` at the start of each launch (the run is then holding the lease). */
function pausing(h: Harness, during: (launch: number, input: LaunchInput) => Promise<void>): ProvisionDeps {
  const cloud = h.deps.cloud;
  let launches = 0;
  const launch = async (input: LaunchInput) => {
    await during(++launches, input);
    return cloud.launch(input);
  };
  return {
    ...h.deps,
    leaseClock: h.clock,
    cloud: new Proxy(cloud, { get: (t, p, r) => (p === 'launch' ? launch : Reflect.get(t, p, r)) }),
  };
}

const absorbing = { options: { absorb: true } } as const;

describe('provision: a run that finds the lease held is absorbed by the holder', () => {
  it('returns at once; the holder plans its pods in a second pass, then releases the lease', async () => {
    const { h, later } = await split(3);
    let absorbed: ProvisionResult | undefined;
    const deps = pausing(h, async (n) => {
      if (n !== 1) return;
      // A second delivery while the holder launches: its pods turned pending after the holder read.
      h.cluster.pods.push(...later);
      absorbed = await provision({ ...h.deps, leaseClock: h.clock }, { hints: [], ...absorbing });
    });
    const holder = await provision(deps, { hints: [], ...absorbing });
    expect(absorbed).toMatchObject({ absorbed: true, deferred: false, created: [], launched: [] });
    expect(holder.deferred).toBe(false);
    expect(holder.incomplete).toBe(false);
    expect(h.log.messages().includes('another run asked for provisioning meanwhile, planning again')).toBe(
      true,
    );
    expect(await uncovered(h)).toEqual([]);
    expect(h.store.leases.size).toBe(0);
    // Nothing is planned twice: a later run finds every pod waiting for a claim.
    const again = await provision({ ...h.deps, leaseClock: h.clock }, { hints: [] });
    expect(again).toMatchObject({ created: [], launched: [] });
    expect(again.waitingForInFlight).toBe(again.pendingPods);
  });

  it('a run that does not absorb (a drain replacement) still waits for the lease', async () => {
    const { h } = await split(0);
    const other = await h.store.acquireLease('provisioner', 'other-run', h.clock.now(), 60_000);
    let waits = 0;
    const sleep = async () => {
      if (++waits === 2 && other) await h.store.releaseLease(other);
    };
    const result = await provision({ ...h.deps, leaseClock: h.clock, sleep }, { hints: [] });
    expect(result.absorbed).toBeUndefined();
    expect(result.launched.length).toBeGreaterThan(0);
  });

  it('two deliveries at once whose holder crashes halfway: its redelivery gives every pod capacity', async () => {
    const { h, later } = await split(3);
    let absorbed: ProvisionResult | undefined;
    const deps = pausing(h, async (n) => {
      if (n !== 2) return;
      h.cluster.pods.push(...later);
      absorbed = await provision({ ...h.deps, leaseClock: h.clock }, { hints: [], ...absorbing });
      // The holder's invocation dies here, between two launches, holding the lease.
      await new Promise<never>(() => {});
    });
    void provision({ ...deps, remainingMs: () => 60_000 }, { hints: [], ...absorbing });
    await vi.waitFor(() => expect(absorbed?.absorbed).toBe(true));
    expect((await uncovered(h)).length).toBeGreaterThan(0);
    // The crashed delivery fails: SQS brings its batch back once the visibility timeout passed.
    h.clock.advance(120_000);
    const redelivery = await provision({ ...h.deps, leaseClock: h.clock }, { hints: [], ...absorbing });
    expect(redelivery.absorbed).toBeUndefined();
    expect(await uncovered(h)).toEqual([]);
    const launched = await h.store.listNodeClaims(['Launched']);
    expect(new Set(launched.map((c) => c.instance?.instanceId)).size).toBe(launched.length);
    expect(h.cloud.instances).toHaveLength(launched.length);
  });

  it(`a holder asked again after its last pass (${MAX_PASSES}) reports incomplete: its batch comes back`, async () => {
    const { h, later } = await split(MAX_PASSES);
    let asked = new Set<string>();
    // The first launch of each pass (pass 1's first, then the launch of the pod the last request
    // brought) brings the next pod and its request.
    const deps = pausing(h, async (n, input) => {
      if (n !== 1 && !input.claim.pods.some((p) => asked.has(p.uid))) return;
      const pod = later.shift();
      if (!pod) return;
      asked = new Set([pod.metadata.uid ?? '']);
      h.cluster.pods.push(pod);
      expect(await provision({ ...h.deps, leaseClock: h.clock }, { hints: [], ...absorbing })).toMatchObject({
        absorbed: true,
      });
    });
    const holder = await provision(deps, { hints: [], ...absorbing });
    expect(holder.incomplete).toBe(true);
    expect(
      h.log
        .messages()
        .some((m) => m.startsWith('another run asked for provisioning, this one has no time left')),
    ).toBe(true);
    expect(h.store.leases.size).toBe(0);
  });

  it('a run finding an expired lease is not absorbed by its dead holder: it takes the lease', async () => {
    const { h } = await split(0);
    await h.store.acquireLease('provisioner', 'crashed', h.clock.now(), 1_000);
    h.clock.advance(2_000);
    expect(await h.store.requestLeaseRun('provisioner', h.clock.now())).toBe(false);
    const next = await provision({ ...h.deps, leaseClock: h.clock }, { hints: [], ...absorbing });
    expect(next.absorbed).toBeUndefined();
    expect(next.launched.length).toBeGreaterThan(0);
    expect(await uncovered(h)).toEqual([]);
  });
});
