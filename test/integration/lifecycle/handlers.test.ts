/**
 * joiner's lifecycle, interruption and disruption handlers in the simulated cloud with the real
 * adapters: spot interruption delivered by the simulated EC2 through EventBridge and SQS, the
 * same lifecycle event twice and twice at once, poison messages, the sweep schedule.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { handleLifecycleEvent } from '../../../functions/core/lifecycle/handle-lifecycle-event.js';
import { provision } from '../../../functions/core/provisioning/provision.js';
import { runSweep } from '../../../functions/core/sweep/run-sweep.js';
import type { SweepDeps } from '../../../functions/core/sweep/sweep-deps.js';
import { sweepDepsFrom } from '../../../functions/core/sweep/sweep-deps-from.js';
import { createDisruptionHandler } from '../../../functions/handlers/disruption.js';
import { createInterruptionHandler } from '../../../functions/handlers/interruption.js';
import { createLifecycleHandler } from '../../../functions/handlers/lifecycle.js';
import { type Dependencies, dependenciesFromEnv } from '../../../functions/handlers/runtime/dependencies.js';
import { createLambdaContext } from '../../../functions/simulator/runner/lambda-context.js';
import { sqsEvent } from '../../builders/sqs-event.js';
import { type SimProvisioning, startWithSeed } from '../provisioning/sim-harness.js';

let sim: SimProvisioning | undefined;

afterEach(async () => {
  await sim?.cloud.close();
  sim = undefined;
});

const lambdaEnv = { region: 'us-west-2', account: '123456789012', functionPrefix: 'joiner' };

/** Starts seed 004, provisions it and brings every claim to Initialized (hints as the webhook sends them). */
async function runningCluster(): Promise<{ s: SimProvisioning; ports: Dependencies; deps: SweepDeps }> {
  const s = await startWithSeed('examples/seed-004');
  sim = s;
  const ports = dependenciesFromEnv(s.cloud.env(), { clock: s.cloud.clock, log: s.log });
  const deps = sweepDepsFrom(ports);
  await provision(ports, { hints: [] });
  for (const step of [50_000, 20_000]) {
    await s.cloud.clock.advance(step);
    await s.cloud.kube.idle();
    for (const node of await ports.cluster.listNodes()) {
      await handleLifecycleEvent(deps, { detailType: 'NodeReady', detail: { nodeName: node.metadata.name } });
    }
  }
  return { s, ports, deps };
}

