import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computePlan, formatPlanTable } from '../../../../bin/commands/plan.js';

const NODE_CLASS = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  role: KarpenterNodeRole-test
  amiSelectorTerms: [{ alias: al2023@latest }]
  subnetSelectorTerms: [{ tags: { karpenter.sh/discovery: test } }]
  securityGroupSelectorTerms: [{ tags: { karpenter.sh/discovery: test } }]
`;

function nodePool(name: string, extra = '', nodeClass = 'default'): string {
  return `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: ${name}
spec:
  template:
    spec:
      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: ${nodeClass} }
${extra}`;
}

function pods(count: number, cpu: string, extraSpec = ''): string {
  return Array.from(
    { length: count },
    (_, i) => `apiVersion: v1
kind: Pod
metadata: { name: web-${i}, namespace: default }
spec:
${extraSpec}  containers: [{ name: app, resources: { requests: { cpu: "${cpu}", memory: 512Mi } } }]
`,
  ).join('---\n');
}

const CATALOG = {
  region: 'eu-test-1',
  instanceTypes: [
    {
      name: 'm9.large',
      vcpu: 2,
      memoryMiB: 8192,
      arch: 'amd64',
      maxEnis: 3,
      ipv4PerEni: 10,
      offerings: [
        { zone: 'eu-test-1a', capacityType: 'on-demand', price: 0.1 },
        { zone: 'eu-test-1a', capacityType: 'spot', price: 0.03 },
      ],
    },
    {
      name: 'm9.xlarge',
      vcpu: 4,
      memoryMiB: 16384,
      arch: 'amd64',
      maxEnis: 4,
      ipv4PerEni: 15,
      offerings: [{ zone: 'eu-test-1b', capacityType: 'spot', price: 0.05 }],
    },
  ],
};

async function files(docs: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'plan-'));
  for (const [name, text] of Object.entries(docs)) await writeFile(join(dir, name), text);
  return dir;
}

describe('joiner plan from files', () => {
  it('plans with the instance types of --catalog FILE', async () => {
    const dir = await files({
      'pool.yaml': `${NODE_CLASS}---\n${nodePool('default')}`,
      'pods.yaml': pods(3, '1'),
      'catalog.json': JSON.stringify(CATALOG),
    });
    const out = await computePlan(
      [join(dir, 'pool.yaml'), join(dir, 'pods.yaml')],
      join(dir, 'catalog.json'),
    );
    expect(out.unschedulable).toEqual([]);
    const types = out.nodeClaims.flatMap((c) => c.instanceTypeOptions.map((o) => o.instanceType));
    expect(new Set(types)).toEqual(new Set(['m9.xlarge']));
    expect(out.nodeClaims[0].instanceTypeOptions[0]).toMatchObject({
      zone: 'eu-test-1b',
      capacityType: 'spot',
    });
    expect(out.summary).toMatchObject({ pods: 3, nodeClaims: 1, hourlyCost: 0.05 });
  });

  it('names the catalog file and the bad field when the catalog is invalid', async () => {
    const bad = { ...CATALOG, instanceTypes: [{ ...CATALOG.instanceTypes[0], vcpu: -2 }] };
    const dir = await files({
      'pool.yaml': `${NODE_CLASS}---\n${nodePool('default')}`,
      'catalog.json': JSON.stringify(bad),
      'broken.json': '{ not json',
    });
    const pool = join(dir, 'pool.yaml');
    await expect(computePlan([pool], join(dir, 'catalog.json'))).rejects.toThrow(
      /catalog\.json.*vcpu|vcpu.*catalog\.json/s,
    );
    await expect(computePlan([pool], join(dir, 'broken.json'))).rejects.toThrow(
      /broken\.json.*not valid JSON/,
    );
    await expect(computePlan([pool], join(dir, 'missing.json'))).rejects.toThrow(
      /missing\.json: no such file/,
    );
  });

  it('places pending pods on existing Nodes read from the files before planning new ones', async () => {
    const node = `apiVersion: v1
kind: Node
metadata:
  name: node-a
  labels: { kubernetes.io/arch: amd64, topology.kubernetes.io/zone: us-west-2a }
status:
  capacity: { cpu: "4", memory: 16Gi, pods: "110" }
  allocatable: { cpu: 3920m, memory: 15Gi, pods: "110" }
---
apiVersion: v1
kind: Pod
metadata: { name: bound, namespace: default }
spec:
  nodeName: node-a
  containers: [{ name: app, resources: { requests: { cpu: "2" } } }]
`;
    const dir = await files({
      'pool.yaml': `${NODE_CLASS}---\n${nodePool('default')}`,
      'cluster.yaml': node,
      'pods.yaml': pods(3, '1'),
    });
    const out = await computePlan([dir]);
    expect(out.existingPlacements).toEqual([{ node: 'node-a', pods: ['default/web-0'] }]);
    expect(out.nodeClaims.flatMap((c) => c.pods).sort()).toEqual(['default/web-1', 'default/web-2']);
    expect(formatPlanTable(out)).toContain('existing node node-a: 1 pod(s)');
  });

  it('rejects an unknown nodeClassRef with the file, document, field and a hint', async () => {
    const dir = await files({ 'pools.yaml': [NODE_CLASS, nodePool('lost', '', 'nowhere')].join('---\n') });
    await expect(computePlan([dir])).rejects.toThrow(
      /pools\.yaml: NodePool\/lost: spec\.template\.spec\.nodeClassRef\.name: .*"nowhere".*hint/,
    );
  });

  it('gives reasons, not exceptions, for impossible requirements and zero instance types', async () => {
    const noTypes = `      requirements:
        - { key: karpenter.k8s.aws/instance-family, operator: In, values: [zz9] }
`;
    const dir = await files({
      'pools.yaml': [NODE_CLASS, nodePool('empty', noTypes)].join('---\n'),
      'pods.yaml': pods(1, '1'),
    });
    const out = await computePlan([dir]);
    expect(out.nodeClaims).toEqual([]);
    expect(out.unschedulable).toEqual([
      { pod: 'default/web-0', reason: expect.stringMatching(/nodepool empty: no instance type/) },
    ]);
    const arch = await files({
      'pools.yaml': [NODE_CLASS, nodePool('default')].join('---\n'),
      'pods.yaml': pods(1, '1', '  nodeSelector: { kubernetes.io/arch: s390x }\n'),
    });
    const impossible = await computePlan([arch]);
    expect(impossible.nodeClaims).toEqual([]);
    expect(impossible.unschedulable[0].reason).toMatch(/nodepool default: .*(instance type|requirement)/);
    expect(formatPlanTable(impossible)).toContain('1 pod(s) cannot be scheduled');
  });
});

describe('joiner plan: static NodePools (Karpenter v1.8 replicas)', () => {
  it('plans the replicas first and puts the pods on them; pods that do not fit wait, no node is added for them', async () => {
    const plan = await computePlan(['examples/static-capacity']);
    expect(plan.nodeClaims.map((c) => [c.nodePool, c.instanceTypeOptions[0]?.instanceType])).toEqual([
      ['fixed', 'm5.large'],
      ['fixed', 'm5.large'],
    ]);
    expect(plan.nodeClaims.reduce((n, c) => n + c.pods.length, 0)).toBe(3);
    expect(plan.unschedulable).toEqual([]);
    expect(formatPlanTable(plan)).toMatch(/^computed packing of 2 node\(s\) for 3 pod\(s\)/);
  });
});
