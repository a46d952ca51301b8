import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStateStore } from '../../../functions/adapters/store/create-state-store.js';
import { ensureTable } from '../../../functions/adapters/store/ensure-table.js';
import { provision } from '../../../functions/core/provisioning/provision.js';
import type { ProvisionDeps } from '../../../functions/core/provisioning/types.js';
import { harness } from '../../unit/core/provisioning/harness.js';
import { seedCluster } from '../../unit/core/provisioning/seed-cluster.js';
import { startDynalite } from '../adapters/store/dynalite-server.js';

const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
let dynalite: Awaited<ReturnType<typeof startDynalite>>;
let tables = 0;

async function freshStore() {
  const tableName = `provisioning-${++tables}`;
  const ddb = new DynamoDBClient({ region: 'us-east-1', endpoint: dynalite.endpoint, credentials });
  await ensureTable(ddb, tableName);
  ddb.destroy();
  return createStateStore({ tableName, endpoint: dynalite.endpoint, credentials });
}

beforeAll(async () => {
  dynalite = await startDynalite();
});

afterAll(async () => {
  await dynalite.close();
});

describe('provisioning runs on the DynamoDB store (dynalite)', () => {
  it('two runs at once on the same pods launch one set of instances', async () => {
    const h = harness(await seedCluster('examples/seed-004'));
    const store = await freshStore();
    const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 20)));
    const deps: ProvisionDeps = { ...h.deps, store, sleep };
    const [a, b] = await Promise.all([
      provision(deps, { hints: [], options: { holder: 'run-a' } }),
      provision(deps, { hints: [], options: { holder: 'run-b' } }),
    ]);
    expect(h.cloud.instances).toHaveLength(4);
    expect(a.launched.length + b.launched.length).toBe(4);
    expect([a, b].some((r) => r.waitingForInFlight === 21)).toBe(true);
    const claims = await store.listNodeClaims(['Launched']);
    expect(claims).toHaveLength(4);
    expect(new Set(claims.map((c) => c.instance?.instanceId)).size).toBe(4);
  });

  it('a redelivered batch on the same store launches nothing more', async () => {
    const h = harness(await seedCluster('examples/seed-004'));
    const store = await freshStore();
    const deps: ProvisionDeps = { ...h.deps, store };
    const first = await provision(deps, { hints: [] });
    const again = await provision(deps, { hints: [] });
    expect(first.launched).toHaveLength(4);
    expect(again).toMatchObject({ created: [], launched: [], waitingForInFlight: 21 });
    expect(h.cloud.instances).toHaveLength(4);
  });

  it('pods another live claim holds are left to it: a claim that gets none of its pods is dropped', async () => {
    const h = harness(await seedCluster('examples/seed-004'));
    const store = await freshStore();
    const now = h.clock.now();
    const general = h.cluster.pods.filter((p) => p.metadata.name.startsWith('general-workloads'));
    const refs = general.map((p) => ({ namespace: 'default', name: p.metadata.name, uid: p.metadata.uid! }));
    await store.claimPods(refs, 'spot-general-elsewhere', now, 60_000);
    const result = await provision({ ...h.deps, store }, { hints: [] });
    expect(result.launched.map((l) => l.nodePool)).toEqual(['addons-ondemand']);
    expect(h.cloud.instances).toHaveLength(1);
    expect(h.log.messages()).toContain('dropped nodeclaim: its pods are claimed by other nodeclaims');
  });
});
