import { describe, expect, it } from 'vitest';
import type { JoinerEvent } from '../../../../functions/core/ports/event-publisher.js';
import { MAX_HANDOVER_PODS } from '../../../../functions/core/provisioning/handover.js';
import { provision } from '../../../../functions/core/provisioning/provision.js';
import { createProvisionerHandler } from '../../../../functions/handlers/provisioner.js';
import { DETAIL_TYPES, JOINER_EVENT_SOURCE } from '../../../../functions/shared/event-rules.js';
import { provisionerContext, provisioningRecord } from '../../../builders/provisioning-event.js';
import { type Harness, harness } from './harness.js';
import { seedCluster } from './seed-cluster.js';

const SEED_004 = 'examples/seed-004';

/** A bus that records what it is given (or fails). */
function bus(fail = false) {
  const published: JoinerEvent[] = [];
  return {
    published,
    publish: async (events: readonly JoinerEvent[]) => {
      if (fail) throw new Error('PutEvents failed');
      published.push(...events);
    },
  };
}

/**
 * The cloud launches one claim at a time; each launch takes `stepMs` of the invocation. Returns
 * the invocation's remaining time.
 */
function pacedCloud(h: Harness, startMs: number, stepMs: number) {
  const clock = { remaining: startMs };
  let turn = Promise.resolve();
  const launch = h.cloud.launch.bind(h.cloud);
  h.cloud.launch = (input) => {
    const mine = turn.then(async () => {
      await input.beforeStart?.();
      const outcome = await launch(input);
      clock.remaining -= stepMs;
      return outcome;
    });
    turn = mine.then(
      () => {},
      () => {},
    );
    return mine;
  };
  return clock;
}

describe('provision: a run that stops at its launch reserve hands the rest over', () => {
  it('publishes a PodUnschedulable hint for pods of the claims it left Pending, after releasing its lease', async () => {
    const h = harness(await seedCluster(SEED_004));
    const events = bus();
    const left = pacedCloud(h, 60_000, 20_000);
    let leaseAtPublish: unknown = 'unset';
    const publish = events.publish;
    events.publish = async (e) => {
      leaseAtPublish = h.store.leases.get('provisioner')?.holder;
      return publish(e);
    };
    const result = await provision(
      { ...h.deps, events, remainingMs: () => left.remaining },
      { hints: [], options: { launchReserveMs: 25_000 } },
    );
    expect(result.launched).toHaveLength(2);
    expect(result).toMatchObject({ incomplete: true, handedOver: true });
    const pending = [...h.store.claims.values()].filter((c) => c.state === 'Pending');
    expect(pending).toHaveLength(2);
    const waiting = new Set(pending.flatMap((c) => c.pods.map((p) => p.uid)));
    expect(events.published.length).toBeGreaterThan(0);
    expect(events.published.length).toBeLessThanOrEqual(MAX_HANDOVER_PODS);
    for (const e of events.published) {
      expect(e.detailType).toBe('PodUnschedulable');
      expect(waiting.has(String(e.detail.uid))).toBe(true);
    }
    // The lease was free when the hint went out: the woken run need not wait for it.
    expect(leaseAtPublish).toBeUndefined();
    expect(h.log.messages()).toContain('handed the rest of the provisioning run over to a new invocation');
  });

  it('the woken run (delivered twice) launches each left claim once', async () => {
    const h = harness(await seedCluster(SEED_004));
    const events = bus();
    const left = pacedCloud(h, 60_000, 20_000);
    await provision(
      { ...h.deps, events, remainingMs: () => left.remaining },
      { hints: [], options: { launchReserveMs: 25_000 } },
    );
    const hints = events.published.map((e) => e.detail as { namespace: string; name: string; uid: string });
    left.remaining = 900_000;
    const [a, b] = await Promise.all([
      provision({ ...h.deps, events }, { hints, options: { holder: 'woken-1' } }),
      provision({ ...h.deps, events }, { hints, options: { holder: 'woken-2' } }),
    ]);
    expect(a.resumed.length + b.resumed.length).toBe(2);
    expect(h.cloud.instances).toHaveLength(4);
    expect(new Set(h.cloud.instances.map((i) => i.nodeClaimId)).size).toBe(4);
    expect([...h.store.claims.values()].filter((c) => c.state === 'Pending')).toHaveLength(0);
  });

  it('a run that launched nothing before it stopped hands nothing over (no chain of empty invocations)', async () => {
    const h = harness(await seedCluster(SEED_004));
    const events = bus();
    let remaining = 60_000;
    const store = Object.create(h.store) as typeof h.store;
    store.createNodeClaim = async (claim) => {
      remaining = 0;
      return h.store.createNodeClaim(claim);
    };
    const result = await provision({ ...h.deps, store, events, remainingMs: () => remaining }, { hints: [] });
    expect(result).toMatchObject({ incomplete: true, handedOver: false, launched: [] });
    expect(result.leftForNextRun?.length).toBeGreaterThan(0);
    expect(events.published).toEqual([]);
  });

  it('a run that finishes hands nothing over', async () => {
    const h = harness(await seedCluster(SEED_004));
    const events = bus();
    const result = await provision({ ...h.deps, events }, { hints: [] });
    expect(result).toMatchObject({ incomplete: false, handedOver: false });
    expect(result.launched).toHaveLength(4);
    expect(events.published).toEqual([]);
  });

  it('a bus that fails leaves the rest to the sweep: the run still ends, with a warning', async () => {
    const h = harness(await seedCluster(SEED_004));
    const events = bus(true);
    const left = pacedCloud(h, 60_000, 20_000);
    const result = await provision(
      { ...h.deps, events, remainingMs: () => left.remaining },
      { hints: [], options: { launchReserveMs: 25_000 } },
    );
    expect(result).toMatchObject({ incomplete: true, handedOver: false });
    expect(h.log.messages()).toContain('could not hand the rest of the run over, the sweep resumes it');
  });
});

