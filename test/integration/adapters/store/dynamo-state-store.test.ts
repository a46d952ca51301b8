import { gzipSync } from 'node:zlib';
import {
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStateStore } from '../../../../functions/adapters/store/create-state-store.js';
import type { DynamoStateStore } from '../../../../functions/adapters/store/dynamo-state-store.js';
import { ensureTable } from '../../../../functions/adapters/store/ensure-table.js';
import { newNodeClaim } from '../../../../functions/core/nodeclaim/create.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { transition, withTimer } from '../../../../functions/core/nodeclaim/state-machine.js';
import { ConflictError } from '../../../../functions/core/ports/state-store.js';
import { TABLE } from '../../../../functions/shared/table.js';
import { startDynalite } from './dynalite-server.js';

const T0 = Date.UTC(2026, 0, 1);
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
let server: Awaited<ReturnType<typeof startDynalite>>;
let client: DynamoDBClient;
let tableCount = 0;

beforeAll(async () => {
  server = await startDynalite();
  client = new DynamoDBClient({ region: 'us-east-1', endpoint: server.endpoint, credentials });
});
afterAll(async () => {
  client.destroy();
  await server.close();
});

/** The table of the latest {@link freshStore}. */
const currentTable = () => `joiner-test-${tableCount}`;

async function freshStore(): Promise<DynamoStateStore> {
  const tableName = `joiner-test-${++tableCount}`;
  await ensureTable(client, tableName);
  return createStateStore({ tableName, endpoint: server.endpoint, credentials });
}

function claim(id: string, now = T0): NodeClaim {
  return newNodeClaim(
    {
      id,
      nodePool: 'default',
      nodeClass: 'default',
      nodePoolHash: 'p1',
      nodeClassHash: 'c1',
      requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] }],
      labels: { team: 'a' },
      taints: [{ key: 'dedicated', value: '', effect: 'NoSchedule' }],
      startupTaints: [],
      options: [{ instanceType: 'c5.large', zone: 'us-west-2a', capacityType: 'spot', price: 0.03 }],
      pods: [{ namespace: 'default', name: 'p', uid: `uid-${id}` }],
      requests: { cpu: 500, memory: 1 << 30 },
    },
    now,
  );
}

const launched = {
  instanceId: 'i-0abc',
  instanceType: 'c5.large',
  zone: 'us-west-2a',
  capacityType: 'spot' as const,
};

