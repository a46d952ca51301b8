import { describe, expect, it } from 'vitest';
import { newNodeClaim } from '../../../../functions/core/nodeclaim/create.js';
import { type CloudProvider, CloudThrottledError } from '../../../../functions/core/ports/cloud-provider.js';
import { provision } from '../../../../functions/core/provisioning/provision.js';
import { harness } from './harness.js';
import { seedCluster } from './seed-cluster.js';

const SEED_004 = 'examples/seed-004';

/** `inner` with some of its calls replaced (a crash, a lost answer, a lagging tag lookup). */
function withCloud(inner: CloudProvider, overrides: Partial<CloudProvider>): CloudProvider {
  return {
    launch: (input) => inner.launch(input),
    terminate: (ids) => inner.terminate(ids),
    get: (id) => inner.get(id),
    findByNodeClaim: (id) => inner.findByNodeClaim(id),
    list: () => inner.list(),
    ...overrides,
  };
}
const LAUNCH_MS = 5 * 60_000;

describe('provision: capacity errors', () => {
  it('marks the exhausted cheapest offering, launches the same type in another zone and later runs plan without it', async () => {
    const h = harness(await seedCluster(SEED_004));
    h.cloud.exhausted.add('c5.2xlarge/us-west-2b/spot');
    const first = await provision(h.deps, { hints: [] });
    expect(first.markedUnavailable).toEqual(['c5.2xlarge/us-west-2b/spot']);
    const general = first.launched.filter((l) => l.nodePool === 'spot-general');
    expect(general.map((l) => `${l.instanceType}/${l.zone}/${l.capacityType}`)).toEqual([
      'c5.2xlarge/us-west-2a/spot',
      'c5.2xlarge/us-west-2a/spot',
      'c5.2xlarge/us-west-2a/spot',
    ]);
    expect(general.reduce((n, l) => n + l.pods, 0)).toBe(20);
    expect(h.cloud.instances).toHaveLength(4);
    expect(h.log.messages()).toContain(
      'marked offering(s) unavailable, launching with the remaining options',
    );
    // The claims offer c5.2xlarge in every zone, so they launch in another zone without re-planning.
    expect(h.log.messages()).not.toContain('re-planning the pods of nodeclaims that found no capacity');
    // A later run plans new pods (the first ones still wait for their claims) without the marked
    // offerings.
    h.cluster.pods = [
      ...h.cluster.pods,
      ...h.cluster.pods.map((p) => ({
        ...p,
        metadata: { ...p.metadata, name: `${p.metadata.name}-2`, uid: `${p.metadata.uid}-2` },
      })),
    ];
    const launchesBefore = h.cloud.launches;
    const second = await provision(h.deps, { hints: [] });
    expect(second.markedUnavailable).toEqual([]);
    expect(second.created.length).toBeGreaterThan(0);
    expect(h.cloud.launches - launchesBefore).toBe(second.launched.length);
    for (const id of second.created) {
      const options = h.store.claims.get(id)!.options;
      expect(options.length).toBeGreaterThan(0);
      expect(
        options.some((o) => `${o.instanceType}/${o.zone}/${o.capacityType}` === 'c5.2xlarge/us-west-2b/spot'),
      ).toBe(false);
    }
  });
});