describe('the provisioner handler and a hand-over', () => {
  /** The SQS record EventBridge would deliver for a published hint. */
  const recordOf = (e: JoinerEvent, i: number) =>
    provisioningRecord(
      `handed-${i}`,
      JSON.stringify({
        id: `evt-handed-${i}`,
        'detail-type': e.detailType,
        source: JOINER_EVENT_SOURCE,
        time: '2025-01-01T00:00:00Z',
        detail: e.detail,
      }),
    );

  it('a run stopped at its deadline hands over: its batch is done, and the hint’s invocation launches the rest (before any sweep)', async () => {
    const h = harness(await seedCluster(SEED_004));
    const events = bus();
    const left = pacedCloud(h, 45_000, 15_000);
    const handler = createProvisionerHandler(() => ({ ...h.deps, events }));
    const first = await handler(
      {
        Records: [recordOf({ detailType: DETAIL_TYPES.podUnschedulable, detail: ref(h) }, 0)],
      },
      Object.assign(provisionerContext(), { getRemainingTimeInMillis: () => left.remaining }),
    );
    expect(h.cloud.instances.length).toBeGreaterThan(0);
    expect(h.cloud.instances.length).toBeLessThan(4);
    // Handed over: the batch is not retried (the hint carries the work).
    expect(first).toEqual({ batchItemFailures: [] });
    expect(events.published.length).toBeGreaterThan(0);
    left.remaining = 900_000;
    const second = await handler(
      { Records: events.published.map(recordOf) },
      Object.assign(provisionerContext(), { getRemainingTimeInMillis: () => left.remaining }),
    );
    expect(second).toEqual({ batchItemFailures: [] });
    expect(h.cloud.instances).toHaveLength(4);
    expect(new Set(h.cloud.instances.map((i) => i.nodeClaimId)).size).toBe(4);
  });

  it('without a bus the stopped run’s batch comes back (as before): every record failed', async () => {
    const h = harness(await seedCluster(SEED_004));
    const left = pacedCloud(h, 45_000, 15_000);
    const handler = createProvisionerHandler(() => h.deps);
    const response = await handler(
      { Records: [recordOf({ detailType: DETAIL_TYPES.podUnschedulable, detail: ref(h) }, 0)] },
      Object.assign(provisionerContext(), { getRemainingTimeInMillis: () => left.remaining }),
    );
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'handed-0' }] });
  });
});

/** A pod of the cluster as a hint's detail. */
function ref(h: Harness) {
  const pod = h.cluster.pods[0];
  return {
    namespace: pod.metadata.namespace ?? 'default',
    name: pod.metadata.name,
    uid: pod.metadata.uid ?? '',
  };
}
