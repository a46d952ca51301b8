import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runJoiner } from '../../../helpers/run-joiner.js';

const joiner = runJoiner;

describe('joiner plan', () => {
  it("prints a table like Karpenter's log", async () => {
    const r = await joiner('plan', '-f', 'examples/seed-004');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('computed packing of 4 node(s) for 21 pod(s)');
    expect(r.stdout).toMatch(/spot-general-1\s+spot-general\s+c5\.2xlarge\s+us-west-2[ab]\s+spot\s+7/);
  });

  it('prints the plan as JSON with a summary', async () => {
    const r = await joiner('plan', '-f', 'examples/seed-004', '-o', 'json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.summary).toMatchObject({ pods: 21, nodeClaims: 4 });
    expect(out.summary.hourlyCost).toBeGreaterThan(0);
    const claim = out.nodeClaims[0];
    expect(Object.keys(claim)).toEqual(
      expect.arrayContaining(['name', 'nodePool', 'pods', 'instanceTypeOptions', 'labels', 'taints']),
    );
    expect(Object.keys(claim.instanceTypeOptions[0]).sort()).toEqual([
      'capacityType',
      'instanceType',
      'price',
      'zone',
    ]);
    expect(out.existingPlacements).toEqual([]);
    expect(out.unschedulable).toEqual([]);
  });

  it('exits 1 with unschedulable pods and lists them (the answer is "no")', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plan-'));
    const file = join(dir, 'pod.yaml');
    await writeFile(
      file,
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: lonely\nspec:\n  containers:\n    - name: a\n      resources:\n        requests:\n          cpu: "1"\n',
    );
    const r = await joiner('plan', '-f', file);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('default/lonely: no nodes and no NodePools');
  });

  it('exits 2 with a clear message on bad input, naming the path without internals', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plan-'));
    await writeFile(join(dir, 'catalog.json'), '{"region": 1}');
    const missing = await joiner('plan', '-f', 'does/not/exist.yaml');
    const badFormat = await joiner('plan', '-f', 'examples/seed-004', '-o', 'xml');
    const badCatalog = await joiner(
      'plan',
      '-f',
      'examples/seed-004',
      '--catalog',
      join(dir, 'catalog.json'),
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('joiner plan: does/not/exist.yaml: no such file or directory\n');
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toContain("argument 'xml' is invalid. expected table or json, got 'xml'");
    expect(badCatalog.code).toBe(2);
    expect(badCatalog.stderr).toContain('catalog.json');
  });
});
