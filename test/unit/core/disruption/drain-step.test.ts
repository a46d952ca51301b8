import { describe, expect, it } from 'vitest';
import { beginDrain, type DrainStart } from '../../../../functions/core/disruption/begin-drain.js';
import { runDisruption } from '../../../../functions/core/disruption/run-disruption.js';
import type { Pod, Toleration } from '../../../../functions/core/model/kube-objects.js';
import { newNodeClaim } from '../../../../functions/core/nodeclaim/create.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { transition } from '../../../../functions/core/nodeclaim/state-machine.js';
import { actOnDueTimers, TERMINATION_SETTLE_MS } from '../../../../functions/core/sweep/due-timers.js';
import type { SweepDeps } from '../../../../functions/core/sweep/sweep-deps.js';
import { pod } from '../../../builders/workloads.js';
import {
  boundTo,
  type DrainHarness,
  drainHarness,
  evicted,
  initializeLaunched,
  isTainted,
  podsOn,
  runningNode,
  step,
} from './drain-harness.js';

const STEP_MS = 5_000;
const RECHECK_MS = 30_000;
const MIN = 60_000;
const OLD = 'default-old';
const OLD_NODE = 'ip-old';

const DRIFT: DrainStart = { cause: 'drifted', message: 'NodePool template changed', forceful: false };
const EXPIRY: DrainStart = { cause: 'expired', message: 'expireAfter 720h reached', forceful: true };

/** A harness with the old node (a c5.2xlarge) running `pods`, and optionally a spare node with room. */
async function setup(pods: (h: DrainHarness) => Pod[], o: { spare?: boolean } = {}): Promise<DrainHarness> {
  const h = await drainHarness();
  runningNode(h, { claimId: OLD, nodeName: OLD_NODE, instanceType: 'c5.2xlarge' });
  if (o.spare) runningNode(h, { claimId: 'default-spare', nodeName: 'ip-spare', instanceType: 'c5.4xlarge' });
  h.cluster.pods = pods(h).map((p) => boundTo(p, OLD_NODE));
  return h;
}

/** The seed's 4 inflate pods (1 CPU each). */
const inflate = (h: DrainHarness) => [...h.workloads];

interface WorkOptions {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  graceSeconds?: number;
  priorityClassName?: string;
  owner?: string;
  tolerations?: Toleration[];
  nodeSelector?: Record<string, string>;
}

/** A 100m pod of the old node. */
function work(name: string, o: WorkOptions = {}): Pod {
  const p = pod({
    name,
    requests: { cpu: '100m', memory: '64Mi' },
    nodeName: OLD_NODE,
    ownerKind: o.owner ?? 'ReplicaSet',
    ...(o.labels ? { labels: o.labels } : {}),
    ...(o.tolerations ? { tolerations: o.tolerations } : {}),
    ...(o.nodeSelector ? { nodeSelector: o.nodeSelector } : {}),
  });
  return {
    ...p,
    metadata: { ...p.metadata, ...(o.annotations ? { annotations: o.annotations } : {}) },
    spec: {
      ...p.spec,
      ...(o.graceSeconds === undefined ? {} : { terminationGracePeriodSeconds: o.graceSeconds }),
      ...(o.priorityClassName ? { priorityClassName: o.priorityClassName } : {}),
    },
  };
}

const claim = (h: DrainHarness, id = OLD): NodeClaim => h.store.claims.get(id) as NodeClaim;
const replacements = (h: DrainHarness) =>
  [...h.store.claims.values()].filter((c) => c.id !== OLD && c.id !== 'default-spare');

/** Moves the clock to the claim's next drain step. */
function toNextStep(h: DrainHarness, id = OLD): void {
  const due = claim(h, id).timers.drainStep;
  if (due === undefined) throw new Error(`no drain step armed on ${id}`);
  h.clock.advance(Math.max(0, due - h.clock.now()));
}