describe('DynamoStateStore', () => {
  it('creates the table with the described keys and indexes, idempotently', async () => {
    const tableName = 'joiner-shape';
    await ensureTable(client, tableName);
    await ensureTable(client, tableName);
    const out = await client.send(new DescribeTableCommand({ TableName: tableName }));
    expect(out.Table?.KeySchema?.map((k) => k.AttributeName)).toEqual(['pk', 'sk']);
    expect(out.Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName).sort()).toEqual(
      [TABLE.indexes.byInstanceId.indexName, TABLE.indexes.byTimer.indexName].sort(),
    );
  });

  it('creates a nodeclaim once and round-trips it (empty taint values included)', async () => {
    const store = await freshStore();
    expect(await store.createNodeClaim(claim('a'))).toBe(true);
    expect(await store.createNodeClaim(claim('a'))).toBe(false);
    const read = await store.getNodeClaim('a');
    expect(read).toEqual({ ...claim('a'), version: 1 });
    expect(await store.getNodeClaim('missing')).toBeUndefined();
  });

  it('updates with optimistic concurrency: a stale version loses', async () => {
    const store = await freshStore();
    await store.createNodeClaim(claim('b'));
    const v1 = (await store.getNodeClaim('b'))!;
    const v2 = await store.updateNodeClaim(transition(v1, 'Launched', T0 + 1000, { instance: launched }));
    expect(v2.version).toBe(2);
    await expect(store.updateNodeClaim({ ...v1, launchAttempts: 5 })).rejects.toBeInstanceOf(ConflictError);
    expect((await store.getNodeClaim('b'))?.state).toBe('Launched');
  });

  it('fences writes by lease token: a current version written under an older lease loses', async () => {
    const store = await freshStore();
    await store.createNodeClaim({ ...claim('f'), leaseToken: 1 });
    const newer = await store.updateNodeClaim({ ...(await store.getNodeClaim('f'))!, leaseToken: 2 });
    await expect(
      store.updateNodeClaim({ ...newer, leaseToken: 1, launchAttempts: 1 }),
    ).rejects.toBeInstanceOf(ConflictError);
    // The same or a newer token, and writers that keep the token they read, still write.
    const kept = await store.updateNodeClaim({ ...newer, launchAttempts: 2 });
    expect((await store.updateNodeClaim({ ...kept, leaseToken: 3 })).leaseToken).toBe(3);
  });

  it('lists claims by state and finds a claim by instance id through the GSI', async () => {
    const store = await freshStore();
    await store.createNodeClaim(claim('c1'));
    await store.createNodeClaim(claim('c2'));
    const c2 = (await store.getNodeClaim('c2'))!;
    await store.updateNodeClaim(transition(c2, 'Launched', T0 + 5, { instance: launched }));
    expect((await store.listNodeClaims()).map((c) => c.id).sort()).toEqual(['c1', 'c2']);
    expect((await store.listNodeClaims(['Launched'])).map((c) => c.id)).toEqual(['c2']);
    expect((await store.findNodeClaimByInstanceId('i-0abc'))?.id).toBe('c2');
    expect(await store.findNodeClaimByInstanceId('i-none')).toBeUndefined();
  });

  it('lists claims of some states with the other states filtered out by DynamoDB, not sent back', async () => {
    const store = await freshStore();
    for (const id of ['g1', 'g2', 'l1']) await store.createNodeClaim(claim(id));
    for (const id of ['g1', 'g2']) {
      const c = (await store.getNodeClaim(id))!;
      await store.updateNodeClaim(transition(c, 'Gone', T0 + 5));
    }
    const doc = (store as unknown as { doc: { send: (command: unknown) => Promise<unknown> } }).doc;
    const answers: unknown[] = [];
    const send = doc.send.bind(doc);
    doc.send = async (command) => {
      const out = await send(command);
      answers.push(out);
      return out;
    };
    try {
      expect((await store.listNodeClaims(['Pending', 'Launched'])).map((c) => c.id)).toEqual(['l1']);
      const items = answers.flatMap((a) => (a as { Items?: { sk: string }[] }).Items ?? []);
      expect(items.map((i) => i.sk)).toEqual(['l1']);
      // Without states (or with a state given twice) every claim still comes, as before.
      expect((await store.listNodeClaims()).map((c) => c.id).sort()).toEqual(['g1', 'g2', 'l1']);
      expect((await store.listNodeClaims(['Gone', 'Gone'])).map((c) => c.id).sort()).toEqual(['g1', 'g2']);
    } finally {
      doc.send = send;
    }
  });

  it('serves due timers from the sparse timer index, earliest first', async () => {
    const store = await freshStore();
    for (const id of ['t1', 't2', 't3', 't4', 't5']) await store.createNodeClaim(claim(id));
    const noTimers = (await store.getNodeClaim('t5'))!;
    await store.updateNodeClaim({ ...noTimers, timers: {} });
    const t3 = (await store.getNodeClaim('t3'))!;
    await store.updateNodeClaim(withTimer(withTimer(t3, 'launchTimeout', undefined), 'emptiness', T0 + 10));
    const t4 = (await store.getNodeClaim('t4'))!;
    await store.updateNodeClaim(withTimer(t4, 'launchTimeout', T0 + 10 * 60_000));
    const due = await store.listDueNodeClaims(T0 + 5 * 60_000);
    expect(due[0].id).toBe('t3');
    expect(due.map((c) => c.id).sort()).toEqual(['t1', 't2', 't3']);
    expect(await store.listDueNodeClaims(T0)).toEqual([]);
    expect((await store.listDueNodeClaims(T0 + 20 * 60_000)).map((c) => c.id)).not.toContain('t5');
    expect(await store.listDueNodeClaims(T0 + 20 * 60_000, 2)).toHaveLength(2);
  });

  it('shares unavailable offerings and lets them expire after 3 minutes', async () => {
    const store = await freshStore();
    const ice = { instanceType: 'c5.large', zone: 'us-west-2a', capacityType: 'spot' as const };
    await store.markOfferingsUnavailable([ice], 'InsufficientInstanceCapacity', T0);
    const other = createStateStore({
      tableName: `joiner-test-${tableCount}`,
      endpoint: server.endpoint,
      credentials,
    });
    expect(await other.listUnavailableOfferings(T0 + 60_000)).toEqual([
      { ...ice, reason: 'InsufficientInstanceCapacity', expiresAt: T0 + 180_000 },
    ]);
    expect(await other.listUnavailableOfferings(T0 + 180_000)).toEqual([]);
  });

  it('grants the lease to exactly one of two concurrent callers, then to the other after expiry', async () => {
    const store = await freshStore();
    const [a, b] = await Promise.all([
      store.acquireLease('provisioner', 'inv-a', T0, 30_000),
      store.acquireLease('provisioner', 'inv-b', T0, 30_000),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    const winner = (a ?? b)!;
    const loser = winner.holder === 'inv-a' ? 'inv-b' : 'inv-a';
    expect(await store.acquireLease('provisioner', loser, T0 + 29_000, 30_000)).toBeUndefined();
    const renewed = await store.acquireLease('provisioner', winner.holder, T0 + 1000, 30_000);
    expect(renewed?.token).toBe(winner.token + 1);
    const late = await store.acquireLease('provisioner', loser, T0 + 31_001, 30_000);
    expect(late?.holder).toBe(loser);
    expect(late!.token).toBeGreaterThan(renewed!.token);
    await store.releaseLease(renewed!); // stale release does nothing
    expect(await store.acquireLease('provisioner', winner.holder, T0 + 32_000, 30_000)).toBeUndefined();
    await store.releaseLease(late!);
    expect(await store.acquireLease('provisioner', winner.holder, T0 + 32_000, 30_000)).toBeDefined();
  });

  it('renews a lease only while nobody took or released it, even after it ran out', async () => {
    const store = await freshStore();
    const held = (await store.acquireLease('provisioner', 'inv-a', T0, 30_000))!;
    const renewed = await store.renewLease(held, T0 + 40_000, 30_000);
    expect(renewed).toEqual({ ...held, expiresAt: T0 + 70_000 });
    expect(await store.acquireLease('provisioner', 'inv-b', T0 + 60_000, 30_000)).toBeUndefined();
    const taken = (await store.acquireLease('provisioner', 'inv-b', T0 + 70_001, 30_000))!;
    expect(await store.renewLease(held, T0 + 70_002, 30_000)).toBeUndefined();
    await store.releaseLease(taken);
    expect(await store.renewLease(taken, T0 + 70_003, 30_000)).toBeUndefined();
    expect(await store.renewLease(held, T0 + 70_003, 30_000)).toBeUndefined();
  });

  it('counts requests for another run on a held lease only, and releases only when none came since', async () => {
    const store = await freshStore();
    expect(await store.requestLeaseRun('provisioner', T0)).toBe(false); // no lease yet
    const held = (await store.acquireLease('provisioner', 'inv-a', T0, 30_000))!;
    expect(held.requests).toBe(0);
    expect(await store.releaseLeaseUnlessRequested(held, 0)).toEqual({ released: true });
    const again = (await store.acquireLease('provisioner', 'inv-a', T0 + 1, 30_000))!;
    expect(await store.requestLeaseRun('provisioner', T0 + 2)).toBe(true);
    expect(await store.requestLeaseRun('provisioner', T0 + 3)).toBe(true);
    expect(await store.releaseLeaseUnlessRequested(again, 0)).toEqual({ released: false, requests: 2 });
    expect(await store.acquireLease('provisioner', 'inv-b', T0 + 4, 30_000)).toBeUndefined(); // still held
    expect(await store.releaseLeaseUnlessRequested(again, 2)).toEqual({ released: true });
    expect(await store.requestLeaseRun('provisioner', T0 + 5)).toBe(false); // released: take it
    const next = (await store.acquireLease('provisioner', 'inv-b', T0 + 6, 30_000))!;
    expect(next.requests).toBe(2);
    // An expired lease takes no request; a release by a holder that lost the lease does nothing.
    expect(await store.requestLeaseRun('provisioner', T0 + 30_006)).toBe(false);
    expect(await store.releaseLeaseUnlessRequested(again, 5)).toEqual({ released: true });
    expect(await store.acquireLease('provisioner', 'inv-c', T0 + 30_006, 30_000)).toBeDefined();
  });

  it('records an idempotency key once until it expires', async () => {
    const store = await freshStore();
    expect(await store.recordOnce('msg-1', T0, 1000)).toBe(true);
    expect(await store.recordOnce('msg-1', T0 + 500, 1000)).toBe(false);
    expect(await store.recordOnce('msg-1', T0 + 1000, 1000)).toBe(true);
  });

  it('stores the claim compressed in one binary attribute, with its keys and a few readable attributes', async () => {
    const store = await freshStore();
    const offerings = Array.from({ length: 300 }, (_, i) => ({
      instanceType: `m${5 + (i % 3)}.${['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge'][i % 5]}-${i}`,
      zone: `us-west-2${'abc'[i % 3]}`,
      zoneId: `usw2-az${1 + (i % 3)}`,
      capacityType: 'on-demand' as const,
      price: 0.1 + i / 1000,
    }));
    const big: NodeClaim = { ...claim('z'), options: offerings };
    await store.createNodeClaim(big);
    const read = await store.getNodeClaim('z');
    expect(read).toEqual({ ...big, version: 1 });
    const raw = await client.send(
      new GetItemCommand({ TableName: currentTable(), Key: marshall({ pk: 'nodeclaim', sk: 'z' }) }),
    );
    const item = raw.Item!;
    expect(Object.keys(item).sort()).toEqual(
      ['claimGzip', 'dueAt', 'nodePool', 'pk', 'sk', 'state', 'timerShard', 'version'].sort(),
    );
    expect(item.claimGzip.B).toBeInstanceOf(Uint8Array);
    expect(item.state.S).toBe('Pending');
    expect(item.version.N).toBe('1');
    // 300 offerings: about 30 KiB as JSON, a few KiB compressed.
    expect(JSON.stringify(big).length).toBeGreaterThan(25_000);
    expect(item.claimGzip.B!.length).toBeLessThan(6_000);
  });

  it('reads a claim written as a map by an earlier release and rewrites it compressed', async () => {
    const store = await freshStore();
    const old = { ...claim('legacy'), version: 3 };
    const { version: _v, ...rest } = old;
    await client.send(
      new PutItemCommand({
        TableName: currentTable(),
        Item: marshall(
          { pk: 'nodeclaim', sk: 'legacy', version: 3, state: 'Pending', claim: rest },
          { removeUndefinedValues: true },
        ),
      }),
    );
    expect(await store.getNodeClaim('legacy')).toEqual(old);
    expect((await store.listNodeClaims(['Pending'])).map((c) => c.id)).toEqual(['legacy']);
    const next = await store.updateNodeClaim({ ...old, launchAttempts: 1 });
    expect(next.version).toBe(4);
    const raw = await client.send(
      new GetItemCommand({ TableName: currentTable(), Key: marshall({ pk: 'nodeclaim', sk: 'legacy' }) }),
    );
    expect(raw.Item?.claim).toBeUndefined();
    expect(raw.Item?.claimGzip?.B).toBeInstanceOf(Uint8Array);
    expect(await store.getNodeClaim('legacy')).toEqual({ ...old, launchAttempts: 1, version: 4 });
  });

  it('names the item when its claim attribute is not a compressed claim', async () => {
    const store = await freshStore();
    const put = (extra: Record<string, unknown>) =>
      client.send(
        new PutItemCommand({
          TableName: currentTable(),
          Item: marshall({ pk: 'nodeclaim', sk: 'bad', version: 1, state: 'Pending', ...extra }),
        }),
      );
    await put({ claimGzip: new TextEncoder().encode('not gzip') });
    await expect(store.getNodeClaim('bad')).rejects.toThrow(
      /nodeclaim\/bad has a claimGzip attribute that is not gzip-compressed JSON/,
    );
    await put({ claimGzip: gzipSync('[1, 2]') });
    await expect(store.getNodeClaim('bad')).rejects.toThrow(
      /nodeclaim\/bad has a claimGzip attribute that does not hold a nodeclaim object/,
    );
    await put({});
    await expect(store.getNodeClaim('bad')).rejects.toThrow(
      /nodeclaim\/bad has neither a claimGzip nor a claim attribute/,
    );
  });
});
