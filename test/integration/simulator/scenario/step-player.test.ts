import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimulatedCloud, startSimulatedCloud } from '../../../../functions/simulator/cloud.js';
import { parseScenario } from '../../../../functions/simulator/scenario/load-scenario.js';
import { playSteps } from '../../../../functions/simulator/scenario/step-player.js';
import { smallCatalog } from '../cloud/small-catalog.js';
import { nodeBody } from '../kube/fixtures.js';

let cloud: SimulatedCloud;
const lines: string[] = [];

beforeAll(async () => {
  cloud = await startSimulatedCloud({ seed: 3, catalog: smallCatalog, autoAdvance: 200 });
});
afterAll(async () => {
  await cloud?.close();
});

const nodeClass = (ami: string) => `
      - apiVersion: karpenter.k8s.aws/v1
        kind: EC2NodeClass
        metadata: { name: default }
        spec: { role: node, amiSelectorTerms: [{ alias: ${ami} }] }`;

async function play(steps: string, marks: string[] = [], nodesRemoved?: () => number) {
  const scenario = await parseScenario(`name: t\nsteps:\n${steps}`, 'scenarios/t.yaml');
  return playSteps(scenario.steps, {
    cloud,
    say: (line) => lines.push(line),
    expect: async () => [],
    mark: (name) => {
      marks.push(name);
      return 0;
    },
    ...(nodesRemoved ? { nodesRemoved } : {}),
  });
}

const get = <T>(apiVersion: string, kind: string, name: string, namespace?: string) =>
  cloud.kube.store.get<T>(apiVersion, kind, name, namespace) as T;

interface Doc {
  metadata: { generation?: number; finalizers?: string[]; labels?: Record<string, string> };
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
}