describe('drain: replacement capacity first', () => {
  it('launches a replacement and evicts nothing until it is initialized, then evicts, then terminates', async () => {
    const h = await setup(inflate);
    const started = await beginDrain(h.deps, OLD, DRIFT);
    expect(started?.state).toBe('Draining');
    expect(isTainted(h, OLD_NODE)).toBe(true);

    expect(await step(h, OLD)).toBe('replacing');
    expect(h.cloud.launches).toBe(1);
    const [replacement] = replacements(h);
    expect(replacement.state).toBe('Launched');
    expect(replacement.pods.map((p) => p.name).sort()).toEqual([
      'inflate-0',
      'inflate-1',
      'inflate-2',
      'inflate-3',
    ]);
    expect(h.cluster.evictions).toEqual([]);
    expect(claim(h).disruption?.phase).toBe('replacing');
    // The replacement is launched and will wake the drain when it is initialized: until then the
    // drain only re-checks (see drain-wake.test.ts).
    expect(replacement.wakesDrains).toEqual([OLD]);
    expect(claim(h).timers.drainStep).toBe(h.clock.now() + RECHECK_MS);
    expect(h.timers.scheduled).toContainEqual({ nodeClaimId: OLD, dueAt: h.clock.now() + RECHECK_MS });

    // Launched but not initialized: the drain keeps waiting and launches nothing more.
    toNextStep(h);
    expect(await step(h, OLD)).toBe('replacing');
    expect(h.cloud.launches).toBe(1);
    expect(h.cluster.evictions).toEqual([]);

    initializeLaunched(h);
    toNextStep(h);
    expect(await step(h, OLD)).toBe('evicting');
    expect(evicted(h).sort()).toEqual(['inflate-0', 'inflate-1', 'inflate-2', 'inflate-3']);
    expect(claim(h).disruption).toMatchObject({ phase: 'evicting', evictingSince: h.clock.now() });
    expect(h.cloud.terminated).toEqual([]);

    toNextStep(h);
    expect(await step(h, OLD)).toBe('terminated');
    expect(h.cloud.terminated).toEqual([`i-${OLD}`]);
    expect(h.cluster.deletedNodes).toEqual([OLD_NODE]);
    expect(h.cluster.nodes.map((n) => n.metadata.name)).not.toContain(OLD_NODE);
    expect(claim(h)).toMatchObject({ state: 'Gone', failure: { reason: 'Drifted' } });
    // The replacement stays.
    expect(h.cloud.instances.map((i) => i.instanceId)).toContain(replacement.instance?.instanceId);
    expect(h.cloud.launches).toBe(1);
  });

  it("never taints, drains or deletes another instance's Node that took the claim's node name (EC2 reuses addresses)", async () => {
    const h = await drainHarness();
    runningNode(h, { claimId: OLD, nodeName: OLD_NODE, instanceType: 'c5.2xlarge', instanceId: 'i-0old' });
    // The old instance went (its Node with it); a new instance got its address, so its node name.
    h.cluster.nodes = [];
    const reuse = { claimId: 'default-new', nodeName: OLD_NODE, instanceId: 'i-0new' };
    runningNode(h, { ...reuse, instanceType: 'c5.2xlarge' });
    h.cluster.pods = inflate(h).map((p) => boundTo(p, OLD_NODE));
    const at = h.clock.now();
    const started = await beginDrain(h.deps, OLD, { ...EXPIRY, forceAt: at + 2 * MIN });
    expect(started?.state).toBe('Draining');
    expect(isTainted(h, OLD_NODE)).toBe(false);
    expect(await step(h, OLD)).toBe('terminated');
    expect(h.cluster.evictions).toEqual([]);
    expect(h.cluster.deletedNodes).toEqual([]);
    expect(h.cluster.nodes.find((n) => n.metadata.name === OLD_NODE)?.spec?.providerID).toMatch(/i-0new$/);
    expect(claim(h)).toMatchObject({ state: 'Gone' });
    expect(claim(h, 'default-new').state).toBe('Initialized');
  });

  it('a consolidation delete evicts at its first step with no provisioning run (its room was just re-validated)', async () => {
    const runs = async (start: DrainStart) => {
      const h = await setup(inflate, { spare: true });
      let leases = 0;
      const acquire = h.deps.store.acquireLease.bind(h.deps.store);
      h.deps.store.acquireLease = async (...args) => {
        if (args[0] !== 'disruption') leases++;
        return acquire(...args);
      };
      await beginDrain(h.deps, OLD, start);
      expect(await step(h, OLD)).toBe('evicting');
      expect(evicted(h)).toHaveLength(4);
      toNextStep(h);
      expect(await step(h, OLD)).toBe('terminated');
      return leases;
    };
    const CONSOLIDATION: DrainStart = { cause: 'underutilized', message: 'delete', forceful: false };
    expect(await runs({ ...CONSOLIDATION, evictNow: true })).toBe(0);
    // Without it, the first step plans the pods under the provisioning lease.
    expect(await runs(CONSOLIDATION)).toBeGreaterThan(0);
  });

  it('pods that fit on an existing node need no replacement: evictions start at the first step', async () => {
    const h = await setup(inflate, { spare: true });
    await beginDrain(h.deps, OLD, DRIFT);
    expect(await step(h, OLD)).toBe('evicting');
    expect(h.cloud.launches).toBe(0);
    expect(replacements(h)).toEqual([]);
    expect(evicted(h)).toHaveLength(4);
    toNextStep(h);
    expect(await step(h, OLD)).toBe('terminated');
    expect(claim(h).state).toBe('Gone');
  });

  it('pods that go onto the room another in-flight claim gives back wait for that claim before they are evicted', async () => {
    const h = await setup(inflate);
    // A claim still starting whose two planned pods are gone: its 4 CPUs of room are free.
    const gone = [0, 1].map((i) => ({
      namespace: 'default',
      name: `gone-${i}`,
      uid: `gone-${i}`,
      requests: { cpu: 2000 },
    }));
    const starting = transition(
      newNodeClaim(
        {
          id: 'default-starting',
          nodePool: 'default',
          nodeClass: 'default',
          nodePoolHash: 'pool-hash',
          nodeClassHash: 'class-hash',
          requirements: [],
          labels: {},
          taints: [],
          startupTaints: [],
          options: [{ instanceType: 'c5.2xlarge', zone: 'us-west-2a', capacityType: 'spot', price: 0.1 }],
          pods: gone,
          requests: { cpu: 4000, pods: 2 },
        },
        h.clock.now() - 30_000,
      ),
      'Launched',
      h.clock.now() - 20_000,
      {
        instance: {
          instanceId: 'i-starting',
          instanceType: 'c5.2xlarge',
          zone: 'us-west-2a',
          capacityType: 'spot',
        },
      },
    );
    h.store.claims.set(starting.id, { ...starting, version: 1 });
    await beginDrain(h.deps, OLD, DRIFT);
    expect(await step(h, OLD)).toBe('replacing');
    expect(h.cloud.launches).toBe(0);
    expect(h.cluster.evictions).toEqual([]);
    h.cloud.instances.push({
      instanceId: 'i-starting',
      instanceType: 'c5.2xlarge',
      zone: 'us-west-2a',
      capacityType: 'spot',
      state: 'running',
      launchTime: h.clock.now() - 20_000,
      nodeClaimId: starting.id,
      nodePool: 'default',
      tags: { 'joiner.sh/nodeclaim': starting.id },
      clientToken: `token-${starting.id}`,
    });
    initializeLaunched(h);
    toNextStep(h);
    expect(await step(h, OLD)).toBe('evicting');
    expect(evicted(h)).toHaveLength(4);
    expect(h.cloud.launches).toBe(0);
  });

  it('the draining node is no capacity: its own free room does not count as a place for its pods', async () => {
    // Only the old node has room (it is half empty), so a replacement must be launched.
    const h = await setup(() => [work('web-1', { labels: { app: 'web' } })]);
    await beginDrain(h.deps, OLD, DRIFT);
    expect(await step(h, OLD)).toBe('replacing');
    expect(h.cloud.launches).toBe(1);
    expect(h.cluster.evictions).toEqual([]);
  });
});

