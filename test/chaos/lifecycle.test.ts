/**
 * Lifecycle chaos in the simulated cloud: an instance whose claim was retired while it launched,
 * an instance terminated behind joiner's back, a crash in the middle of a retire, all under EC2
 * throttling. Sweeps every virtual minute must converge: no leaked instance, no claim without an
 * instance, nothing else touched.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureTable } from '../../functions/adapters/store/ensure-table.js';
import { handleLifecycleEvent } from '../../functions/core/lifecycle/handle-lifecycle-event.js';
import { instanceIdOf } from '../../functions/core/lifecycle/node-labels.js';
import { transition } from '../../functions/core/nodeclaim/state-machine.js';
import { provision } from '../../functions/core/provisioning/provision.js';
import { runSweep } from '../../functions/core/sweep/run-sweep.js';
import { sweepDepsFrom } from '../../functions/core/sweep/sweep-deps-from.js';
import { dependenciesFromEnv } from '../../functions/handlers/runtime/dependencies.js';
import { ENV } from '../../functions/shared/env.js';
import {
  manualClockPort,
  type SimProvisioning,
  startWithSeed,
} from '../integration/provisioning/sim-harness.js';

let sim: SimProvisioning | undefined;

afterEach(async () => {
  await sim?.cloud.close();
  sim = undefined;
});

describe('lifecycle chaos in the simulated cloud', () => {
  it('orphans, vanished instances and a half-done retire converge under 30% EC2 throttling', async () => {
    const s = await startWithSeed('examples/seed-004');
    sim = s;
    // The sweeps' EC2 calls retry under the throttling with a short wall backoff (see manualClockPort).
    const ports = dependenciesFromEnv(s.cloud.env(), { clock: manualClockPort(s.cloud.clock), log: s.log });
    const deps = sweepDepsFrom(ports);
    await provision(ports, { hints: [] });
    for (const step of [50_000, 20_000]) {
      await s.cloud.clock.advance(step);
      await s.cloud.kube.idle();
      for (const node of await ports.cluster.listNodes())
        await handleLifecycleEvent(deps, {
          detailType: 'NodeReady',
          detail: { nodeName: node.metadata.name },
        });
    }
    const claims = await ports.store.listNodeClaims(['Initialized']);
    expect(claims.length).toBe(4);
    const [orphaned, vanished, halfDone, ...untouched] = claims;
    if (!orphaned?.instance || !vanished?.instance || !halfDone?.instance) throw new Error('claims missing');

    // The claim was retired (record written) but its instance was never terminated.
    let c = transition(orphaned, 'Terminating', s.cloud.clock.now());
    c = await ports.store.updateNodeClaim(c);
    await ports.store.updateNodeClaim(transition(c, 'Gone', s.cloud.clock.now()));
    // Someone terminated an instance by hand.
    await ports.cloud.terminate([vanished.instance.instanceId]);
    // A retire crashed after the Terminating write.
    await ports.store.updateNodeClaim(transition(halfDone, 'Terminating', s.cloud.clock.now()));

    s.cloud.faults.inject({ service: 'ec2', action: '*', error: 'RequestLimitExceeded', probability: 0.3 });
    // A retired claim whose node still runs pods is drained (replacement first) before its
    // instance goes, so the run covers the drain's grace as well as the sweeps.
    for (let minute = 0; minute < 20; minute++) {
      await s.cloud.clock.advance(60_000);
      await s.cloud.kube.idle();
      // A sweep that fails (throttled past the SDK's retries) is simply the next minute's work.
      await runSweep(deps).catch(() => undefined);
    }
    s.cloud.faults.clear();

    const live = s
      .liveInstances()
      .map((i) => i.instanceId)
      .sort();
    for (const u of untouched) expect(live).toContain(u.instance?.instanceId);
    for (const gone of [orphaned, vanished, halfDone]) expect(live).not.toContain(gone.instance?.instanceId);
    const nodes = await ports.cluster.listNodes();
    for (const gone of [orphaned, vanished, halfDone]) {
      expect((await ports.store.getNodeClaim(gone.id))?.state).toBe('Gone');
      // Its Node is deleted with it. Its name may be taken since: EC2 hands the released address
      // to the next instance (a replacement), whose Node registers under the same name and must
      // be left alone; so the check is on the instance the Node belongs to.
      const id = gone.instance?.instanceId;
      expect(
        nodes.filter((n) => instanceIdOf(n.spec?.providerID) === id).map((n) => n.metadata.name),
      ).toEqual([]);
      const named = nodes.find((n) => n.metadata.name === gone.nodeName);
      if (named) expect(live).toContain(instanceIdOf(named.spec?.providerID));
    }
    // No pod is bound to a Node that no live instance backs.
    const backed = new Set(
      nodes.filter((n) => live.includes(instanceIdOf(n.spec?.providerID) ?? '')).map((n) => n.metadata.name),
    );
    for (const p of await ports.cluster.listPodsOnNode()) expect(backed).toContain(p.spec?.nodeName);
    for (const u of untouched) expect((await ports.store.getNodeClaim(u.id))?.state).toBe('Initialized');
  }, 360_000);

  it('a delete-and-redeploy (the old table retained, a new one created): the new stack terminates none of the old nodes', async () => {
    const s = await startWithSeed('examples/seed-004');
    sim = s;
    const env = s.cloud.env();
    const ports = dependenciesFromEnv(env, { clock: s.cloud.clock, log: s.log });
    await provision(ports, { hints: [] });
    const before = s
      .liveInstances()
      .map((i) => i.instanceId)
      .sort();
    expect(before).toHaveLength(4);
    // The redeployed stack: a new, empty table under a new generated name, same cluster.
    const table = `${env[ENV.tableName]}-redeployed`;
    const ddb = new DynamoDBClient({
      region: env.AWS_REGION,
      endpoint: env[ENV.dynamoDbEndpoint],
      credentials: {
        accessKeyId: env.AWS_ACCESS_KEY_ID ?? '',
        secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '',
      },
    });
    await ensureTable(ddb, table);
    ddb.destroy();
    const redeployed = dependenciesFromEnv(
      { ...env, [ENV.tableName]: table },
      { clock: s.cloud.clock, log: s.log },
    );
    const deps = sweepDepsFrom(redeployed);
    for (let minute = 0; minute < 4; minute++) {
      await s.cloud.clock.advance(60_000);
      await s.cloud.kube.idle();
      await runSweep(deps);
    }
    expect(
      s
        .liveInstances()
        .map((i) => i.instanceId)
        .sort(),
    ).toEqual(before);
  }, 60_000);
});