describe('scenario steps against the simulated cloud', () => {
  it('applies a manifest again as a replacement, keeping the status and finalizers it does not list', async () => {
    await play(`  - apply:${nodeClass('al2023@v20250101')}\n`);
    await cloud.kube.store.patch('karpenter.k8s.aws/v1', 'EC2NodeClass', 'default', undefined, {
      metadata: { finalizers: ['karpenter.k8s.aws/termination'] },
    });
    await cloud.kube.store.patch(
      'karpenter.k8s.aws/v1',
      'EC2NodeClass',
      'default',
      undefined,
      { status: { amis: [{ id: 'ami-1' }] } },
      'status',
    );
    await play(`  - apply:${nodeClass('al2023@v20250601')}\n`);
    const replaced = get<Doc>('karpenter.k8s.aws/v1', 'EC2NodeClass', 'default');
    expect(replaced.spec.amiSelectorTerms).toEqual([{ alias: 'al2023@v20250601' }]);
    expect(replaced.metadata.generation).toBe(2);
    expect(replaced.metadata.finalizers).toEqual(['karpenter.k8s.aws/termination']);
    expect(replaced.status).toEqual({ amis: [{ id: 'ami-1' }] });
    await cloud.kube.store.patch('karpenter.k8s.aws/v1', 'EC2NodeClass', 'default', undefined, {
      metadata: { finalizers: null },
    });
  });

  it('merge-patches any object: lists replaced, null removes, namespace defaulted', async () => {
    await play(`  - patch:
      apiVersion: karpenter.k8s.aws/v1
      kind: EC2NodeClass
      name: default
      merge: { spec: { amiSelectorTerms: [{ id: ami-0new }] }, metadata: { labels: { team: a } } }
  - apply:
      - apiVersion: policy/v1
        kind: PodDisruptionBudget
        metadata: { name: web }
        spec: { maxUnavailable: 1, selector: { matchLabels: { app: web } } }
  - patch:
      apiVersion: policy/v1
      kind: PodDisruptionBudget
      name: web
      merge: { spec: { maxUnavailable: null, minAvailable: 2 } }
`);
    const nc = get<Doc>('karpenter.k8s.aws/v1', 'EC2NodeClass', 'default');
    expect(nc.spec.amiSelectorTerms).toEqual([{ id: 'ami-0new' }]);
    expect(nc.metadata.labels).toEqual({ team: 'a' });
    const pdb = get<Doc>('policy/v1', 'PodDisruptionBudget', 'web', 'default');
    expect(pdb.spec).toEqual({ minAvailable: 2, selector: { matchLabels: { app: 'web' } } });
    expect(lines.some((l) => l.includes('patch PodDisruptionBudget default/web'))).toBe(true);
  });

  it('names the step and the object when there is nothing to patch', async () => {
    await expect(
      play(`  - wait: 1s
  - patch: { apiVersion: karpenter.sh/v1, kind: NodePool, name: nowhere, merge: { spec: {} } }
`),
    ).rejects.toThrow('steps[1] (patch): the cluster does not serve NodePool in karpenter.sh/v1');
    await expect(
      play(`  - patch: { apiVersion: karpenter.k8s.aws/v1, kind: EC2NodeClass, name: other, merge: {} }\n`),
    ).rejects.toThrow('steps[0] (patch): no EC2NodeClass other to patch');
  });

  it('deletes a NodePool without touching the nodes that carry its name', async () => {
    await play(`  - apply:
      - apiVersion: karpenter.sh/v1
        kind: NodePool
        metadata: { name: general }
        spec: { template: { spec: { nodeClassRef: { name: default } } } }
`);
    await cloud.kube.store.create(nodeBody('pool-node', { labels: { 'karpenter.sh/nodepool': 'general' } }));
    await play(`  - delete: [{ apiVersion: karpenter.sh/v1, kind: NodePool, metadata: { name: general } }]
  - delete: [{ apiVersion: karpenter.sh/v1, kind: NodePool, metadata: { name: general } }]
`);
    expect(cloud.kube.store.get('karpenter.sh/v1', 'NodePool', 'general')).toBeUndefined();
    expect(cloud.kube.store.get('v1', 'Node', 'pool-node')).toBeDefined();
    await cloud.kube.store.delete('v1', 'Node', 'pool-node');
  });

  it('waits for a number of Node objects to hold; a count not reached fails, unless the wait is optional', async () => {
    for (const name of ['a', 'b', 'c']) await cloud.kube.store.create(nodeBody(name));
    const removing = (async () => {
      await new Promise((r) => setTimeout(r, 30));
      await cloud.kube.store.delete('v1', 'Node', 'a');
      await cloud.kube.store.delete('v1', 'Node', 'b');
    })();
    const start = cloud.clock.now();
    const outcome = await play('  - wait: { for: nodes, count: 1, timeout: 5m }\n');
    await removing;
    expect(outcome).toEqual({ failures: [], notes: [] });
    expect(cloud.kube.store.list('v1', 'Node')).toHaveLength(1);
    expect(cloud.clock.now() - start).toBeGreaterThanOrEqual(5_000);
    const missed = await play('  - wait: { for: nodes, count: 4, timeout: 20s }\n');
    expect(missed).toEqual({
      failures: [
        'step 0: 4 nodes not reached within 20s (virtual) (1 nodes); mark the wait optional: true if that is acceptable',
      ],
      notes: [],
    });
    const optional = await play('  - wait: { for: nodes, count: 4, timeout: 20s, optional: true }\n');
    expect(optional).toEqual({
      failures: [],
      notes: ['step 0: 4 nodes not reached within 20s (virtual) (1 nodes) (optional wait)'],
    });
  });

  it('waits for a number of removed nodes and ends when it is reached, not at the timeout', async () => {
    let removed = 0;
    const start = cloud.clock.now();
    const removing = (async () => {
      for (let i = 0; i < 3; i++) {
        await cloud.clock.sleep(40_000);
        removed++;
      }
    })();
    const outcome = await play(
      '  - wait: { for: nodesRemoved, count: 3, timeout: 20m }\n',
      [],
      () => removed,
    );
    await removing;
    expect(outcome).toEqual({ failures: [], notes: [] });
    const waited = cloud.clock.now() - start;
    expect(waited).toBeGreaterThanOrEqual(120_000);
    expect(waited).toBeLessThan(130_000);
    expect(lines).toContain('step 0: wait for 3 nodes removed (timeout 20m)');
    const missed = await play('  - wait: { for: nodesRemoved, count: 4, timeout: 20s }\n', [], () => removed);
    expect(missed.failures).toEqual([
      'step 0: 4 nodes removed not reached within 20s (virtual) (3 removed); mark the wait optional: true if that is acceptable',
    ]);
    await expect(play('  - wait: { for: nodesRemoved, count: 1, timeout: 20s }\n')).rejects.toThrow(
      /steps\[0\] \(wait\): a wait for nodesRemoved needs the count of removed nodes/,
    );
  });

  it('hands mark steps to the context', async () => {
    const marks: string[] = [];
    await play('  - mark: before\n  - mark: after\n', marks);
    expect(marks).toEqual(['before', 'after']);
  });
});