describe('drain: PodDisruptionBudgets', () => {
  const pdb = {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web-pdb', namespace: 'default' },
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
    status: { disruptionsAllowed: 0 },
  };
  const webPods = () => [
    work('web-1', { labels: { app: 'web' } }),
    work('web-2', { labels: { app: 'web' } }),
    work('other-1', { labels: { app: 'other' } }),
  ];

  it('a refused eviction is retried a step later, never turned into a delete, with an event naming the PDB', async () => {
    const h = await setup(webPods, { spare: true });
    h.cluster.pdbs = [pdb];
    h.cluster.protectedPods.add('web-1');
    await beginDrain(h.deps, OLD, DRIFT);

    expect(await step(h, OLD)).toBe('evicting');
    expect(evicted(h).sort()).toEqual(['other-1', 'web-2']);
    expect(h.cluster.evictions).toContainEqual({
      namespace: 'default',
      name: 'web-1',
      result: 'blocked-by-pdb',
    });
    expect(claim(h).timers.drainStep).toBe(h.clock.now() + STEP_MS);
    expect(h.timers.scheduled).toContainEqual({ nodeClaimId: OLD, dueAt: h.clock.now() + STEP_MS });
    const blocked = h.cluster.events.filter((e) => e.reason === 'DisruptionBlocked');
    expect(blocked).toContainEqual(
      expect.objectContaining({
        involvedObject: expect.objectContaining({ kind: 'Pod', name: 'web-1' }),
        message: 'pdb default/web-pdb prevents pod evictions',
      }),
    );
    expect(blocked).toContainEqual(
      expect.objectContaining({
        involvedObject: expect.objectContaining({ kind: 'Node', name: OLD_NODE }),
        message: 'pdb default/web-pdb prevents pod evictions',
      }),
    );

    // An hour of refusals: retried at every step, never deleted, the node stays.
    for (let i = 0; i < 720; i++) {
      toNextStep(h);
      expect(await step(h, OLD)).toBe('evicting');
    }
    expect(h.cluster.deletions).toEqual([]);
    expect(h.cloud.terminated).toEqual([]);
    expect(podsOn(h, OLD_NODE)).toEqual(['web-1']);
    expect(h.cluster.evictions.filter((e) => e.name === 'web-1').length).toBeGreaterThanOrEqual(720);

    h.cluster.protectedPods.clear();
    toNextStep(h);
    expect(await step(h, OLD)).toBe('evicting');
    expect(evicted(h)).toContain('web-1');
    toNextStep(h);
    expect(await step(h, OLD)).toBe('terminated');
    expect(h.cluster.deletions).toEqual([]);
    expect(claim(h).state).toBe('Gone');
  });

  // Found by the chaos suite: one 503 among a wave's evictions failed the whole step, and with the
  // 10 s retry a spot drain lost the time its PDB-bounded waves needed.
  it('an eviction call that fails is tried again at the next step; the others of the wave stand', async () => {
    const h = await setup(webPods, { spare: true });
    const evict = h.cluster.evictPod.bind(h.cluster);
    let failing = true;
    h.cluster.evictPod = async (namespace, name) => {
      if (failing && name === 'web-1') throw new Error('evicting pod default/web-1 failed (HTTP 503)');
      return evict(namespace, name);
    };
    await beginDrain(h.deps, OLD, DRIFT);
    expect(await step(h, OLD)).toBe('evicting');
    expect(evicted(h).sort()).toEqual(['other-1', 'web-2']);
    failing = false;
    toNextStep(h);
    expect(await step(h, OLD)).toBe('evicting');
    expect(evicted(h)).toContain('web-1');
  });

  it('a step whose every eviction call fails fails with the error', async () => {
    const h = await setup(webPods, { spare: true });
    h.cluster.evictPod = async () => {
      throw new Error('HTTP 503');
    };
    await beginDrain(h.deps, OLD, DRIFT);
    await expect(step(h, OLD)).rejects.toThrow('HTTP 503');
  });

  it('without a PDB selecting the pod the event says the eviction was refused', async () => {
    const h = await setup(webPods, { spare: true });
    h.cluster.protectedPods.add('other-1');
    await beginDrain(h.deps, OLD, DRIFT);
    await step(h, OLD);
    expect(h.cluster.events).toContainEqual(
      expect.objectContaining({
        reason: 'DisruptionBlocked',
        message: 'eviction of pod default/other-1 refused',
      }),
    );
  });

  it('with a terminationGracePeriod, a protected pod is deleted only when forceAt less its grace is reached', async () => {
    const h = await setup(webPods, { spare: true });
    h.cluster.pdbs = [pdb];
    h.cluster.protectedPods.add('web-1');
    const forceAt = h.clock.now() + 10 * MIN;
    await beginDrain(h.deps, OLD, { ...EXPIRY, forceAt });
    // web-1 has the default grace of 30 s: it may be deleted from forceAt - 30 s.
    while (h.clock.now() + STEP_MS < forceAt - 30_000) {
      expect(await step(h, OLD)).toBe('evicting');
      toNextStep(h);
    }
    expect(h.cluster.deletions).toEqual([]);
    h.clock.advance(forceAt - 30_000 - h.clock.now());
    await step(h, OLD);
    expect(h.cluster.deletions).toEqual([{ namespace: 'default', name: 'web-1', gracePeriodSeconds: 30 }]);
  });
});