function envelope(detailType: string, detail: unknown, source = 'joiner') {
  return {
    id: `e-${detailType}`,
    'detail-type': detailType,
    source,
    time: new Date(0).toISOString(),
    detail,
  };
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await sim?.cloud.runner.idle();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('handlers in the simulated cloud', () => {
  it('spot interruption: replacement first, then the drain, the instance terminated and the claim Gone', async () => {
    const { s, ports, deps } = await runningCluster();
    s.cloud.runner.setHandler(
      'interruption',
      createInterruptionHandler(() => ports),
    );
    const claim = (await ports.store.listNodeClaims(['Initialized'])).find(
      (c) => c.instance?.capacityType === 'spot',
    );
    if (!claim?.instance || !claim.nodeName) throw new Error('no initialized spot claim');
    const nodeName = claim.nodeName;
    const workloads = async (node: string) =>
      (await ports.cluster.listPodsOnNode(node)).filter(
        (p) => !p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet'),
      );
    const podsBefore = await workloads(nodeName);
    expect(podsBefore.length).toBeGreaterThan(0);

    s.cloud.ec2.interruptSpot(claim.instance.instanceId);
    await waitFor(
      async () => (await ports.store.getNodeClaim(claim.id))?.state === 'Draining',
      'the claim to be Draining',
    );
    // The drain's first write is the claim's state; the node's taint follows it.
    const tainted = async () =>
      ((await ports.cluster.getNode(nodeName))?.spec?.taints ?? []).some(
        (t) => t.key === 'karpenter.sh/disrupted' && t.effect === 'NoSchedule',
      );
    await waitFor(tainted, 'the node to carry the karpenter.sh/disrupted taint');
    const unavailable = await ports.store.listUnavailableOfferings(s.cloud.clock.now());
    expect(unavailable).toContainEqual(
      expect.objectContaining({
        instanceType: claim.instance.instanceType,
        zone: claim.instance.zone,
        capacityType: 'spot',
      }),
    );

    // First step: the replacement is launched for the pods; nothing is evicted yet.
    await runSweep(deps);
    const uids = new Set(podsBefore.map((p) => p.metadata.uid));
    const replacement = (await ports.store.listNodeClaims(['Pending', 'Launched'])).find((c) =>
      c.pods.some((p) => uids.has(p.uid)),
    );
    expect(replacement?.state).toBe('Launched');
    expect((await workloads(nodeName)).length).toBe(podsBefore.length);

    // The replacement registers and initializes; then the pods are evicted and land on it.
    for (const step of [50_000, 20_000]) {
      await s.cloud.clock.advance(step);
      await s.cloud.kube.idle();
      for (const n of await ports.cluster.listNodes()) {
        await handleLifecycleEvent(deps, { detailType: 'NodeReady', detail: { nodeName: n.metadata.name } });
      }
    }
    expect((await ports.store.getNodeClaim(replacement?.id ?? ''))?.state).toBe('Initialized');
    await runSweep(deps);
    await s.cloud.clock.advance(5_000);
    await s.cloud.kube.idle();
    await runSweep(deps);

    const gone = await ports.store.getNodeClaim(claim.id);
    expect(gone?.state).toBe('Gone');
    expect(gone?.failure?.reason).toBe('SpotInterrupted');
    expect(['shutting-down', 'terminated']).toContain(
      s.cloud.ec2.state.instances.get(claim.instance.instanceId)?.state,
    );
    expect(await ports.cluster.getNode(nodeName)).toBeUndefined();
    await s.cloud.kube.scheduleNow();
    const moved = replacement?.nodeName ?? (await ports.store.getNodeClaim(replacement?.id ?? ''))?.nodeName;
    expect((await workloads(moved ?? '')).length).toBe(podsBefore.length);
    expect(await ports.cluster.listPendingPods()).toEqual([]);
    expect(s.log.messages()).toContain('interruption: draining node');
  });

  it('the same registration twice, and twice at once, registers once; a poison message fails alone', async () => {
    const s = await startWithSeed('examples/seed-004');
    sim = s;
    const ports = dependenciesFromEnv(s.cloud.env(), { clock: s.cloud.clock, log: s.log });
    await provision(ports, { hints: [] });
    await s.cloud.clock.advance(45_000);
    await s.cloud.kube.idle();
    const nodes = await ports.cluster.listNodes();
    expect(nodes.length).toBeGreaterThan(0);
    const handler = createLifecycleHandler(() => ports);
    const event = sqsEvent([
      ...nodes.map((n) => envelope('NodeRegistered', { nodeName: n.metadata.name })),
      '{"not": "an event"',
    ]);
    const context = () => createLambdaContext(lambdaEnv, 'lifecycle', 30_000);
    const [first, second] = await Promise.all([handler(event, context()), handler(event, context())]);
    const third = await handler(event, context());
    const poison = `m-${nodes.length}`;
    for (const result of [first, second, third])
      expect(result.batchItemFailures).toEqual([{ itemIdentifier: poison }]);
    // A batch of nothing but poison is reported item by item (the handler does not throw), and an
    // empty batch is no failure.
    expect((await handler(sqsEvent(['x', '{}']), context())).batchItemFailures).toEqual([
      { itemIdentifier: 'm-0' },
      { itemIdentifier: 'm-1' },
    ]);
    expect((await handler({ Records: [] }, context())).batchItemFailures).toEqual([]);

    const claims = await ports.store.listNodeClaims();
    const names = nodes.map((n) => n.metadata.name).sort();
    expect(claims.flatMap((c) => (c.nodeName ? [c.nodeName] : [])).sort()).toEqual(names);
    for (const c of claims.filter((c) => c.nodeName))
      expect(['Registered', 'Initialized']).toContain(c.state);
    const registered = s.log.lines.filter((l) => l.message === 'registered nodeclaim');
    expect(registered).toHaveLength(nodes.length);
  });

  it('the sweep schedule republishes unschedulable pods and the timers queue retires a timed-out claim', async () => {
    const s = await startWithSeed('examples/seed-004');
    sim = s;
    const ports = dependenciesFromEnv(s.cloud.env(), { clock: s.cloud.clock, log: s.log });
    const handler = createDisruptionHandler(() => ports);
    const context = () => createLambdaContext(lambdaEnv, 'disruption', 60_000);
    const scheduled = {
      ...envelope('Scheduled Event', {}, 'aws.events'),
      account: '1',
      region: 'us-west-2',
      resources: [],
      version: '0',
    };
    await handler(scheduled as never, context());
    expect(
      s.log.lines.find((l) => l.message === 'found unschedulable pod(s) in the sweep')?.fields,
    ).toMatchObject({ count: 21 });

    const result = await provision(ports, { hints: [] });
    const victim = result.launched[0];
    if (!victim) throw new Error('nothing launched');
    const instance = s.cloud.ec2.state.instances.get(victim.instanceId);
    (instance as { userData: string }).userData = 'not a bootstrap script';
    await s.cloud.clock.advance(16 * 60_000);
    await s.cloud.kube.idle();
    const out = await handler(
      sqsEvent([{ nodeClaimId: victim.nodeClaim, dueAt: s.cloud.clock.now() }, { nodeClaimId: '' }]),
      context(),
    );
    expect(out?.batchItemFailures).toEqual([{ itemIdentifier: 'm-1' }]);
    expect((await ports.store.getNodeClaim(victim.nodeClaim))?.state).toBe('Gone');
  });
});
