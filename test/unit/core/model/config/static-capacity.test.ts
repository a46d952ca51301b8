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

describe('NodePool replicas (static capacity)', () => {
  it('is refused with an error naming spec.replicas, not ignored as an unknown field', () => {
    const loaded = loadDocuments([pool({ replicas: 3 })]);
    expect(loaded.nodePools).toEqual([]);
    expect(loaded.diagnostics.map((d) => [d.severity, d.path])).toEqual([['error', 'spec.replicas']]);
    expect(loaded.diagnostics[0].message).toMatch(/static NodePool \(Karpenter v1\.8\)/);
    expect(loaded.diagnostics[0].message).not.toMatch(/unknown field/);
  });

  it('must be a non-negative integer', () => {
    const loaded = loadDocuments([pool({ replicas: -1 })]);
    expect(loaded.diagnostics.map((d) => d.path)).toEqual(['spec.replicas']);
    expect(loadDocuments([pool({})]).diagnostics.filter((d) => d.path === 'spec.replicas')).toEqual([]);
  });
});