describe('drain: terminationGracePeriod (forceAt)', () => {
  const pinned = () => [
    work('web-1'),
    work('keep-1', { annotations: { 'karpenter.sh/do-not-disrupt': 'true' }, graceSeconds: 120 }),
  ];

  it('leaves a do-not-disrupt pod, deletes it with the grace left near forceAt, and terminates at forceAt', async () => {
    const h = await setup(pinned, { spare: true });
    h.cluster.podsLinger = true;
    const forceAt = h.clock.now() + 10 * MIN;
    await beginDrain(h.deps, OLD, { ...DRIFT, forceAt });

    expect(await step(h, OLD)).toBe('evicting');
    expect(evicted(h)).toEqual(['web-1']);
    expect(h.cluster.events).toContainEqual(
      expect.objectContaining({
        reason: 'DisruptionBlocked',
        message: 'pod default/keep-1 has do-not-disrupt annotation',
      }),
    );
    h.cluster.finishTerminating();

    // Until forceAt - 120 s (its grace) the pod stays untouched.
    h.clock.advance(forceAt - 121_000 - h.clock.now());
    expect(await step(h, OLD)).toBe('evicting');
    expect(h.cluster.deletions).toEqual([]);
    expect(evicted(h)).toEqual(['web-1']);

    // A step taken 50 s before forceAt deletes it with the 50 s left.
    h.clock.advance(71_000);
    expect(await step(h, OLD)).toBe('evicting');
    expect(h.cluster.deletions).toEqual([{ namespace: 'default', name: 'keep-1', gracePeriodSeconds: 50 }]);
    expect(claim(h).timers.drainStep).toBeLessThanOrEqual(forceAt);

    // The pod is still terminating at forceAt: the instance goes anyway.
    h.clock.advance(forceAt - h.clock.now());
    expect(podsOn(h, OLD_NODE)).toEqual(['keep-1']);
    expect(await step(h, OLD)).toBe('terminated');
    expect(h.cloud.terminated).toEqual([`i-${OLD}`]);
    expect(h.cluster.deletedNodes).toEqual([OLD_NODE]);
    expect(claim(h)).toMatchObject({ state: 'Gone', failure: { reason: 'Drifted' } });
  });

  it('a pod whose grace is shorter than the time left is deleted with its own grace', async () => {
    const h = await setup(
      () => [work('keep-2', { annotations: { 'karpenter.sh/do-not-disrupt': 'true' }, graceSeconds: 20 })],
      {
        spare: true,
      },
    );
    const forceAt = h.clock.now() + 5 * MIN;
    await beginDrain(h.deps, OLD, { ...DRIFT, forceAt });
    await step(h, OLD);
    h.clock.advance(forceAt - 25_000 - h.clock.now());
    await step(h, OLD);
    expect(h.cluster.deletions).toEqual([]);
    h.clock.advance(10_000);
    await step(h, OLD);
    expect(h.cluster.deletions).toEqual([{ namespace: 'default', name: 'keep-2', gracePeriodSeconds: 15 }]);
  });

  it('the step timer is never armed past forceAt', async () => {
    const h = await setup(() => [work('web-1', { graceSeconds: 0 })], { spare: true });
    h.cluster.protectedPods.add('web-1');
    const forceAt = h.clock.now() + 12_000;
    await beginDrain(h.deps, OLD, { ...DRIFT, forceAt });
    const times: number[] = [];
    while ((await step(h, OLD)) === 'evicting') {
      times.push(claim(h).timers.drainStep as number);
      toNextStep(h);
    }
    const start = forceAt - 12_000;
    expect(times).toEqual([start + 5_000, start + 10_000, forceAt]);
    expect(h.clock.now()).toBe(forceAt);
    expect(claim(h).state).toBe('Gone');
    expect(podsOn(h, OLD_NODE)).toEqual(['web-1']);
  });

  // A terminationGracePeriod shorter than the replacement wait: pods still get their graceful
  // shutdown before the instance goes (found by this test: they used to be deleted only once evicting).
  it('deletes the pods at forceAt less their grace even while the replacement is still starting', async () => {
    const h = await setup(() => [work('web-1', { graceSeconds: 30 })]);
    const forceAt = h.clock.now() + 2 * MIN;
    await beginDrain(h.deps, OLD, { ...DRIFT, forceAt });
    expect(await step(h, OLD)).toBe('replacing');
    // The replacement never initializes.
    h.clock.advance(forceAt - 30_000 - h.clock.now());
    await step(h, OLD);
    expect(h.cluster.deletions).toEqual([{ namespace: 'default', name: 'web-1', gracePeriodSeconds: 30 }]);
  });
});

describe('drain: a forceful drain near its deadline evicts while its replacement comes', () => {
  const SPOT: DrainStart = {
    cause: 'interrupted',
    message: 'spot interruption',
    forceful: true,
  };
  const pdb = {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web-pdb', namespace: 'default' },
    spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } },
    status: { disruptionsAllowed: 1 },
  };

  // Karpenter drains an interrupted node at once; waiting for the replacement to be initialized
  // (about 1.5 min) left the PDB-bounded waves no time before the pods were deleted at 90 s.
  it('a spot interruption launches the replacement and evicts at the first step, PDBs respected', async () => {
    const h = await setup(() => [
      work('web-1', { labels: { app: 'web' } }),
      work('web-2', { labels: { app: 'web' } }),
      work('other-1', { labels: { app: 'other' } }),
    ]);
    h.cluster.pdbs = [pdb];
    h.cluster.protectedPods.add('web-2');
    const forceAt = h.clock.now() + 2 * MIN;
    await beginDrain(h.deps, OLD, { ...SPOT, forceAt, replaceBy: forceAt - 30_000 });

    expect(await step(h, OLD)).toBe('replacing');
    expect(h.cloud.launches).toBe(1);
    expect(replacements(h)[0]?.state).toBe('Launched');
    expect(evicted(h).sort()).toEqual(['other-1', 'web-1']);
    expect(h.cluster.evictions).toContainEqual({
      namespace: 'default',
      name: 'web-2',
      result: 'blocked-by-pdb',
    });
    expect(h.cluster.deletions).toEqual([]);

    // The budget still refuses: tried again at each step, the replacement is not launched twice.
    toNextStep(h);
    expect(await step(h, OLD)).toBe('replacing');
    expect(h.cloud.launches).toBe(1);
    expect(h.cluster.evictions.filter((e) => e.name === 'web-2').length).toBe(2);

    // The evicted pod runs again elsewhere: the budget lets web-2 go, and the drain ends.
    h.cluster.protectedPods.clear();
    toNextStep(h);
    expect(await step(h, OLD)).toBe('replacing');
    expect(evicted(h)).toContain('web-2');
    toNextStep(h);
    expect(await step(h, OLD)).toBe('terminated');
    expect(h.cluster.deletions).toEqual([]);
    expect(claim(h)).toMatchObject({ state: 'Gone' });
  });

  // The chaos suite's crash after the taint: the delivery that started the drain died before it
  // scheduled the first step, and the redelivery found the drain running; the step waited for the
  // sweep, a minute of a 2-minute notice (found by the chaos suite: PDBs broken at the deadline).
  it('a redelivered start whose first step is due schedules it again', async () => {
    const h = await setup(inflate);
    const forceAt = h.clock.now() + 2 * MIN;
    await beginDrain(h.deps, OLD, { ...SPOT, forceAt });
    h.timers.scheduled.length = 0;
    h.clock.advance(1_000);
    expect((await beginDrain(h.deps, OLD, { ...SPOT, forceAt }))?.state).toBe('Draining');
    expect(h.timers.scheduled).toEqual([{ nodeClaimId: OLD, dueAt: h.clock.now() - 1_000 }]);
    // Once the step ran (and armed the next one), a redelivery schedules nothing more.
    expect(await step(h, OLD)).toBe('replacing');
    h.timers.scheduled.length = 0;
    await beginDrain(h.deps, OLD, { ...SPOT, forceAt });
    expect(h.timers.scheduled).toEqual([]);
  });

  it('a forceful drain with a distant deadline keeps replacement first until the eviction window', async () => {
    const h = await setup(inflate);
    const forceAt = h.clock.now() + 10 * MIN;
    await beginDrain(h.deps, OLD, { ...EXPIRY, forceAt });
    // The default window is 5 min: until then, nothing is evicted while the replacement starts.
    while (h.clock.now() + STEP_MS < forceAt - 5 * MIN) {
      expect(await step(h, OLD)).toBe('replacing');
      toNextStep(h);
    }
    expect(h.cluster.evictions).toEqual([]);
    h.clock.advance(forceAt - 5 * MIN - h.clock.now());
    expect(await step(h, OLD)).toBe('replacing');
    expect(evicted(h)).toHaveLength(4);
    expect(h.cloud.launches).toBe(1);
  });

  it('a voluntary drain with a deadline still waits for its replacement', async () => {
    const h = await setup(inflate);
    await beginDrain(h.deps, OLD, { ...DRIFT, forceAt: h.clock.now() + 2 * MIN });
    expect(await step(h, OLD)).toBe('replacing');
    expect(h.cluster.evictions).toEqual([]);
  });
});