describe('provision: errors during launch', () => {
  it('retries a launch that throws within the run', async () => {
    const h = harness(await seedCluster(SEED_004));
    h.cloud.throwNext = 2;
    const result = await provision(h.deps, { hints: [] });
    expect(result).toMatchObject({ incomplete: false, failed: [] });
    expect(result.launched).toHaveLength(4);
    expect(h.cloud.instances).toHaveLength(4);
  });

  it('leaves claims Pending with their launch timeout armed when launches keep failing; the next run resumes them', async () => {
    const h = harness(await seedCluster(SEED_004));
    h.cloud.throwNext = 1000;
    const first = await provision(h.deps, { hints: [] });
    expect(first.incomplete).toBe(true);
    expect(first.failed).toHaveLength(4);
    for (const id of first.created) {
      expect(h.store.claims.get(id)!.state).toBe('Pending');
      expect(h.timers.scheduled).toContainEqual({ nodeClaimId: id, dueAt: h.clock.now() + LAUNCH_MS });
    }
    h.cloud.throwNext = 0;
    const second = await provision(h.deps, { hints: [] });
    expect(second).toMatchObject({ incomplete: false, created: [] });
    expect([...second.resumed].sort()).toEqual([...first.created].sort());
    expect(second.launched).toHaveLength(4);
    expect(h.cloud.instances).toHaveLength(4);
  });

  it('leaves a claim whose launch EC2 throttled past the retries Pending, not failed nor out of capacity; the next run launches it once', async () => {
    const h = harness(await seedCluster(SEED_004));
    let throttle = 2;
    const throttling = withCloud(h.cloud, {
      launch: async (input) => {
        if (throttle > 0) {
          throttle--;
          throw new CloudThrottledError('RequestLimitExceeded', 'Request limit exceeded.');
        }
        return h.cloud.launch(input);
      },
    });
    const first = await provision({ ...h.deps, cloud: throttling }, { hints: [] });
    expect(first.incomplete).toBe(true);
    expect(first.failed).toEqual([]);
    expect(first.markedUnavailable).toEqual([]);
    expect(first.launched).toHaveLength(2);
    const pending = first.created.filter((id) => h.store.claims.get(id)!.state === 'Pending');
    expect(pending).toHaveLength(2);
    expect(h.log.messages()).toContain(
      'EC2 throttled the launch, the nodeclaim stays pending for the next run',
    );
    for (const id of pending)
      expect(h.timers.scheduled).toContainEqual({ nodeClaimId: id, dueAt: h.clock.now() + LAUNCH_MS });
    const second = await provision({ ...h.deps, cloud: throttling }, { hints: [] });
    expect(second).toMatchObject({ incomplete: false, created: [], failed: [] });
    expect([...second.resumed].sort()).toEqual([...pending].sort());
    expect(h.cloud.instances).toHaveLength(4);
    expect(new Set(h.cloud.instances.map((i) => i.nodeClaimId)).size).toBe(4);
  });

  it('adopts the instance a run launched before it crashed instead of launching another', async () => {
    const h = harness(await seedCluster(SEED_004));
    let crashed = false;
    const inner = h.cloud;
    const crashing = withCloud(inner, {
      launch: async (input) => {
        await inner.launch(input);
        crashed = true;
        throw new Error('process crashed after CreateFleet');
      },
      findByNodeClaim: async (id) => {
        if (crashed) throw new Error('process crashed');
        return inner.findByNodeClaim(id);
      },
    });
    const first = await provision({ ...h.deps, cloud: crashing }, { hints: [] });
    expect(first.incomplete).toBe(true);
    const leaked = h.cloud.instances.length;
    expect(leaked).toBe(4);
    const second = await provision(h.deps, { hints: [] });
    expect(second.launched).toHaveLength(4);
    expect(second.launched.every((l) => l.adopted)).toBe(true);
    expect(h.cloud.instances).toHaveLength(4);
    expect(h.log.messages()).toContain('adopted instance of nodeclaim');
  });

  it('replays the ClientToken when a CreateFleet answer is lost and its instance is not yet visible by tag', async () => {
    const h = harness(await seedCluster(SEED_004));
    const inner = h.cloud;
    const answered = new Set<string>();
    // EC2 launches, but the answer is lost (timeout) once per claim; DescribeInstances by tag lags.
    const lossy = withCloud(inner, {
      launch: async (input) => {
        const outcome = await inner.launch(input);
        if (answered.has(input.claim.id)) return outcome;
        answered.add(input.claim.id);
        throw new Error('socket timeout after CreateFleet was sent');
      },
      findByNodeClaim: async () => undefined,
    });
    const result = await provision({ ...h.deps, cloud: lossy }, { hints: [] });
    expect(result).toMatchObject({ incomplete: false, failed: [] });
    expect(result.launched).toHaveLength(4);
    expect(h.cloud.instances).toHaveLength(4);
    expect(new Set(result.launched.map((l) => l.instanceId)).size).toBe(4);
  });

  it('a run resuming a claim whose attempt a crashed run sent replays that attempt instead of launching another', async () => {
    const h = harness(await seedCluster(SEED_004));
    const inner = h.cloud;
    let crashed = false;
    const crashing = withCloud(inner, {
      launch: async (input) => {
        if (crashed) throw new Error('process crashed');
        await inner.launch(input);
        crashed = true;
        throw new Error('process crashed after CreateFleet');
      },
      findByNodeClaim: async () => undefined,
    });
    const first = await provision({ ...h.deps, cloud: crashing }, { hints: [] });
    expect(first.incomplete).toBe(true);
    expect(h.cloud.instances).toHaveLength(4);
    const sent = [...h.store.claims.values()].filter((c) => c.launchAttempts > 0);
    expect(sent.every((c) => c.lastAttempt && c.lastAttempt.offerings.length > 0)).toBe(true);
    const invisible = withCloud(inner, { findByNodeClaim: async () => undefined });
    const second = await provision({ ...h.deps, cloud: invisible }, { hints: [] });
    expect(second.launched).toHaveLength(4);
    expect(h.cloud.instances).toHaveLength(4);
  });

  it('cancels a Pending claim that never launched when none of its pods is pending any more', async () => {
    const h = harness(await seedCluster(SEED_004));
    h.cluster.pods = [];
    const claim = newNodeClaim(
      {
        id: 'spot-general-0000000000',
        nodePool: 'spot-general',
        nodeClass: 'spot-general',
        nodePoolHash: 'p',
        nodeClassHash: 'c',
        requirements: [],
        labels: {},
        taints: [],
        startupTaints: [],
        options: [{ instanceType: 'c5.large', zone: 'us-west-2a', capacityType: 'spot', price: 0.03 }],
        pods: [{ namespace: 'default', name: 'gone', uid: 'uid-gone' }],
        requests: { cpu: 1000 },
      },
      h.clock.now(),
    );
    await h.store.createNodeClaim(claim);
    const result = await provision(h.deps, { hints: [] });
    expect(result.cancelled).toEqual([claim.id]);
    expect(h.store.claims.get(claim.id)).toMatchObject({
      state: 'Gone',
      failure: { reason: 'NoPendingPods' },
    });
    expect(h.cloud.launches).toBe(0);
  });
});

