/**
 * The catalog the real provisioner plans with, against the simulated cloud in eu-west-1: the
 * bundled catalog as a logged fallback before any refresh, the region's snapshot once the real
 * refresh handler wrote it, and a spot price change reaching the loaded catalog after its TTL.
 */
import { DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../functions/core/catalog/bundled.js';
import { SNAPSHOT_VERSION } from '../../../functions/core/catalog/live/catalog-snapshot.js';
import type { NodeClaim } from '../../../functions/core/nodeclaim/nodeclaim.js';
import { catalogDeployCreateEvent } from '../../../functions/handlers/catalog-deploy-event.js';
import { createCatalogRefreshHandler } from '../../../functions/handlers/catalog-refresh.js';
import { createProvisionerHandler } from '../../../functions/handlers/provisioner.js';
import { MIN_RELOAD_MS } from '../../../functions/handlers/runtime/catalog-source.js';
import { type Dependencies, dependenciesFromEnv } from '../../../functions/handlers/runtime/dependencies.js';
import { refreshDependenciesFromEnv } from '../../../functions/handlers/runtime/refresh-dependencies.js';
import { CATALOG_SPOT_SCHEDULE } from '../../../functions/shared/event-sources.js';
import { type SimulatedCloud, startSimulatedCloud } from '../../../functions/simulator/cloud.js';
import { applyManifests } from '../../../functions/simulator/scenario/cluster-manifests.js';
import type { Manifest } from '../../../functions/simulator/scenario/load-scenario.js';
import { podUnschedulableEvent, provisionerContext } from '../../builders/provisioning-event.js';
import { RecordingLog } from '../../unit/core/provisioning/fakes.js';

const REGION = 'eu-west-1';
let cloud: SimulatedCloud;

const pool: Manifest[] = [
  {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'default' },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          requirements: [
            { key: 'karpenter.k8s.aws/instance-family', operator: 'In', values: ['m5', 'c6a', 'c5'] },
            { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
          ],
        },
      },
    },
  },
  {
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata: { name: 'default' },
    spec: {
      role: 'joiner-sim-node',
      amiSelectorTerms: [{ alias: 'al2023@latest' }],
      subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'joiner-sim' } }],
      securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'joiner-sim' } }],
    },
  },
];

function pod(name: string): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '1', memory: '1Gi' } } }],
    },
  };
}

function handlerDeps(log: RecordingLog): Dependencies {
  return dependenciesFromEnv(cloud.env(), { clock: cloud.clock, log });
}

async function provisionFor(names: string[], log: RecordingLog): Promise<NodeClaim[]> {
  await applyManifests(cloud.kube.store, names.map(pod));
  await cloud.kube.idle();
  await cloud.kube.scheduleNow();
  await cloud.kube.idle();
  const deps = handlerDeps(log);
  await createProvisionerHandler(() => deps)(podUnschedulableEvent(names), provisionerContext());
  const claims = await cloud.stateStore.listNodeClaims();
  return claims.filter((c) => c.pods.some((p) => names.includes(p.name)));
}

function refresh(event: unknown, log = new RecordingLog()) {
  const deps = refreshDependenciesFromEnv(cloud.env(), { clock: cloud.clock, log });
  return createCatalogRefreshHandler(() => deps)(event, {} as Context);
}

function price(catalog: typeof bundledCatalog, type: string, zone: string, capacityType: string) {
  return catalog.instanceTypes
    .find((t) => t.name === type)
    ?.offerings.find((o) => o.zone === zone && o.capacityType === capacityType)?.price;
}

beforeAll(async () => {
  cloud = await startSimulatedCloud({ region: REGION, seed: 3, instanceProfiles: [] });
  const env = cloud.env();
  process.env.AWS_ACCESS_KEY_ID = env.AWS_ACCESS_KEY_ID;
  process.env.AWS_SECRET_ACCESS_KEY = env.AWS_SECRET_ACCESS_KEY;
  await applyManifests(cloud.kube.store, pool);
});

afterAll(async () => {
  await cloud.close();
});