describe('drain: pods that cannot be rescheduled', () => {
  // Seed 002's only Provisioner launches spot capacity: no NodePool allows these pods.
  const onDemandOnly = () => [
    work('od-1', { nodeSelector: { 'karpenter.sh/capacity-type': 'on-demand' } }),
    work('od-2', { nodeSelector: { 'karpenter.sh/capacity-type': 'on-demand' } }),
  ];

  it('a voluntary drain is cancelled: node untainted, claim Initialized again with the reason', async () => {
    const h = await setup(onDemandOnly);
    await beginDrain(h.deps, OLD, DRIFT);
    expect(isTainted(h, OLD_NODE)).toBe(true);
    expect(await step(h, OLD)).toBe('cancelled');
    expect(isTainted(h, OLD_NODE)).toBe(false);
    const c = claim(h);
    expect(c.state).toBe('Initialized');
    expect(c.disruption).toBeUndefined();
    expect(c.timers.drainStep).toBeUndefined();
    expect(c.blocked?.reason).toMatch(/^pods cannot be rescheduled: default\/od-1, default\/od-2: /);
    expect(h.cluster.evictions).toEqual([]);
    expect(h.cloud.launches).toBe(0);
    expect(h.cloud.terminated).toEqual([]);
    expect(h.cluster.events).toContainEqual(
      expect.objectContaining({
        reason: 'DisruptionBlocked',
        involvedObject: expect.objectContaining({ name: OLD_NODE }),
      }),
    );
    // A step delivered late finds nothing to do.
    expect(await step(h, OLD)).toBe('not-draining');
    expect(claim(h).state).toBe('Initialized');
  });

  it('a forceful drain (expired) evicts anyway once replaceBy has passed', async () => {
    const h = await setup(onDemandOnly);
    await beginDrain(h.deps, OLD, { ...EXPIRY, replaceBy: h.clock.now() + MIN });
    h.clock.advance(MIN);
    expect(await step(h, OLD)).toBe('evicting');
    expect(evicted(h).sort()).toEqual(['od-1', 'od-2']);
    expect(isTainted(h, OLD_NODE)).toBe(true);
    toNextStep(h);
    expect(await step(h, OLD)).toBe('terminated');
    expect(claim(h)).toMatchObject({ state: 'Gone', failure: { reason: 'Expired' } });
  });

  it('a forceful drain waits for a replacement that is starting until replaceBy, then evicts without it', async () => {
    const h = await setup(inflate);
    const replaceBy = h.clock.now() + MIN;
    await beginDrain(h.deps, OLD, { ...EXPIRY, replaceBy });
    while (h.clock.now() < replaceBy) {
      expect(await step(h, OLD)).toBe('replacing');
      expect(claim(h).timers.drainStep).toBeLessThanOrEqual(replaceBy);
      toNextStep(h);
    }
    expect(h.cluster.evictions).toEqual([]);
    expect(h.cloud.launches).toBe(1);
    expect(await step(h, OLD)).toBe('evicting');
    expect(evicted(h)).toHaveLength(4);
  });

  it('a voluntary drain whose replacement is not initialized by replaceBy is cancelled', async () => {
    const h = await setup(inflate);
    const replaceBy = h.clock.now() + 30_000;
    await beginDrain(h.deps, OLD, { ...DRIFT, replaceBy });
    while (h.clock.now() < replaceBy) {
      expect(await step(h, OLD)).toBe('replacing');
      toNextStep(h);
    }
    expect(await step(h, OLD)).toBe('cancelled');
    expect(claim(h).blocked?.reason).toBe('replacement capacity was not initialized in time');
    expect(isTainted(h, OLD_NODE)).toBe(false);
    expect(h.cluster.evictions).toEqual([]);
  });

  // The step that turns a forceful drain to `evicting` after replaceBy re-arms a step later (found by
  // this test: it used the record read at its start and re-armed at replaceBy, already past).
  it('after evicting past replaceBy the next step is due a step later, not in the past', async () => {
    const h = await setup(onDemandOnly);
    await beginDrain(h.deps, OLD, { ...EXPIRY, replaceBy: h.clock.now() + MIN });
    h.clock.advance(2 * MIN);
    expect(await step(h, OLD)).toBe('evicting');
    expect(claim(h).timers.drainStep).toBe(h.clock.now() + STEP_MS);
  });

  // A drain whose beginDrain crashed between the claim write and the taint: the step taints the
  // node, and a cancellation must remove that taint (found by this test: it read the node before).
  it('a cancelled drain whose node was tainted by the step itself is untainted', async () => {
    const h = await setup(onDemandOnly);
    h.cluster.failNodePatches = 1;
    await expect(beginDrain(h.deps, OLD, DRIFT)).rejects.toThrow(/connection reset/);
    expect(claim(h).state).toBe('Draining');
    expect(isTainted(h, OLD_NODE)).toBe(false);
    expect(await step(h, OLD)).toBe('cancelled');
    expect(claim(h).state).toBe('Initialized');
    expect(isTainted(h, OLD_NODE)).toBe(false);
  });
});

