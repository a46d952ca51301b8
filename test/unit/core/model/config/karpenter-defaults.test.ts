import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { computePlan } from '../../../../../bin/commands/plan.js';
import { DEFAULT_NODE_CLASS, errorsOf, load, v1Pool } from './helpers.js';

const OS = { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] };
const ARCH = { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] };
const ON_DEMAND = { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] };
const CATEGORY = { key: 'karpenter.k8s.aws/instance-category', operator: 'In', values: ['c', 'm', 'r'] };
const GENERATION = { key: 'karpenter.k8s.aws/instance-generation', operator: 'Gt', values: ['2'] };

function provisioner(spec: object = {}) {
  return {
    apiVersion: 'karpenter.sh/v1alpha5',
    kind: 'Provisioner',
    metadata: { name: 'prov' },
    spec: { provider: { subnetSelector: { a: 'b' }, securityGroupSelector: { a: 'b' } }, ...spec },
  };
}

function provisionerRequirements(requirements: object[]) {
  const loaded = load(provisioner({ requirements }));
  expect(errorsOf(loaded)).toEqual([]);
  return loaded.nodePools[0].requirements;
}

describe('v1alpha5 Provisioner: the requirement defaults of Karpenter’s AWS webhook', () => {
  it('an open Provisioner gets os linux, arch amd64, on-demand, categories c/m/r, generation > 2', () => {
    expect(provisionerRequirements([])).toEqual([OS, ARCH, ON_DEMAND, CATEGORY, GENERATION]);
  });

  it('capacity type: on-demand only when the Provisioner does not constrain it', () => {
    const spot = { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] };
    expect(provisionerRequirements([spot])).toEqual([spot, OS, ARCH, CATEGORY, GENERATION]);
    const notSpot = { key: 'karpenter.sh/capacity-type', operator: 'NotIn', values: ['spot'] };
    expect(provisionerRequirements([notSpot])).not.toContainEqual(ON_DEMAND);
  });

  it('arch: amd64 only when neither kubernetes.io/arch nor its beta key is constrained', () => {
    const arm = { key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] };
    expect(provisionerRequirements([arm])).not.toContainEqual(ARCH);
    const beta = { key: 'beta.kubernetes.io/arch', operator: 'In', values: ['arm64'] };
    expect(provisionerRequirements([beta])).not.toContainEqual(ARCH);
  });

  it('os: linux only when kubernetes.io/os is not constrained', () => {
    const os = { key: 'kubernetes.io/os', operator: 'Exists' };
    const reqs = provisionerRequirements([os]);
    expect(reqs).not.toContainEqual(OS);
    expect(reqs).toContainEqual({ ...os, values: [] });
  });

  it.each([
    'node.kubernetes.io/instance-type',
    'beta.kubernetes.io/instance-type',
    'karpenter.k8s.aws/instance-family',
    'karpenter.k8s.aws/instance-category',
    'karpenter.k8s.aws/instance-generation',
  ])('instance category / generation: no default once %s is constrained', (key) => {
    const values = key.endsWith('generation') ? ['5'] : key.endsWith('category') ? ['t'] : ['m5.large'];
    const reqs = provisionerRequirements([{ key, operator: 'In', values }]);
    expect(reqs).not.toContainEqual(CATEGORY);
    expect(reqs).not.toContainEqual(GENERATION);
  });

  it('instance category / generation: other instance keys (cpu, size) keep the default', () => {
    const cpu = { key: 'karpenter.k8s.aws/instance-cpu', operator: 'In', values: ['4'] };
    expect(provisionerRequirements([cpu])).toEqual([cpu, OS, ARCH, ON_DEMAND, CATEGORY, GENERATION]);
  });

  it('never expires without ttlSecondsUntilExpired and has no disruption budgets', () => {
    const [p] = load(provisioner()).nodePools;
    expect(p.expireAfterMs).toBeNull();
    expect(p.disruption.budgets).toEqual([]);
  });
});

describe('v1beta1 and v1 NodePools: no requirement defaults (Karpenter dropped them in v1beta1)', () => {
  it('v1: an open NodePool keeps its requirements as written, so every capacity type and arch is allowed', () => {
    const loaded = load(v1Pool('open'), DEFAULT_NODE_CLASS);
    expect(errorsOf(loaded)).toEqual([]);
    expect(loaded.nodePools[0].requirements).toEqual([]);
  });

  it('v1beta1: no requirement defaults; expireAfter 720h, budgets 10%, WhenUnderutilized, consolidateAfter 0', () => {
    const loaded = load(
      {
        apiVersion: 'karpenter.sh/v1beta1',
        kind: 'NodePool',
        metadata: { name: 'beta' },
        spec: { template: { spec: { nodeClassRef: { name: 'default' } } } },
      },
      DEFAULT_NODE_CLASS,
    );
    expect(errorsOf(loaded)).toEqual([]);
    expect(loaded.nodePools[0]).toMatchObject({
      requirements: [],
      weight: 0,
      expireAfterMs: 720 * 3_600_000,
      disruption: {
        consolidationPolicy: 'WhenEmptyOrUnderutilized',
        consolidateAfterMs: 0,
        budgets: [{ nodes: { percent: 10 } }],
      },
    });
  });
});

describe('what the defaults plan', () => {
  let dir: string;
  const deployment = (nodeSelector?: Record<string, string>) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          ...(nodeSelector ? { nodeSelector } : {}),
          containers: [{ name: 'web', image: 'nginx', resources: { requests: { cpu: '1', memory: '1Gi' } } }],
        },
      },
    },
  });

  async function plan(name: string, ...objects: object[]) {
    const file = join(dir, `${name}.yaml`);
    await writeFile(file, objects.map((o) => stringify(o)).join('---\n'));
    return computePlan([file]);
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'defaults-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('an open v1alpha5 Provisioner launches on-demand amd64 nodes of categories c, m or r', async () => {
    const out = await plan('prov', provisioner(), deployment());
    expect(out.unschedulable).toEqual([]);
    expect(out.nodeClaims.length).toBeGreaterThan(0);
    for (const claim of out.nodeClaims) {
      for (const o of claim.instanceTypeOptions) {
        expect(o.capacityType).toBe('on-demand');
        expect(o.instanceType).toMatch(/^[cmr]\d/);
      }
      expect(claim.labels['kubernetes.io/arch']).toBe('amd64');
    }
  });

  it('a pod that requires spot cannot use an open v1alpha5 Provisioner (it is on-demand only)', async () => {
    const out = await plan('prov-spot', provisioner(), deployment({ 'karpenter.sh/capacity-type': 'spot' }));
    expect(out.nodeClaims).toEqual([]);
    expect(out.unschedulable).toHaveLength(2);
  });

  it('an open v1 NodePool may launch spot, as Karpenter v1 prefers it when allowed', async () => {
    const out = await plan('v1', v1Pool('open'), DEFAULT_NODE_CLASS, deployment());
    expect(out.unschedulable).toEqual([]);
    expect(out.nodeClaims.length).toBeGreaterThan(0);
    for (const claim of out.nodeClaims) {
      expect(claim.instanceTypeOptions.some((o) => o.capacityType === 'spot')).toBe(true);
    }
  });
});
