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

  it('a claim that landed after its writer lost the lease is cancelled as superseded, never launched', async () => {
    const h = harness(await seedCluster('examples/seed-004'));
    const store = await freshStore();
    const deps: ProvisionDeps = { ...h.deps, store };
    const first = await provision(deps, { hints: [] });
    expect(first.launched).toHaveLength(4);
    const [launched] = await store.listNodeClaims(['Launched']);
    const { instance: _instance, ...planned } = launched;
    const late = {
      ...planned,
      id: 'late-claim',
      state: 'Pending' as const,
      leaseToken: 0,
      launchAttempts: 0,
    };
    expect(await store.createNodeClaim(late)).toBe(true);
    const next = await provision(deps, { hints: [] });
    expect(next).toMatchObject({ cancelled: ['late-claim'], created: [], launched: [], resumed: [] });
    expect(await store.getNodeClaim('late-claim')).toMatchObject({
      state: 'Gone',
      failure: { reason: 'Superseded' },
    });
    expect(h.cloud.instances).toHaveLength(4);
  });
});