describe('drain: the same step delivered twice, and crashes', () => {
  it('a step whose pods are all listed on a replacement still on its way waits without a provisioning run', async () => {
    const h = await setup(inflate);
    const runs: string[] = [];
    const acquire = h.store.acquireLease.bind(h.store);
    h.store.acquireLease = async (name, holder, now, ttlMs) => {
      runs.push(name);
      return acquire(name, holder, now, ttlMs);
    };
    await beginDrain(h.deps, OLD, DRIFT);
    expect(await step(h, OLD)).toBe('replacing');
    const planned = runs.filter((n) => n !== 'disruption').length;
    expect(planned).toBeGreaterThan(0);
    toNextStep(h);
    expect(await step(h, OLD)).toBe('replacing');
    toNextStep(h);
    expect(await step(h, OLD)).toBe('replacing');
    expect(runs.filter((n) => n !== 'disruption')).toHaveLength(planned);
    expect(h.cloud.launches).toBe(1);
    // Its replacement up, the next step evicts onto it without planning the cluster again (as
    // Karpenter deletes a command's candidates once its replacements are initialized).
    initializeLaunched(h);
    toNextStep(h);
    expect(await step(h, OLD)).toBe('evicting');
    expect(runs.filter((n) => n !== 'disruption')).toHaveLength(planned);
    expect(evicted(h).sort()).toEqual(['inflate-0', 'inflate-1', 'inflate-2', 'inflate-3']);
  });

  it('a waiting step reads the replacements it remembered, not every nodeclaim of the cluster', async () => {
    const h = await setup(inflate);
    const listed: string[] = [];
    const list = h.store.listNodeClaims.bind(h.store);
    h.store.listNodeClaims = async (states) => {
      listed.push((states ?? []).join(','));
      return list(states);
    };
    await beginDrain(h.deps, OLD, DRIFT);
    expect(await step(h, OLD)).toBe('replacing');
    const launched = replacements(h).map((c) => c.id);
    expect(launched).toHaveLength(1);
    expect(claim(h).disruption?.replacements).toEqual(launched);
    const before = listed.length;
    toNextStep(h);
    expect(await step(h, OLD)).toBe('replacing');
    toNextStep(h);
    expect(await step(h, OLD)).toBe('replacing');
    expect(listed).toHaveLength(before);
    // Its replacement up, the next step evicts, still without listing every nodeclaim.
    initializeLaunched(h);
    toNextStep(h);
    expect(await step(h, OLD)).toBe('evicting');
    expect(listed).toHaveLength(before);
  });

  it('a waiting step reads its own claim once: taking the step and re-arming it write from that read', async () => {
    const h = await setup(inflate);
    await beginDrain(h.deps, OLD, DRIFT);
    expect(await step(h, OLD)).toBe('replacing');
    const remembered = claim(h).disruption?.replacements ?? [];
    expect(remembered).toHaveLength(1);
    const reads: string[] = [];
    const get = h.store.getNodeClaim.bind(h.store);
    h.store.getNodeClaim = async (id) => {
      reads.push(id);
      return get(id);
    };
    toNextStep(h);
    expect(await step(h, OLD)).toBe('replacing');
    // The drain's claim at the start of the step, and the replacement it waits for.
    expect(reads.sort()).toEqual([OLD, ...remembered].sort());
    // Its node, already tainted by the first step, is read once and not patched again.
    const nodeReads: string[] = [];
    const getNode = h.cluster.getNode.bind(h.cluster);
    h.cluster.getNode = async (name) => {
      nodeReads.push(name);
      return getNode(name);
    };
    const patched = h.cluster.nodePatches.length;
    toNextStep(h);
    expect(await step(h, OLD)).toBe('replacing');
    expect(nodeReads).toHaveLength(1);
    expect(h.cluster.nodePatches.length).toBe(patched);
    h.cluster.getNode = getNode;
    const due = claim(h).timers.drainStep;
    expect(due).toBeGreaterThan(h.clock.now());
    expect(h.timers.scheduled).toContainEqual({ nodeClaimId: OLD, dueAt: due });
    // Another delivery took the step after this one read the claim: the write from the stale read
    // fails, the claim is read again and the step is left to the other delivery.
    toNextStep(h);
    const stale = claim(h);
    const other = await h.store.updateNodeClaim({
      ...stale,
      timers: { ...stale.timers, drainStep: h.clock.now() + 5_000 },
    });
    let first = true;
    h.store.getNodeClaim = async (id) => {
      if (id !== OLD || !first) return get(id);
      first = false;
      return stale;
    };
    expect(await step(h, OLD)).toBe('busy');
    expect(claim(h)).toEqual(other);
  });

  it('two steps in a row at the same time launch one replacement and evict each pod once', async () => {
    const h = await setup(inflate);
    h.cluster.podsLinger = true;
    await beginDrain(h.deps, OLD, DRIFT);
    expect(await step(h, OLD)).toBe('replacing');
    // The second delivery finds the step taken (its timer moved a step later) and does nothing.
    expect(await step(h, OLD)).toBe('busy');
    expect(h.cloud.launches).toBe(1);
    expect(replacements(h)).toHaveLength(1);

    initializeLaunched(h);
    toNextStep(h);
    expect(await step(h, OLD)).toBe('evicting');
    expect(await step(h, OLD)).toBe('busy');
    expect(h.cluster.evictions.map((e) => e.name).sort()).toEqual([
      'inflate-0',
      'inflate-1',
      'inflate-2',
      'inflate-3',
    ]);
    h.cluster.finishTerminating();
    toNextStep(h);
    expect(await step(h, OLD)).toBe('terminated');
    expect(await step(h, OLD)).toBe('not-draining');
    expect(h.cloud.terminated).toEqual([`i-${OLD}`]);
    expect(h.cloud.launches).toBe(1);
  });

  it('two steps at once launch at most one replacement', async () => {
    const h = await setup(inflate);
    await beginDrain(h.deps, OLD, DRIFT);
    const states = await Promise.all([step(h, OLD), step(h, OLD)]);
    expect(states.sort()).toEqual(['busy', 'replacing']);
    expect(h.cloud.launches).toBe(1);
    expect(replacements(h)).toHaveLength(1);
    toNextStep(h);
    await Promise.all([step(h, OLD), step(h, OLD)]);
    expect(h.cloud.launches).toBe(1);
  });

  // Two deliveries of the same step at once: one takes the step (a conditional write), the other
  // does nothing (found by this test: both used to send the whole wave).
  it('two steps at once evict each pod at most once', async () => {
    const h = await setup(inflate, { spare: true });
    h.cluster.podsLinger = true;
    await beginDrain(h.deps, OLD, DRIFT);
    await Promise.all([step(h, OLD), step(h, OLD)]);
    const names = h.cluster.evictions.map((e) => e.name).sort();
    expect(names).toEqual(['inflate-0', 'inflate-1', 'inflate-2', 'inflate-3']);
  });

  it('two steps at once that finish the drain terminate the instance once and leave the claim Gone', async () => {
    const h = await setup(inflate, { spare: true });
    await beginDrain(h.deps, OLD, DRIFT);
    await step(h, OLD);
    toNextStep(h);
    const states = await Promise.all([step(h, OLD), step(h, OLD)]);
    expect(states).toContain('terminated');
    expect(claim(h).state).toBe('Gone');
    expect(h.cloud.instances.map((i) => i.instanceId)).not.toContain(`i-${OLD}`);
  });

  it('a store failure on the write that starts evicting: the next step evicts and finishes', async () => {
    const h = await setup(inflate, { spare: true });
    await beginDrain(h.deps, OLD, DRIFT);
    let failures = 0;
    h.store.beforeUpdate = (next, stored) => {
      if (
        next.disruption?.phase === 'evicting' &&
        stored?.disruption?.phase === 'replacing' &&
        failures === 0
      ) {
        failures++;
        throw new Error('ProvisionedThroughputExceededException');
      }
    };
    await expect(step(h, OLD)).rejects.toThrow(/ProvisionedThroughput/);
    expect(claim(h)).toMatchObject({ state: 'Draining', disruption: { phase: 'replacing' } });
    expect(h.cluster.evictions).toEqual([]);
    // The failed step had taken its turn: the next one comes a step later.
    expect(await step(h, OLD)).toBe('busy');
    toNextStep(h);
    expect(await step(h, OLD)).toBe('evicting');
    expect(evicted(h)).toHaveLength(4);
    toNextStep(h);
    expect(await step(h, OLD)).toBe('terminated');
    expect(claim(h).state).toBe('Gone');
    expect(h.cloud.terminated).toEqual([`i-${OLD}`]);
  });

  it('a crash while terminating leaves a termination check due that terminates the instance', async () => {
    const h = await setup(inflate, { spare: true });
    await beginDrain(h.deps, OLD, DRIFT);
    await step(h, OLD);
    toNextStep(h);
    h.cloud.throwOnTerminate = 1;
    await expect(step(h, OLD)).rejects.toThrow(/Request limit/);
    expect(claim(h).state).toBe('Terminating');
    expect(h.cloud.instances.map((i) => i.instanceId)).toContain(`i-${OLD}`);
    // The claim is no longer draining: another step leaves it to its termination check.
    expect(await step(h, OLD)).toBe('not-draining');
    const due = claim(h).timers.terminationCheck;
    expect(due).toBeLessThanOrEqual(h.clock.now());
    // While the retire that set it may still run, a due check leaves it alone (no second terminate).
    await actOnDueTimers(h.deps as unknown as SweepDeps, OLD);
    expect(claim(h).state).toBe('Terminating');
    h.clock.advance(TERMINATION_SETTLE_MS);
    // Only the retire path runs for a due termination check (store, cloud, cluster, clock, log).
    await actOnDueTimers(h.deps as unknown as SweepDeps, OLD);
    expect(claim(h)).toMatchObject({ state: 'Gone', failure: { reason: 'Drifted' } });
    expect(h.cloud.instances.map((i) => i.instanceId)).not.toContain(`i-${OLD}`);
    expect(h.cluster.deletedNodes).toContain(OLD_NODE);
  });

  it('a node already gone ends the drain: the instance is terminated and the claim retired', async () => {
    const h = await setup(inflate, { spare: true });
    await beginDrain(h.deps, OLD, EXPIRY);
    h.cluster.nodes = h.cluster.nodes.filter((n) => n.metadata.name !== OLD_NODE);
    expect(await step(h, OLD)).toBe('terminated');
    expect(h.cloud.terminated).toEqual([`i-${OLD}`]);
    expect(claim(h)).toMatchObject({ state: 'Gone', failure: { reason: 'Expired' } });
  });
});

