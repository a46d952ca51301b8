import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computePlan } from '../../../bin/commands/plan.js';
import { type SimulatedCloud, startSimulatedCloud } from '../../../functions/simulator/cloud.js';
import { runJoiner } from '../../helpers/run-joiner.js';

let cloud: SimulatedCloud;
let dir: string;

beforeAll(async () => {
  cloud = await startSimulatedCloud({ region: 'eu-west-1' });
  dir = await mkdtemp(join(tmpdir(), 'joiner-catalog-fetch-'));
  // The command uses the SDK's default credential chain, as with the user's own credentials.
  const env = cloud.env();
  process.env.AWS_ACCESS_KEY_ID = env.AWS_ACCESS_KEY_ID;
  process.env.AWS_SECRET_ACCESS_KEY = env.AWS_SECRET_ACCESS_KEY;
});

afterAll(async () => {
  await cloud.close();
  await rm(dir, { recursive: true, force: true });
});

describe('joiner catalog fetch', () => {
  it('writes the region’s catalog in the documented format, which joiner plan --catalog reads', async () => {
    const file = join(dir, 'eu-west-1.json');
    const endpoints = ['--ec2-endpoint', cloud.endpoints.ec2, '--pricing-endpoint', cloud.endpoints.pricing];
    const run = await runJoiner(
      'catalog',
      'fetch',
      '--region',
      'eu-west-1',
      '--output-file',
      file,
      ...endpoints,
    );
    expect(run.code, run.out).toBe(0);
    expect(run.stderr).not.toContain('deprecated');
    expect(run.stderr).toMatch(/wrote .*eu-west-1\.json: \d+ instance types, \d+ offerings in eu-west-1/);
    const written = JSON.parse(await readFile(file, 'utf8'));
    expect(written.region).toBe('eu-west-1');
    expect(written.instanceTypes).toHaveLength(cloud.catalog.instanceTypes.length);
    expect(written.instanceTypes.some((t: { name: string }) => t.name.startsWith('c6a.'))).toBe(false);
    const plan = await computePlan(['examples/consolidation'], file);
    expect(plan.nodeClaims.length).toBeGreaterThan(0);
    for (const claim of plan.nodeClaims)
      for (const option of claim.instanceTypeOptions) expect(option.zone).toMatch(/^eu-west-1[abc]$/);
    // At eu-west-1's prices, not the bundled us-west-2 ones.
    const best = plan.nodeClaims[0].instanceTypeOptions[0];
    const listed = cloud.catalog.instanceTypes
      .find((t) => t.name === best.instanceType)
      ?.offerings.find((o) => o.zone === best.zone && o.capacityType === best.capacityType);
    expect(best.price).toBe(listed?.price);
  });

  it('exits 2 without --output-file, naming it', async () => {
    const run = await runJoiner('catalog', 'fetch', '--region', 'eu-west-1');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("required option '--output-file <file>' not specified");
  });

  it('says what is wrong with a bad region, and with an API that refuses', async () => {
    const bad = await runJoiner(
      'catalog',
      'fetch',
      '--region',
      'Europe',
      '--output-file',
      join(dir, 'x.json'),
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--region "Europe" is not an AWS region such as eu-west-1');
    cloud.faults.inject({
      service: 'ec2',
      action: 'DescribeInstanceTypes',
      error: 'UnauthorizedOperation',
      times: 20,
    });
    const refused = await runJoiner(
      'catalog',
      'fetch',
      '--region',
      'eu-west-1',
      '-o',
      join(dir, 'y.json'),
      '--ec2-endpoint',
      cloud.endpoints.ec2,
      '--pricing-endpoint',
      cloud.endpoints.pricing,
    );
    cloud.faults.clear();
    expect(refused.code).toBe(1);
    // -o FILE is the deprecated spelling of --output-file: it still works and says so.
    expect(refused.stderr).toContain('-o/--output FILE is deprecated');
    expect(refused.stderr).toMatch(
      /joiner catalog fetch: eu-west-1: .*UnauthorizedOperation|joiner catalog fetch: eu-west-1: .*injected/,
    );
  });
});
