import { describe, expect, it } from 'vitest';
import { loadDocuments } from '../../../../../functions/core/model/config/load.js';

const pool = (spec: Record<string, unknown>) => ({
  file: 'pool.yaml',
  index: 0,
  object: {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'fixed' },
    spec: {
      template: { spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'x' } } },
      ...spec,
    },
  },
});

const nodeClass = {
  file: 'pool.yaml',
  index: 1,
  object: {
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata: { name: 'x' },
    spec: {
      role: 'NodeRole',
      amiSelectorTerms: [{ alias: 'al2023@latest' }],
      subnetSelectorTerms: [{ tags: { a: 'b' } }],
      securityGroupSelectorTerms: [{ tags: { a: 'b' } }],
    },
  },
};

describe('NodePool replicas (Karpenter v1.8 static capacity)', () => {
  it('makes a static pool that keeps the count, with limits.nodes as its only limit', () => {
    const loaded = loadDocuments([pool({ replicas: 3, limits: { nodes: 5 } }), nodeClass]);
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.nodePools[0].replicas).toBe(3);
    expect(loaded.nodePools[0].limits).toEqual({ nodes: 5 });
    expect(loadDocuments([pool({}), nodeClass]).nodePools[0].replicas).toBeUndefined();
  });

  it('accepts 0 replicas and ignores consolidation settings, as Karpenter does', () => {
    const loaded = loadDocuments([
      pool({ replicas: 0, disruption: { consolidationPolicy: 'WhenEmpty', consolidateAfter: '1m' } }),
      nodeClass,
    ]);
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.nodePools[0].replicas).toBe(0);
  });

  it('refuses a limit other than nodes, naming it', () => {
    const loaded = loadDocuments([pool({ replicas: 2, limits: { cpu: '100', nodes: 4 } })]);
    expect(loaded.nodePools).toEqual([]);
    expect(loaded.diagnostics.map((d) => [d.severity, d.path])).toEqual([['error', 'spec.limits.cpu']]);
    expect(loaded.diagnostics[0].message).toMatch(/only 'limits\.nodes' is supported on static NodePools/);
  });

  it('refuses weight', () => {
    const loaded = loadDocuments([pool({ replicas: 2, weight: 10 })]);
    expect(loaded.nodePools).toEqual([]);
    expect(loaded.diagnostics.map((d) => [d.severity, d.path])).toEqual([['error', 'spec.weight']]);
  });

  it('must be a non-negative integer', () => {
    const loaded = loadDocuments([pool({ replicas: -1 })]);
    expect(loaded.diagnostics.map((d) => d.path)).toEqual(['spec.replicas']);
    expect(loadDocuments([pool({ replicas: 1.5 })]).diagnostics.map((d) => d.path)).toEqual([
      'spec.replicas',
    ]);
    expect(loadDocuments([pool({})]).diagnostics.filter((d) => d.path === 'spec.replicas')).toEqual([]);
  });
});
