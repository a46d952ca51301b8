/**
 * What each function's cold start reads: its bundle (built as the stack builds it) split into the
 * entry plus its static chunks, and the chunks loaded on a port's first call. The AWS service
 * clients must stay out of the cold start, and a function must not even bundle what it never uses.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import type { FunctionName } from '../../../functions/shared/event-sources.js';
import { buildHandler, coldStartInputs } from '../../../lib/handler-bundle.js';

interface Bundle {
  /** Packages and project folders with code in the cold start. */
  readonly coldStart: Set<string>;
  /** Packages and project folders with code anywhere in the bundle. */
  readonly all: Set<string>;
}

/** `node_modules/@aws-sdk/client-ec2/dist-es/x.js` -> `@aws-sdk/client-ec2`; project files keep their path. */
function origin(input: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match ? match[1] : input;
}

async function build(name: FunctionName): Promise<Bundle> {
  const outdir = join(tmpdir(), `joiner-cold-start-${name}`);
  // Neither minified nor mapped, which is faster and splits the code into the same chunks.
  const options = { minify: false, sourcemap: false, metafile: true, write: false };
  const { metafile } = await buildHandler(name, outdir, options);
  const meta = metafile as Metafile;
  const all = new Set<string>();
  for (const output of Object.values(meta.outputs))
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs))
      if (bytesInOutput > 0) all.add(origin(input));
  return { coldStart: new Set([...coldStartInputs(meta, outdir)].map(origin)), all };
}

const SERVICE_CLIENTS = [
  '@aws-sdk/client-ec2',
  '@aws-sdk/client-ssm',
  '@aws-sdk/client-dynamodb',
  '@aws-sdk/client-sqs',
  '@aws-sdk/client-eventbridge',
];
const CATALOG = 'functions/core/catalog/data/us-west-2.json';

describe('cold start of the function bundles', () => {
  it('provisioner: the service clients and YAML load on first use, the catalog at init', async () => {
    const bundle = await build('provisioner');
    for (const client of SERVICE_CLIENTS) expect(bundle.coldStart).not.toContain(client);
    expect(bundle.coldStart).not.toContain('yaml');
    expect(bundle.coldStart).toContain(CATALOG);
    expect(bundle.coldStart).toContain('functions/handlers/provisioner.ts');
    for (const client of ['@aws-sdk/client-ec2', '@aws-sdk/client-dynamodb', '@aws-sdk/client-sqs'])
      expect(bundle.all).toContain(client);
    // The NodeConfig of AL2023 nodes is written as JSON: the launch path needs no YAML library.
    expect(bundle.all).not.toContain('yaml');
  });

  it('lifecycle: no service client and no YAML at init, and no instance catalog at all', async () => {
    const bundle = await build('lifecycle');
    for (const client of SERVICE_CLIENTS) expect(bundle.coldStart).not.toContain(client);
    expect(bundle.coldStart).not.toContain('yaml');
    expect(bundle.all).not.toContain(CATALOG);
    expect(bundle.coldStart).toContain('functions/handlers/lifecycle.ts');
  });

  it('installer: bundles none of the other functions’ adapters', async () => {
    const bundle = await build('installer');
    for (const client of SERVICE_CLIENTS) expect(bundle.all).not.toContain(client);
    expect(bundle.all).not.toContain(CATALOG);
    expect(bundle.coldStart).toContain('functions/handlers/installer.ts');
  });
});