describe('the catalog of the planning functions (simulated eu-west-1)', () => {
  it('without a snapshot plans with the bundled catalog in the region’s zones, and says so', async () => {
    const log = new RecordingLog();
    const claims = await provisionFor(['before-refresh'], log);
    expect(claims).toHaveLength(1);
    const warning = log.lines.find((l) => l.message.startsWith('using the bundled instance catalog'));
    expect(warning?.level).toBe('warn');
    expect(warning?.fields?.reason).toMatch(/no instance-type snapshot/);
    for (const option of claims[0].options) {
      expect(option.zone.startsWith(REGION)).toBe(true);
      const bundledZone = `${bundledCatalog.region}${option.zone.slice(REGION.length)}`;
      expect(option.price).toBe(price(bundledCatalog, option.instanceType, bundledZone, option.capacityType));
    }
  });

  it('once refreshed, a cold start plans only the region’s offered types at its prices', async () => {
    const log = new RecordingLog();
    const outcome = await refresh({}, log);
    expect(outcome).toEqual({
      scope: 'catalog',
      instanceTypes: cloud.catalog.instanceTypes.length,
      spotPrices: expect.any(Number),
    });
    const planLog = new RecordingLog();
    const claims = await provisionFor(['after-refresh'], planLog);
    expect(planLog.messages()).toContain('loaded the instance catalog snapshot');
    expect(planLog.lines.some((l) => l.level === 'warn' && l.message.includes('bundled'))).toBe(false);
    const options = claims[0].options;
    expect(options.length).toBeGreaterThan(0);
    expect(options.some((o) => o.instanceType.startsWith('c6a.'))).toBe(false); // not offered in eu-west-1
    for (const o of options)
      expect(o.price).toBe(price(cloud.catalog, o.instanceType, o.zone, o.capacityType));
  });

  it('a warm function sees a new spot price once its snapshot is past its TTL', async () => {
    const deps = handlerDeps(new RecordingLog());
    const source = deps.catalogSource;
    const zone = `${REGION}a`;
    const before = price(await source.current(), 'm5.large', zone, 'spot');
    expect(before).toBe(price(cloud.catalog, 'm5.large', zone, 'spot'));
    cloud.ec2.setSpotPrice('m5.large', zone, 0.0077);
    await cloud.clock.advance(1000);
    await refresh({ refresh: 'spot-prices' });
    // Within its TTL the loaded catalog is reused: no read per invocation.
    expect(price(await source.current(), 'm5.large', zone, 'spot')).toBe(before);
    // The TTL ends when the next spot refresh is due (at most MIN_RELOAD_MS later is the next read).
    await cloud.clock.advance(CATALOG_SPOT_SCHEDULE.rateMinutes * 60_000 + MIN_RELOAD_MS);
    expect(price(await source.current(), 'm5.large', zone, 'spot')).toBe(0.0077);
  });

  it('keeps the last snapshot when the refresh fails, and the failure is an error naming the region', async () => {
    const log = new RecordingLog();
    cloud.faults.inject({ service: 'pricing', action: '*', error: 'AccessDeniedException', times: 20 });
    await expect(refresh({ refresh: 'catalog' }, log)).rejects.toThrow(
      /AccessDenied|not authorized|injected/,
    );
    expect(log.lines.find((l) => l.level === 'error')?.fields).toMatchObject({
      region: REGION,
      scope: 'catalog',
    });
    cloud.faults.clear();
    const planLog = new RecordingLog();
    const claims = await provisionFor(['after-failed-refresh'], planLog);
    expect(planLog.messages()).toContain('loaded the instance catalog snapshot');
    for (const o of claims[0].options)
      expect(o.price).toBe(price(cloud.catalog, o.instanceType, o.zone, o.capacityType));
  });

  it('runs a whole refresh for the deploy-time custom resource, and never fails the deployment', async () => {
    const create = catalogDeployCreateEvent(REGION, '111122223333', SNAPSHOT_VERSION);
    await cloud.clock.advance(1000);
    await expect(refresh(create)).resolves.toEqual({
      PhysicalResourceId: 'joiner-catalog-snapshot',
      Data: { InstanceTypes: cloud.catalog.instanceTypes.length, SpotPrices: expect.any(Number) },
    });
    const log = new RecordingLog();
    cloud.faults.inject({
      service: 'ec2',
      action: 'DescribeInstanceTypes',
      error: 'UnauthorizedOperation',
      times: 20,
    });
    await expect(refresh(create, log)).resolves.toEqual({ PhysicalResourceId: 'joiner-catalog-snapshot' });
    expect(log.lines.find((l) => l.level === 'warn')?.message).toMatch(/deploy-time catalog refresh failed/);
    cloud.faults.clear();
    await expect(
      refresh({ ...create, RequestType: 'Delete', PhysicalResourceId: 'joiner-catalog-snapshot' }),
    ).resolves.toEqual({
      PhysicalResourceId: 'joiner-catalog-snapshot',
    });
  });

  it('rejects a refresh event with an unknown scope, naming the field', async () => {
    await expect(refresh({ refresh: 'everything' })).rejects.toThrow(
      /"refresh" must be "spot-prices" or "catalog"/,
    );
  });

  it('a corrupted snapshot part is replaced by the next spot-price refresh; planning kept its loaded copy', async () => {
    const dynamo = new DynamoDBClient({
      region: REGION,
      endpoint: cloud.endpoints.dynamodb,
      credentials: {
        accessKeyId: cloud.env().AWS_ACCESS_KEY_ID as string,
        secretAccessKey: cloud.env().AWS_SECRET_ACCESS_KEY as string,
      },
    });
    const key = { pk: { S: 'catalog' }, sk: { S: `${REGION}#types` } };
    const stored = await dynamo.send(new GetItemCommand({ TableName: cloud.tableName, Key: key }));
    expect(stored.Item?.data?.B).toBeDefined();
    // Garbage where the gzip-compressed JSON was, with a fetch time far in the future.
    const future = String(cloud.clock.now() + 365 * 86_400_000);
    await dynamo.send(
      new PutItemCommand({
        TableName: cloud.tableName,
        Item: { ...stored.Item, data: { B: new TextEncoder().encode('not gzip') }, fetchedAt: { N: future } },
      }),
    );
    const deps = handlerDeps(new RecordingLog());
    await expect(deps.catalogSource.current()).resolves.toBeDefined();
    await cloud.clock.advance(1000);
    const log = new RecordingLog();
    await expect(refresh({ refresh: 'spot-prices' }, log)).resolves.toEqual({
      scope: 'catalog',
      instanceTypes: cloud.catalog.instanceTypes.length,
      spotPrices: expect.any(Number),
    });
    expect(log.lines.find((l) => l.level === 'warn')?.message).toMatch(/snapshot cannot be read/);
    const planLog = new RecordingLog();
    const claims = await provisionFor(['after-repair'], planLog);
    expect(planLog.messages()).toContain('loaded the instance catalog snapshot');
    expect(claims[0].options.length).toBeGreaterThan(0);
    const repaired = await dynamo.send(new GetItemCommand({ TableName: cloud.tableName, Key: key }));
    expect(Number(repaired.Item?.fetchedAt?.N)).toBeLessThan(Number(future));
    dynamo.destroy();
  });
});
