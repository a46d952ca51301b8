/**
 * The simulated API server validates custom objects against their CRD's schema on every write,
 * as the real one does: create, replace, merge patch and status updates, 422 Invalid naming each
 * field, CEL rules included.
 */
import {
  type ApiException,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { karpenterCrds } from '../../../../functions/core/install/index.js';
import { applyManifests } from '../../../../functions/simulator/scenario/cluster-manifests.js';
import { type Harness, startHarness } from './fixtures.js';

const POOLS = { group: 'karpenter.sh', version: 'v1', plural: 'nodepools' };

const pool = (spec: Record<string, unknown> = {}) => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'default' },
  spec: {
    template: {
      spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' } },
    },
    ...spec,
  },
});

/** The Status body of a refused request. */
async function refusal(
  request: Promise<unknown>,
): Promise<{ code: number; reason: string; message: string; causes: { field: string }[] }> {
  const error = (await request.then(
    () => undefined,
    (e: unknown) => e,
  )) as ApiException<string> | undefined;
  if (!error) throw new Error('the request was accepted');
  const status = JSON.parse(error.body) as {
    reason: string;
    message: string;
    details: { causes: { field: string }[] };
  };
  return { code: error.code, reason: status.reason, message: status.message, causes: status.details.causes };
}

describe('custom objects against their CRD schema', () => {
  let h: Harness;
  let custom: CustomObjectsApi;

  beforeEach(async () => {
    h = await startHarness();
    for (const crd of karpenterCrds()) await h.sim.store.create(crd);
    custom = h.kc.makeApiClient(CustomObjectsApi);
  });
  afterEach(async () => {
    await h.sim.close();
  });

  it('refuses an unknown operator and a negative limit at create, naming both fields', async () => {
    const body = pool({
      limits: { cpu: '-5' },
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'Inn', values: ['spot'] }],
        },
      },
    });
    const refused = await refusal(custom.createClusterCustomObject({ ...POOLS, body }));
    expect(refused).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(refused.message).toMatch(/^NodePool\.karpenter\.sh "default" is invalid: \[/);
    expect(refused.message).toContain(
      'spec.template.spec.requirements[0].operator: Unsupported value: "Inn": supported values: "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte"',
    );
    expect(refused.message).toContain(
      'spec.limits.cpu: Invalid value: "-5": spec.limits.cpu in body should match',
    );
    expect(refused.causes.map((c) => c.field).sort()).toEqual([
      'spec.limits.cpu',
      'spec.template.spec.requirements[0].operator',
    ]);
    expect(h.sim.store.get('karpenter.sh/v1', 'NodePool', 'default')).toBeUndefined();
  });

  it('evaluates the CEL rules: In without values is refused with the rule message', async () => {
    const body = pool({
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          requirements: [{ key: 'kubernetes.io/arch', operator: 'In' }],
        },
      },
    });
    const refused = await refusal(custom.createClusterCustomObject({ ...POOLS, body }));
    expect(refused.message).toBe(
      'NodePool.karpenter.sh "default" is invalid: spec.template.spec.requirements[0]: Invalid value: "object": operators In and NotIn need at least one value',
    );
  });

  it('checks the object a merge patch or a replace makes, and keeps the stored one', async () => {
    await custom.createClusterCustomObject({ ...POOLS, body: pool({ weight: 10 }) });
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    const patched = await refusal(
      custom.patchClusterCustomObject({ ...POOLS, name: 'default', body: { spec: { weight: 500 } } }, merge),
    );
    expect(patched.message).toContain(
      'spec.weight: Invalid value: 500: spec.weight in body should be less than or equal to 100',
    );
    const replaced = await refusal(
      custom.replaceClusterCustomObject({
        ...POOLS,
        name: 'default',
        body: { ...pool(), spec: { limits: { cpu: 4 } } },
      }),
    );
    expect(replaced.message).toContain('spec.template: Required value');
    const stored = h.sim.store.get('karpenter.sh/v1', 'NodePool', 'default') as { spec: { weight: number } };
    expect(stored.spec.weight).toBe(10);
  });

  it('accepts a valid object and any status joiner writes', async () => {
    await custom.createClusterCustomObject({
      ...POOLS,
      body: pool({ limits: { cpu: 100, memory: '400Gi' } }),
    });
    const status = {
      conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: '' }],
      resources: { nodes: '1' },
    };
    await custom.replaceClusterCustomObjectStatus({
      ...POOLS,
      name: 'default',
      body: { ...pool(), metadata: { name: 'default' }, status },
    });
    expect(h.sim.store.get('karpenter.sh/v1', 'NodePool', 'default')).toMatchObject({ status });
  });

  it('serves a v1beta1 NodePool a scenario applies beside the installed v1 CRD, kept as written', async () => {
    const v1beta1 = {
      apiVersion: 'karpenter.sh/v1beta1',
      kind: 'NodePool',
      metadata: { name: 'old' },
      spec: {
        template: { spec: { nodeClassRef: { name: 'default' } } },
        disruption: { consolidationPolicy: 'WhenEmpty' },
      },
    };
    await applyManifests(h.sim.store, [v1beta1]);
    expect(h.sim.store.get('karpenter.sh/v1beta1', 'NodePool', 'old')).toMatchObject({ spec: v1beta1.spec });
    // The v1 version keeps its schema.
    await expect(h.sim.store.create({ ...pool(), spec: { weight: 0 } })).rejects.toThrow(
      /spec\.template: Required value/,
    );
  });
});