describe('provision: the provisioning lease', () => {
  it('defers when another run holds the lease past the wait, touching nothing', async () => {
    const h = harness(await seedCluster(SEED_004));
    await h.store.acquireLease('provisioner', 'other-run', Date.now(), 60_000);
    const result = await provision(h.deps, { hints: [], options: { leaseWaitMs: 1000, leaseRetryMs: 250 } });
    expect(result).toMatchObject({ deferred: true, created: [], launched: [] });
    expect(h.store.claims.size).toBe(0);
  });

  it('waits for the run in progress, then plans with its claims in flight', async () => {
    const h = harness(await seedCluster(SEED_004));
    const other = await h.store.acquireLease('provisioner', 'other-run', Date.now(), 60_000);
    let waits = 0;
    const sleep = async () => {
      waits++;
      if (waits === 2) await h.store.releaseLease(other!);
    };
    const result = await provision({ ...h.deps, sleep }, { hints: [] });
    expect(waits).toBe(2);
    expect(result.deferred).toBe(false);
    expect(result.launched).toHaveLength(4);
    expect(h.store.leases.size).toBe(0);
  });
});

describe('provision: NodePool limits at launch', () => {
  it('a resumed claim launches only within its pool limits as they are now; the claim past them fails LimitExceeded', async () => {
    const h = harness(await seedCluster(SEED_004));
    h.cloud.throwNext = 1000;
    const first = await provision(h.deps, { hints: [] });
    const general = first.created.filter((id) => h.store.claims.get(id)!.nodePool === 'spot-general');
    expect(general).toHaveLength(3);
    // The user lowers spot-general's limit to two c5.2xlarge while its three claims are pending.
    h.cluster.nodePoolDocs = h.cluster.nodePoolDocs.map((d) =>
      d.metadata?.name === 'spot-general'
        ? { ...d, spec: { ...(d.spec as object), limits: { resources: { cpu: '16' } } } }
        : d,
    );
    h.cloud.throwNext = 0;
    await provision(h.deps, { hints: [] });
    const launched = h.cloud.instances.filter((i) => general.includes(i.nodeClaimId ?? ''));
    expect(launched).toHaveLength(2);
    const failed = general.map((id) => h.store.claims.get(id)!).filter((c) => c.state === 'Gone');
    expect(failed).toHaveLength(1);
    expect(failed[0].failure?.reason).toBe('LimitExceeded');
    expect(failed[0].failure?.message).toMatch(/spot-general limits reached \(counted: cpu 16000 of 16000\)/);
  });
});
