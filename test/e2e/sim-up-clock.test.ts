/**
 * `joiner sim up` at its default speed: the cluster's clock starts at the wall clock and never runs
 * ahead of it, so every timestamp kubectl turns into an age on the client side (describe, events,
 * watch) is in the past, never `<invalid>`.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { SimulatedCloud } from '../../functions/simulator/cloud.js';
import { applyManifests } from '../../functions/simulator/scenario/cluster-manifests.js';
import type { Manifest } from '../../functions/simulator/scenario/load-scenario.js';
import { startSystem } from '../../functions/simulator/system/start-system.js';
import { smallCatalog } from '../integration/simulator/cloud/small-catalog.js';

let cloud: SimulatedCloud;

const DEPLOYMENT: Manifest = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          { name: 'web', image: 'nginx', resources: { requests: { cpu: '500m', memory: '512Mi' } } },
        ],
      },
    },
  },
} as unknown as Manifest;

/** Lists a collection from the simulated API server as kubectl would (anonymous admin). */
async function list(path: string): Promise<Record<string, unknown>[]> {
  const response = await fetch(`${cloud.endpoints.kubernetes}${path}`);
  expect(response.status, path).toBe(200);
  return ((await response.json()) as { items: Record<string, unknown>[] }).items;
}

/** Every RFC 3339 timestamp anywhere in an object. */
function timestamps(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(value)) out.push(value);
  else if (Array.isArray(value)) for (const v of value) timestamps(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) timestamps(v, out);
  return out;
}

describe('joiner sim up at its default speed', () => {
  beforeAll(async () => {
    cloud = await startSystem({ catalog: smallCatalog, seed: 3 });
    // Start-up runs the catalog refresh and the installer function (slow on a loaded machine).
  }, 120_000);
  afterAll(async () => {
    await cloud?.close();
  });

  it('stamps objects with times that are never ahead of the wall clock', async () => {
    const started = Date.now();
    expect(cloud.clock.now()).toBeGreaterThanOrEqual(started - 60_000);
    const pool = parseAllDocuments(await readFile('examples/sim-up/nodepool.yaml', 'utf8')).map(
      (d) => d.toJS() as Manifest,
    );
    await applyManifests(cloud.kube.store, [...pool, DEPLOYMENT]);
    let claims: Record<string, unknown>[] = [];
    for (let i = 0; i < 150 && claims.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 200));
      claims = await list('/apis/joiner.sh/v1/nodeclaims');
    }
    expect(claims.length, 'a nodeclaim for the pending pods').toBeGreaterThan(0);
    const objects = [
      ...claims,
      ...(await list('/api/v1/pods')),
      ...(await list('/api/v1/nodes')),
      ...(await list('/api/v1/events')),
      ...(await list('/apis/karpenter.sh/v1/nodepools')),
    ];
    const stamps = objects.flatMap((o) => timestamps(o));
    expect(stamps.length).toBeGreaterThan(objects.length);
    const wall = Date.now();
    const ahead = stamps.filter((t) => Date.parse(t) > wall);
    expect(ahead, `wall clock ${new Date(wall).toISOString()}`).toEqual([]);
    expect(cloud.clock.now()).toBeLessThanOrEqual(Date.now());
  }, 90_000);
});