describe('drain: eviction order', () => {
  const tolerateDisrupted: Toleration[] = [
    { key: 'karpenter.sh/disrupted', operator: 'Exists', effect: 'NoSchedule' },
  ];
  const mixed = () => [
    work('crit-1', { priorityClassName: 'system-node-critical' }),
    work('ds-1', { owner: 'DaemonSet' }),
    work('web-1'),
    work('web-2'),
    work('tolerant-1', { tolerations: tolerateDisrupted }),
    work('mirror-1', { owner: 'Node', annotations: { 'kubernetes.io/config.mirror': 'abc' } }),
  ];

  it('evicts workloads, then DaemonSet pods, then critical pods; tolerating and mirror pods are not waited for', async () => {
    const h = await setup(mixed, { spare: true });
    await beginDrain(h.deps, OLD, DRIFT);
    expect(await step(h, OLD)).toBe('evicting');
    expect(evicted(h).sort()).toEqual(['web-1', 'web-2']);
    toNextStep(h);
    expect(await step(h, OLD)).toBe('evicting');
    expect(evicted(h).slice(2)).toEqual(['ds-1']);
    toNextStep(h);
    expect(await step(h, OLD)).toBe('evicting');
    expect(evicted(h).slice(3)).toEqual(['crit-1']);
    toNextStep(h);
    expect(await step(h, OLD)).toBe('terminated');
    expect(podsOn(h, OLD_NODE).sort()).toEqual(['mirror-1', 'tolerant-1']);
    expect(h.cluster.evictions.map((e) => e.name)).not.toContain('tolerant-1');
    expect(h.cluster.evictions.map((e) => e.name)).not.toContain('mirror-1');
    expect(claim(h).state).toBe('Gone');
  });

  it('the next wave waits until every pod of the wave before it is gone, terminating ones included', async () => {
    const h = await setup(mixed, { spare: true });
    h.cluster.podsLinger = true;
    await beginDrain(h.deps, OLD, DRIFT);
    await step(h, OLD);
    expect(evicted(h).sort()).toEqual(['web-1', 'web-2']);
    for (let i = 0; i < 3; i++) {
      toNextStep(h);
      expect(await step(h, OLD)).toBe('evicting');
    }
    // Terminating pods are not evicted again and hold the DaemonSet wave back.
    expect(h.cluster.evictions.map((e) => e.name).sort()).toEqual(['web-1', 'web-2']);
    h.cluster.finishTerminating();
    toNextStep(h);
    await step(h, OLD);
    expect(h.cluster.evictions.map((e) => e.name).slice(2)).toEqual(['ds-1']);
  });

  it('a DaemonSet pod tolerating the disrupted taint is neither evicted nor waited for', async () => {
    const h = await setup(
      () => [work('web-1'), work('ds-tolerant', { owner: 'DaemonSet', tolerations: tolerateDisrupted })],
      {
        spare: true,
      },
    );
    await beginDrain(h.deps, OLD, DRIFT);
    await step(h, OLD);
    toNextStep(h);
    expect(await step(h, OLD)).toBe('terminated');
    expect(h.cluster.evictions.map((e) => e.name)).toEqual(['web-1']);
  });

  // As Karpenter, the drain stops waiting for a pod a minute past its deletion timestamp (e.g. a
  // finalizer), so a drain without forceAt does not stay open for ever (found by this test).
  it('stops waiting for a pod stuck terminating a minute past its deletion timestamp', async () => {
    const h = await setup(() => [work('web-1')], { spare: true });
    h.cluster.podsLinger = true;
    await beginDrain(h.deps, OLD, DRIFT);
    await step(h, OLD);
    expect(evicted(h)).toEqual(['web-1']);
    // The pod never goes: its deletion timestamp (30 s grace) is passed by more than a minute.
    h.clock.advance(2 * MIN);
    expect(await step(h, OLD)).toBe('terminated');
  });
});

