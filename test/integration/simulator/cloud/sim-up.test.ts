import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallCatalog } from './small-catalog.js';

const cli = new URL('../../../../bin/joiner.js', import.meta.url).pathname;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sim-up-test-'));
  await writeFile(join(dir, 'catalog.json'), JSON.stringify(smallCatalog));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('joiner sim up', () => {
  it('prints the endpoints as one JSON line, serves, and stops cleanly on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [cli, 'sim', 'up', '--catalog', join(dir, 'catalog.json'), '--seed', '5'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const firstLine = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout });
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`exited with ${code} before printing`)));
    });
    const endpoints = JSON.parse(firstLine);
    expect(Object.keys(endpoints).sort()).toEqual(
      [
        'dynamodb',
        'ec2',
        'eks',
        'eventbridge',
        'iam',
        'kubeconfig',
        'kubernetes',
        'pricing',
        'secretsManager',
        'sqs',
        'ssm',
      ].sort(),
    );
    const kc = new KubeConfig();
    kc.loadFromFile(endpoints.kubeconfig);
    const namespaces = await kc.makeApiClient(CoreV1Api).listNamespace();
    expect(namespaces.items.length).toBeGreaterThan(0);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(endpoints.kubeconfig)).toBe(false);
  }, 30_000);
});
