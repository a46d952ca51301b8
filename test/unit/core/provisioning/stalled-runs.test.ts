import { describe, expect, it } from 'vitest';
import { provision } from '../../../../functions/core/provisioning/provision.js';
import { harness } from './harness.js';
import { seedCluster } from './seed-cluster.js';

const SEED_004 = 'examples/seed-004';

/** A gate a stalled run waits at until the test opens it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Resolves once `condition` holds (polled on the macrotask queue). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('provision: a stalled run and the run after it', () => {
  it('a run stalled before its launches whose lease expired launches nothing once it resumes', async () => {
    const h = harness(await seedCluster(SEED_004));
    let lease = 0;
    const leaseClock = { now: () => lease };
    const stall = gate();
    let stalled = 0;
    // Run A stalls in recording each claim's first attempt, before it starts any CreateFleet.
    const slowStore = Object.create(h.store) as typeof h.store;
    slowStore.updateNodeClaim = async (claim) => {
      stalled++;
      await stall.opened;
      return h.store.updateNodeClaim(claim);
    };
    const a = provision(
      { ...h.deps, store: slowStore, leaseClock },
      { hints: [], options: { holder: 'run-a', leaseTtlMs: 60_000, launchReserveMs: 5_000 } },
    );
    await until(() => stalled >= 4);
    lease += 61_000;
    const b = await provision({ ...h.deps, leaseClock }, { hints: [], options: { holder: 'run-b' } });
    expect(b.deferred).toBe(false);
    expect(b.launched).toHaveLength(4);
    stall.open();
    const first = await a;
    expect(first.launched).toHaveLength(0);
    expect(h.cloud.instances).toHaveLength(4);
  });

  it('claims a run writes after losing its lease are superseded by the next run’s: no pod gets two nodes', async () => {
    const h = harness(await seedCluster(SEED_004));
    let lease = 0;
    const leaseClock = { now: () => lease };
    const stall = gate();
    let writing = 0;
    // Run A stalls in its claim writes. Its lease runs out; a new pod arrives; run B plans every
    // pending pod (its claims differ from A's) and launches. Then A's writes land.
    const slowStore = Object.create(h.store) as typeof h.store;
    slowStore.createNodeClaim = async (claim) => {
      writing++;
      await stall.opened;
      return h.store.createNodeClaim(claim);
    };
    const a = provision(
      { ...h.deps, store: slowStore, leaseClock },
      { hints: [], options: { holder: 'run-a', leaseTtlMs: 60_000, launchReserveMs: 5_000 } },
    );
    await until(() => writing === 4);
    lease += 61_000;
    const general = h.cluster.pods.find((p) => p.metadata.name.startsWith('general-workloads'))!;
    h.cluster.pods.push({
      ...general,
      metadata: { ...general.metadata, name: 'general-late', uid: 'uid-late' },
    });
    const b = await provision({ ...h.deps, leaseClock }, { hints: [], options: { holder: 'run-b' } });
    expect(b.launched.length).toBeGreaterThan(0);
    stall.open();
    const stale = await a;
    expect(stale.launched).toHaveLength(0);
    const late = [...h.store.claims.values()].filter((c) => c.state === 'Pending');
    expect(late.length).toBeGreaterThan(0);

    const c = await provision({ ...h.deps, leaseClock }, { hints: [], options: { holder: 'run-c' } });
    expect([...c.cancelled].sort()).toEqual(late.map((x) => x.id).sort());
    expect(c).toMatchObject({ created: [], launched: [], resumed: [] });
    for (const id of c.cancelled) expect(h.store.claims.get(id)?.failure?.reason).toBe('Superseded');
    const launched = [...h.store.claims.values()].filter((x) => x.state === 'Launched');
    const pods = launched.flatMap((x) => x.pods.map((p) => p.uid));
    expect(new Set(pods).size).toBe(pods.length);
    expect(pods).toHaveLength(h.cluster.pods.length);
    expect(h.cloud.instances).toHaveLength(launched.length);
  });

  it('a run that outlived its invocation deadline starts no launch; its retry launches each claim once', async () => {
    const h = harness(await seedCluster(SEED_004));
    let remaining = 60_000;
    // The invocation times out while it writes its claims; it keeps running (a zombie).
    const store = Object.create(h.store) as typeof h.store;
    store.createNodeClaim = async (claim) => {
      remaining = 0;
      return h.store.createNodeClaim(claim);
    };
    const zombie = await provision({ ...h.deps, store, remainingMs: () => remaining }, { hints: [] });
    expect(zombie).toMatchObject({ incomplete: true, launched: [] });
    expect(h.cloud.launches).toBe(0);
    expect(h.log.messages()).toContain(
      'provisioning run stops launching, the next run resumes its pending nodeclaims',
    );
    const pending = [...h.store.claims.values()].filter((c) => c.state === 'Pending');
    expect(pending).toHaveLength(4);
    const retry = await provision(h.deps, { hints: [] });
    expect(retry).toMatchObject({ incomplete: false, created: [] });
    expect([...retry.resumed].sort()).toEqual(pending.map((c) => c.id).sort());
    expect(h.cloud.instances).toHaveLength(4);
    expect(new Set(h.cloud.instances.map((i) => i.nodeClaimId)).size).toBe(4);
  });

  it('a launch that waited its turn in the cloud’s pacing starts only while the run has its reserve left', async () => {
    const h = harness(await seedCluster(SEED_004));
    let remaining = 60_000;
    // One launch at a time, each taking 20 s of the invocation: all four claims are handed to the
    // cloud at once with 60 s left, the third reaches its turn with 20 s left, under the reserve.
    let turn = Promise.resolve();
    const launch = h.cloud.launch.bind(h.cloud);
    h.cloud.launch = (input) => {
      const mine = turn.then(async () => {
        await input.beforeStart?.();
        const outcome = await launch(input);
        remaining -= 20_000;
        return outcome;
      });
      turn = mine.then(
        () => {},
        () => {},
      );
      return mine;
    };
    const result = await provision(
      { ...h.deps, remainingMs: () => remaining },
      { hints: [], options: { launchReserveMs: 25_000 } },
    );
    expect(h.cloud.launches).toBe(2);
    expect(result).toMatchObject({ incomplete: true });
    expect(result.launched).toHaveLength(2);
    expect(h.log.messages()).toContain(
      'provisioning run stops launching, the next run resumes its pending nodeclaims',
    );
    const pending = [...h.store.claims.values()].filter((c) => c.state === 'Pending');
    expect(pending).toHaveLength(2);
  });

  it('a run whose lease expired and was taken starts no launch', async () => {
    const h = harness(await seedCluster(SEED_004));
    let lease = 0;
    const leaseClock = { now: () => lease };
    // While run A writes its claims, its lease runs out and run B takes it.
    const store = Object.create(h.store) as typeof h.store;
    store.createNodeClaim = async (claim) => {
      if (lease === 0) {
        lease += 61_000;
        await h.store.acquireLease('provisioner', 'run-b', lease, 60_000);
      }
      return h.store.createNodeClaim(claim);
    };
    const result = await provision(
      { ...h.deps, store, leaseClock },
      { hints: [], options: { holder: 'run-a', leaseTtlMs: 60_000, launchReserveMs: 5_000 } },
    );
    expect(h.cloud.launches).toBe(0);
    expect(result.incomplete).toBe(true);
    expect(h.store.leases.get('provisioner')?.holder).toBe('run-b');
  });

  it('renews a lease that runs low and keeps launching', async () => {
    const h = harness(await seedCluster(SEED_004));
    let lease = 0;
    const leaseClock = { now: () => lease };
    const store = Object.create(h.store) as typeof h.store;
    store.createNodeClaim = async (claim) => {
      lease = 58_000;
      return h.store.createNodeClaim(claim);
    };
    const result = await provision(
      { ...h.deps, store, leaseClock },
      { hints: [], options: { holder: 'run-a', leaseTtlMs: 60_000, launchReserveMs: 5_000 } },
    );
    expect(result).toMatchObject({ incomplete: false });
    expect(result.launched).toHaveLength(4);
  });

  it('the lease of a run with a deadline ends shortly after it', async () => {
    const h = harness(await seedCluster(SEED_004));
    const leaseClock = { now: () => 1_000 };
    const seen: number[] = [];
    const store = Object.create(h.store) as typeof h.store;
    store.acquireLease = async (name, holder, now, ttlMs) => {
      seen.push(ttlMs);
      return h.store.acquireLease(name, holder, now, ttlMs);
    };
    await provision({ ...h.deps, store, leaseClock, remainingMs: () => 600 }, { hints: [] });
    expect(seen[0]).toBe(5_600);
  });
});