describe('drain: not draining', () => {
  it('a claim that is not Draining is left alone, and a stale drain step timer is cleared', async () => {
    const h = await setup(inflate);
    const c = claim(h);
    h.store.claims.set(OLD, { ...c, timers: { drainStep: h.clock.now() } });
    expect(await step(h, OLD)).toBe('not-draining');
    expect(claim(h).timers.drainStep).toBeUndefined();
    expect(claim(h).state).toBe('Initialized');
    expect(h.cluster.evictions).toEqual([]);
    expect(await step(h, 'default-missing')).toBe('not-draining');
  });

  it('beginDrain twice starts once; a forceful cause takes over a voluntary drain', async () => {
    const h = await setup(inflate);
    await beginDrain(h.deps, OLD, DRIFT);
    await beginDrain(h.deps, OLD, DRIFT);
    expect(h.cluster.events.filter((e) => e.reason === 'DisruptionTerminating')).toHaveLength(1);
    expect(h.cluster.nodePatches).toHaveLength(1);
    const forceAt = h.clock.now() + 10 * MIN;
    await beginDrain(h.deps, OLD, { ...EXPIRY, forceAt });
    expect(claim(h).disruption).toMatchObject({
      cause: 'expired',
      forceful: true,
      forceAt,
      phase: 'replacing',
    });
  });
});

describe('drain: the steps of one round share one provisioning run', () => {
  it('two drains due together read and plan the cluster once, and both wait for what that run launched', async () => {
    const h = await setup(inflate);
    const OTHER = 'default-other';
    runningNode(h, { claimId: OTHER, nodeName: 'ip-other', instanceType: 'c5.2xlarge' });
    h.cluster.pods.push(
      ...[0, 1, 2, 3].map((i) => boundTo(work(`other-${i}`, { owner: 'ReplicaSet' }), 'ip-other')),
    );
    await beginDrain(h.deps, OLD, DRIFT);
    await beginDrain(h.deps, OTHER, DRIFT);
    let reads = 0;
    const read = h.cluster.listPendingAndBoundPods.bind(h.cluster);
    h.cluster.listPendingAndBoundPods = async () => {
      reads++;
      return read();
    };
    h.clock.advance(STEP_MS);
    const due = [claim(h, OLD), claim(h, OTHER)];
    const outcome = await runDisruption(h.deps, due, { full: false });
    expect(outcome.steps).toBe(2);
    // One run planned the pods of both draining nodes; the second step used its result.
    expect(reads).toBe(1);
    const launched = replacements(h).filter((c) => c.id !== OTHER);
    expect(launched.flatMap((c) => c.pods.map((p) => p.name)).sort()).toEqual([
      'inflate-0',
      'inflate-1',
      'inflate-2',
      'inflate-3',
      'other-0',
      'other-1',
      'other-2',
      'other-3',
    ]);
    expect(claim(h, OLD).disruption?.phase).toBe('replacing');
    expect(claim(h, OTHER).disruption?.phase).toBe('replacing');
    expect(h.cluster.evictions).toEqual([]);
  });
});
