import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalog } from '../../../../functions/adapters/files/read-catalog.js';
import { CatalogError, parseCatalog } from '../../../../functions/core/catalog/parse-catalog.js';

function minimal(): Record<string, unknown> {
  return {
    region: 'us-west-2',
    instanceTypes: [
      {
        name: 'm5.large',
        vcpu: 2,
        memoryMiB: 8192,
        arch: 'amd64',
        maxEnis: 3,
        ipv4PerEni: 10,
        offerings: [
          { zone: 'us-west-2a', capacityType: 'on-demand', price: 0.096 },
          { zone: 'us-west-2a', capacityType: 'spot', price: 0.04 },
        ],
      },
    ],
  };
}

function errorOf(json: unknown): string {
  try {
    parseCatalog(json, 'my-catalog.json');
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogError);
    return (error as Error).message;
  }
  throw new Error('expected the catalog to be rejected');
}

function withType(patch: Record<string, unknown>): Record<string, unknown> {
  const json = minimal();
  const [first] = json.instanceTypes as Record<string, unknown>[];
  json.instanceTypes = [{ ...first, ...patch }];
  return json;
}

describe('parseCatalog', () => {
  it('accepts the minimal documented format and leaves optional fields to their defaults', () => {
    const catalog = parseCatalog(minimal(), 'my-catalog.json');
    expect(catalog.region).toBe('us-west-2');
    expect(catalog.instanceTypes[0]).toMatchObject({ name: 'm5.large', vcpu: 2, maxEnis: 3 });
    expect(catalog.instanceTypes[0].gpus).toBeUndefined();
    expect(catalog.instanceTypes[0].hypervisor).toBeUndefined();
  });

  it('accepts every optional field', () => {
    const catalog = parseCatalog(
      withType({
        gpus: { count: 1, manufacturer: 'NVIDIA', name: 'T4', memoryMiB: 16384 },
        networkCards: 1,
        localNvmeGiB: 125,
        networkBandwidthMbps: 5000,
        hypervisor: 'nitro',
        encryptionInTransit: true,
        overhead: { kubeReservedCpuMillis: 80, kubeReservedMemoryMiB: 300 },
        maxPods: 110,
      }),
      'x.json',
    );
    expect(catalog.instanceTypes[0]).toMatchObject({ maxPods: 110, localNvmeGiB: 125 });
  });

  it('names the field path of a wrong type', () => {
    const json = minimal();
    const it0 = (json.instanceTypes as Record<string, unknown>[])[0];
    (it0.offerings as Record<string, unknown>[])[1].price = '0.04';
    const message = errorOf(json);
    expect(message).toContain('my-catalog.json');
    expect(message).toContain('instanceTypes[0].offerings[1].price: expected a number, got a string "0.04"');
  });

  it('names missing fields, unknown fields and bad enum values', () => {
    const json = withType({ memoryMib: 8192, arch: 'x86_64' });
    delete (json.instanceTypes as Record<string, unknown>[])[0].memoryMiB;
    const message = errorOf(json);
    expect(message).toMatch(/instanceTypes\[0\]\.memoryMiB: required field is missing/);
    expect(message).toMatch(/instanceTypes\[0\]\.memoryMib: unknown field/);
    expect(message).toMatch(/instanceTypes\[0\]\.arch: expected one of "amd64", "arm64"/);
  });

  it('rejects non-integer and non-positive counts', () => {
    expect(errorOf(withType({ vcpu: 1.5 }))).toMatch(/instanceTypes\[0\]\.vcpu: expected an integer/);
    expect(errorOf(withType({ maxEnis: 0 }))).toMatch(/instanceTypes\[0\]\.maxEnis: expected a value > 0/);
  });

  it('rejects zones of another region, duplicate offerings and duplicate names', () => {
    const json = minimal();
    const [first] = json.instanceTypes as Record<string, unknown>[];
    json.instanceTypes = [
      { ...first, offerings: [{ zone: 'us-east-1a', capacityType: 'spot', price: 0.1 }] },
      {
        ...first,
        offerings: [
          { zone: 'us-west-2b', capacityType: 'spot', price: 0.1 },
          { zone: 'us-west-2b', capacityType: 'spot', price: 0.2 },
        ],
      },
    ];
    const message = errorOf(json);
    expect(message).toMatch(
      /instanceTypes\[0\]\.offerings\[0\]\.zone: "us-east-1a" is not a zone of region us-west-2/,
    );
    expect(message).toMatch(/instanceTypes\[1\]\.name: duplicate of instanceTypes\[0\]/);
    expect(message).toMatch(/instanceTypes\[1\]\.offerings\[1\]: duplicate offering for us-west-2b\/spot/);
  });

  it('rejects a catalog that is not an object or has no types', () => {
    expect(errorOf([])).toMatch(/\(root\): expected an object, got an array/);
    expect(errorOf({ region: 'us-west-2', instanceTypes: [] })).toMatch(/instanceTypes: expected at least 1/);
    expect(errorOf({ ...minimal(), region: 'oregon' })).toMatch(/region: expected an AWS region/);
  });
});

describe('docs/catalog.md', () => {
  it('shows an example that parses', async () => {
    const doc = await readFile(new URL('../../../../docs/catalog.md', import.meta.url), 'utf8');
    const example = /```json\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(example).toBeDefined();
    const catalog = parseCatalog(JSON.parse(example ?? ''), 'docs/catalog.md');
    expect(catalog.instanceTypes.map((t) => t.name)).toEqual(['m5.large', 'g4dn.xlarge']);
  });
});

describe('readCatalog', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalog-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a catalog file', async () => {
    const file = join(dir, 'good.json');
    await writeFile(file, JSON.stringify(minimal()));
    expect((await readCatalog(file)).instanceTypes.map((t) => t.name)).toEqual(['m5.large']);
  });

  it('names the file when it is missing, not JSON, or invalid', async () => {
    await expect(readCatalog(join(dir, 'none.json'))).rejects.toThrow(
      /cannot read instance catalog .*none\.json: no such file/,
    );
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{"region": ');
    await expect(readCatalog(broken)).rejects.toThrow(/broken\.json is not valid JSON/);
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify(withType({ ipv4PerEni: 'ten' })));
    await expect(readCatalog(bad)).rejects.toThrow(
      /bad\.json[\s\S]*instanceTypes\[0\]\.ipv4PerEni: expected a number/,
    );
  });
});
