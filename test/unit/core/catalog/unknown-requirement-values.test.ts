import { describe, expect, it } from 'vitest';
import { renderValidation } from '../../../../bin/commands/validate.js';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import { unknownRequirementValues } from '../../../../functions/core/catalog/unknown-requirement-values.js';
import { loadDocuments } from '../../../../functions/core/model/config/load.js';

function nodePool(requirements: unknown[]) {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'typos' },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          requirements,
        },
      },
    },
  };
}

const nodeClass = {
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  metadata: { name: 'default' },
  spec: {
    role: 'node-role',
    amiSelectorTerms: [{ alias: 'al2023@latest' }],
    subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'demo' } }],
    securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'demo' } }],
  },
};

function load(requirements: unknown[]) {
  const loaded = loadDocuments([
    { file: 'pools.yaml', index: 0, object: nodePool(requirements) },
    { file: 'pools.yaml', index: 1, object: nodeClass },
  ]);
  expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return loaded;
}

describe('requirement values that match nothing in the catalog', () => {
  it('warns about 10,000 instance types none of which exists, naming the first five and counting the rest', () => {
    const values = Array.from({ length: 10_000 }, (_, i) => `x${i}.large`);
    const loaded = load([{ key: 'node.kubernetes.io/instance-type', operator: 'In', values }]);
    expect(loaded.nodePools).toHaveLength(1);
    const [warning, ...rest] = unknownRequirementValues(loaded.nodePools[0]!, bundledCatalog);
    expect(rest).toEqual([]);
    expect(warning).toMatchObject({ severity: 'warning', file: 'pools.yaml', document: 'NodePool/typos' });
    expect(warning?.message).toBe(
      `10000 of 10000 value(s) match no instance type of the ${bundledCatalog.region} catalog (none of its values does: it selects nothing): "x0.large", "x1.large", "x2.large", "x3.large", "x4.large" and 9995 more`,
    );
  });

  it('names the unknown values of each well-known key (family, zone, capacity type) and leaves known ones alone', () => {
    const loaded = load([
      { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m5.large', 'c5.xlarge'] },
      { key: 'karpenter.k8s.aws/instance-family', operator: 'In', values: ['m5', 'm55'] },
      {
        key: 'topology.kubernetes.io/zone',
        operator: 'In',
        values: [`${bundledCatalog.region}a`, 'mars-1a'],
      },
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'spott'] },
      { key: 'karpenter.k8s.aws/instance-family', operator: 'NotIn', values: ['zz9'] },
      { key: 'example.com/team', operator: 'In', values: ['anything'] },
    ]);
    const warnings = unknownRequirementValues(loaded.nodePools[0]!, bundledCatalog);
    expect(warnings.map((w) => [w.path, w.message.split(': ').at(-1)])).toEqual([
      ['requirements[key=karpenter.k8s.aws/instance-family]', '"m55"'],
      ['requirements[key=topology.kubernetes.io/zone]', '"mars-1a"'],
      ['requirements[key=karpenter.sh/capacity-type]', '"spott"'],
    ]);
  });

  it('refuses a value longer than a label value (63 characters, as Karpenter) instead of warning about it', () => {
    const loaded = loadDocuments([
      {
        file: 'pools.yaml',
        index: 0,
        object: nodePool([
          { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['y'.repeat(10_000)] },
        ]),
      },
      { file: 'pools.yaml', index: 1, object: nodeClass },
    ]);
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toMatchObject([
      {
        document: 'NodePool/typos',
        path: 'spec.template.spec.requirements[0].values[0]',
        message: expect.stringContaining('at most 63 characters'),
      },
    ]);
    expect(loaded.nodePools).toEqual([]);
  });

  it('joiner validate prints the warning and still passes the document', () => {
    const loaded = load([{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m5.lrage'] }]);
    const { lines, ok } = renderValidation(loaded, bundledCatalog);
    expect(ok).toBe(true);
    expect(lines.join('\n')).toMatch(/warning: pools\.yaml: NodePool\/typos: .*"m5\.lrage"/);
    expect(lines.at(-1)).toBe('2 document(s), 0 error(s), 1 warning(s)');
  });
});

describe('zone-ID requirement values', () => {
  it('warns about values that are not zone IDs of the region (a zone name, another region), leaves real ones alone', () => {
    const loaded = load([
      {
        key: 'topology.k8s.aws/zone-id',
        operator: 'In',
        values: ['usw2-az1', 'us-west-2a', 'use1-az1'],
      },
    ]);
    const warnings = unknownRequirementValues(loaded.nodePools[0]!, bundledCatalog);
    expect(warnings).toEqual([
      expect.objectContaining({
        severity: 'warning',
        path: 'requirements[key=topology.k8s.aws/zone-id]',
        message:
          '2 of 3 value(s) are not zone IDs of us-west-2, so no subnet is in them: "us-west-2a", "use1-az1"',
        hint: expect.stringContaining('"usw2-az1"'),
      }),
    ]);
    const ok = load([{ key: 'topology.k8s.aws/zone-id', operator: 'NotIn', values: ['usw2-az4'] }]);
    expect(unknownRequirementValues(ok.nodePools[0]!, bundledCatalog)).toEqual([]);
  });
});
