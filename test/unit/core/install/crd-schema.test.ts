import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { joinerManifests } from '../../../../functions/core/install/index.js';
import type { KubeManifest } from '../../../../functions/core/install/kube-manifest.js';
import { loadDocuments } from '../../../../functions/core/model/config/load.js';
import {
  type StructuralNode,
  schemaErrors,
} from '../../../../functions/simulator/kube/api/schema-validation.js';

const crds = (): KubeManifest[] =>
  joinerManifests({ webhookUrl: 'https://hook.example/x' }).filter(
    (m) => m.kind === 'CustomResourceDefinition',
  );

/** The schema of `<plural>.<group>`'s only version. */
function schemaOf(name: string): StructuralNode {
  const crd = crds().find((c) => c.metadata.name === name);
  if (!crd) throw new Error(`no CRD ${name}`);
  const versions = (crd.spec as { versions: { schema: { openAPIV3Schema: StructuralNode } }[] }).versions;
  return versions[0].schema.openAPIV3Schema;
}

const CRD_OF: Record<string, string> = {
  'karpenter.sh/NodePool': 'nodepools.karpenter.sh',
  'karpenter.k8s.aws/EC2NodeClass': 'ec2nodeclasses.karpenter.k8s.aws',
  'karpenter.sh/NodeOverlay': 'nodeoverlays.karpenter.sh',
  'joiner.sh/NodePool': 'nodepools.joiner.sh',
  'joiner.sh/NodeClass': 'nodeclasses.joiner.sh',
};

/** What the API server says of `doc` (its CRD's schema), and what joiner says (its zod schema). */
function verdicts(doc: Record<string, unknown>): { apiServer: string[]; joiner: string[] } {
  const group = String(doc.apiVersion).split('/')[0];
  const schema = schemaOf(CRD_OF[`${group}/${doc.kind}`]);
  const apiServer = schemaErrors(schema, doc).map((e) => `${e.field}: ${e.detail}`);
  // With the EC2NodeClass the NodePools name, so only the document's own errors count.
  const loaded = loadDocuments([
    { file: 'test.yaml', index: 0, object: doc },
    { file: 'test.yaml', index: 1, object: { ...nodeClass({}), metadata: { name: 'default' } } },
  ]);
  const joiner = loaded.diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => `${d.path}: ${d.message}`);
  return { apiServer, joiner };
}

const pool = (spec: Record<string, unknown> = {}, template: Record<string, unknown> = {}) => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'p' },
  spec: {
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        ...template,
      },
    },
    ...spec,
  },
});
const requirement = (r: Record<string, unknown>) => pool({}, { requirements: [r] });
const nodeClass = (spec: Record<string, unknown>) => ({
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  metadata: { name: 'c' },
  spec: { role: 'node', amiSelectorTerms: [{ alias: 'al2023@latest' }], ...spec },
});
const overlay = (spec: Record<string, unknown>) => ({
  apiVersion: 'karpenter.sh/v1alpha1',
  kind: 'NodeOverlay',
  metadata: { name: 'o' },
  spec: {
    requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m5.large'] }],
    ...spec,
  },
});

/** Documents joiner refuses, and the field the API server must name when it refuses them too. */
const REFUSED: [string, Record<string, unknown>, RegExp][] = [
  [
    'an unknown operator',
    requirement({ key: 'karpenter.sh/capacity-type', operator: 'Inn', values: ['spot'] }),
    /requirements\[0\]\.operator: Unsupported value: "Inn": supported values: "In", "NotIn"/,
  ],
  [
    'a negative limit',
    pool({ limits: { cpu: '-5' } }),
    /spec\.limits\.cpu: Invalid value: "-5": .* should match/,
  ],
  [
    'a negative integer limit',
    pool({ limits: { cpu: -5 } }),
    /spec\.limits\.cpu: Invalid value: -5: .*greater than or equal to 0/,
  ],
  [
    'a limit that is no quantity',
    pool({ limits: { memory: 'lots' } }),
    /spec\.limits\.memory: Invalid value: "lots"/,
  ],
  [
    'In without values',
    requirement({ key: 'kubernetes.io/arch', operator: 'In' }),
    /requirements\[0\]: .*need at least one value/,
  ],
  [
    'Exists with values',
    requirement({ key: 'kubernetes.io/arch', operator: 'Exists', values: ['amd64'] }),
    /requirements\[0\]: .*take no values/,
  ],
  [
    'Gt with a word',
    requirement({ key: 'karpenter.k8s.aws/instance-cpu', operator: 'Gt', values: ['four'] }),
    /requirements\[0\]: .*exactly one integer value/,
  ],
  [
    'minValues above the values listed',
    requirement({
      key: 'node.kubernetes.io/instance-type',
      operator: 'In',
      values: ['m5.large'],
      minValues: 2,
    }),
    /requirements\[0\]: .*minValues is more than/,
  ],
  ['weight 0', pool({ weight: 0 }), /spec\.weight: Invalid value: 0: .*greater than or equal to 1/],
  ['weight 101', pool({ weight: 101 }), /spec\.weight: Invalid value: 101: .*less than or equal to 100/],
  [
    '101 requirements',
    pool(
      {},
      {
        requirements: Array.from({ length: 101 }, (_, i) => ({
          key: `example.com/k${i}`,
          operator: 'Exists',
        })),
      },
    ),
    /requirements: Too many: 101: must have at most 100 items/,
  ],
  [
    'a budget schedule without a duration',
    pool({ disruption: { budgets: [{ nodes: '1', schedule: '@daily' }] } }),
    /budgets\[0\]: .*'schedule' must be set with 'duration'/,
  ],
  [
    'a budget of 150%',
    pool({ disruption: { budgets: [{ nodes: '150%' }] } }),
    /budgets\[0\]\.nodes: Invalid value: "150%"/,
  ],
  [
    'a taint effect that does not exist',
    pool({}, { taints: [{ key: 'a', effect: 'NoWay' }] }),
    /taints\[0\]\.effect: Unsupported value/,
  ],
  ['a bad expireAfter', pool({}, { expireAfter: 'forever' }), /expireAfter: Invalid value: "forever"/],
  [
    'terminationGracePeriod Never',
    pool({}, { terminationGracePeriod: 'Never' }),
    /terminationGracePeriod: Invalid value: "Never"/,
  ],
  [
    'a missing nodeClassRef',
    { ...pool(), spec: { template: { spec: {} } } },
    /spec\.template\.spec\.nodeClassRef: Required value/,
  ],
  ['an invalid label value', pool({}, {}), /x/],
  [
    'a requirement on kubernetes.io/hostname',
    requirement({ key: 'kubernetes.io/hostname', operator: 'In', values: ['a'] }),
    /requirements\[0\]\.key: .*"kubernetes\.io\/hostname" are restricted/,
  ],
  [
    'a requirement in the kubernetes.io domain',
    requirement({ key: 'team.kubernetes.io/name', operator: 'Exists' }),
    /requirements\[0\]\.key: .*label domain "kubernetes\.io" is restricted/,
  ],
  [
    'a requirement in the k8s.io domain',
    requirement({ key: 'k8s.io/name', operator: 'Exists' }),
    /requirements\[0\]\.key: .*label domain "k8s\.io" is restricted/,
  ],
  [
    'an unknown karpenter.k8s.aws label',
    requirement({ key: 'karpenter.k8s.aws/instance-colour', operator: 'Exists' }),
    /requirements\[0\]\.key: .*label domain "karpenter\.k8s\.aws" is restricted/,
  ],
  [
    'a karpenter.sh template label',
    {
      ...pool(),
      spec: {
        ...pool().spec,
        template: { ...pool().spec.template, metadata: { labels: { 'karpenter.sh/team': 'a' } } },
      },
    },
    /template\.metadata\.labels: .*label domain "karpenter\.sh" is restricted/,
  ],
  [
    'a selector term with id and tags',
    nodeClass({ subnetSelectorTerms: [{ id: 'subnet-1', tags: { a: 'b' } }] }),
    /subnetSelectorTerms\[0\]: .*"id" is mutually exclusive/,
  ],
  [
    'an empty selector term',
    nodeClass({ securityGroupSelectorTerms: [{}] }),
    /securityGroupSelectorTerms\[0\]: .*selects nothing/,
  ],
  [
    'an unknown AMI family',
    nodeClass({ amiFamily: 'Ubuntu' }),
    /spec\.amiFamily: Unsupported value: "Ubuntu"/,
  ],
  [
    'an alias without a version',
    nodeClass({ amiSelectorTerms: [{ alias: 'al2023' }] }),
    /amiSelectorTerms\[0\]\.alias: Invalid value/,
  ],
  [
    'a reservation id that is not one',
    nodeClass({ capacityReservationSelectorTerms: [{ id: 'reservation-1' }] }),
    /capacityReservationSelectorTerms\[0\]\.id: Invalid value/,
  ],
  [
    'both price and priceAdjustment',
    overlay({ price: '1.0', priceAdjustment: '-10%' }),
    /spec: .*cannot set both 'price' and 'priceAdjustment'/,
  ],
  ['an overlay setting cpu', overlay({ capacity: { cpu: '2' } }), /spec: .*capacity may not set cpu/],
  [
    'a price adjustment below -100%',
    overlay({ priceAdjustment: '-150%' }),
    /spec\.priceAdjustment: Invalid value/,
  ],
  [
    'two Multus interfaces on one device index',
    {
      apiVersion: 'joiner.sh/v1',
      kind: 'NodeClass',
      metadata: { name: 'm' },
      spec: {
        multusInterfaces: [1, 1].map((deviceIndex) => ({
          deviceIndex,
          subnetSelectorTerms: [{ tags: { a: 'b' } }],
          securityGroupSelectorTerms: [{ tags: { a: 'b' } }],
        })),
      },
    },
    /spec: .*each Multus interface needs its own deviceIndex/,
  ],
  [
    '101 template labels',
    {
      ...pool(),
      spec: {
        ...pool().spec,
        template: {
          ...pool().spec.template,
          metadata: {
            labels: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`example.com/l${i}`, 'a'])),
          },
        },
      },
    },
    /template\.metadata\.labels: Too many: 101: must have at most 100 items/,
  ],
  [
    'a requirement value of 64 characters',
    requirement({ key: 'example.com/team', operator: 'In', values: ['a'.repeat(64)] }),
    /requirements\[0\]\.values\[0\]: Too long: may not be more than 63 bytes/,
  ],
  [
    'an overlay adding 101 resources',
    overlay({
      capacity: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`example.com/r${i}`, 1])),
    }),
    /spec\.capacity: Too many: 101: must have at most 100 items/,
  ],
  [
    '151 Multus interfaces',
    {
      apiVersion: 'joiner.sh/v1',
      kind: 'NodeClass',
      metadata: { name: 'm' },
      spec: {
        multusInterfaces: Array.from({ length: 151 }, (_, i) => ({
          deviceIndex: (i % 15) + 1,
          networkCardIndex: Math.floor(i / 15),
          subnetSelectorTerms: [{ tags: { a: 'b' } }],
          securityGroupSelectorTerms: [{ tags: { a: 'b' } }],
        })),
      },
    },
    /spec\.multusInterfaces: Too many: 151: must have at most 150 items/,
  ],
];
REFUSED.splice(
  REFUSED.findIndex(([what]) => what === 'an invalid label value'),
  1,
  [
    'an invalid label value',
    {
      ...pool(),
      spec: { ...pool().spec, template: { ...pool().spec.template, metadata: { labels: { team: 'a b' } } } },
    },
    /template\.metadata\.labels\.team: Invalid value: "a b"/,
  ],
);

describe('the CRD schemas generated from the zod schemas', () => {
  it('are structural: a type on every node, no $ref, oneOf, propertyNames or additionalProperties false', () => {
    const problems: string[] = [];
    const walk = (node: Record<string, unknown>, path: string) => {
      for (const key of ['$ref', 'oneOf', 'allOf', 'not', 'propertyNames', '$schema', 'const'])
        if (key in node) problems.push(`${path}: ${key}`);
      if (node.additionalProperties === false) problems.push(`${path}: additionalProperties false`);
      if (node.anyOf !== undefined && node['x-kubernetes-int-or-string'] !== true)
        problems.push(`${path}: anyOf`);
      if (
        node.type === undefined &&
        node['x-kubernetes-int-or-string'] !== true &&
        node['x-kubernetes-preserve-unknown-fields'] !== true
      )
        problems.push(`${path}: no type`);
      if (Array.isArray(node.type)) problems.push(`${path}: a list of types`);
      for (const [key, child] of Object.entries(
        (node.properties as Record<string, Record<string, unknown>>) ?? {},
      ))
        walk(child, `${path}.${key}`);
      if (typeof node.items === 'object') walk(node.items as Record<string, unknown>, `${path}[]`);
      if (typeof node.additionalProperties === 'object')
        walk(node.additionalProperties as Record<string, unknown>, `${path}.*`);
    };
    for (const crd of crds()) walk(schemaOf(crd.metadata.name) as Record<string, unknown>, crd.metadata.name);
    expect(problems).toEqual([]);
  });

  it('say what Karpenter says of operators, limits and weight', () => {
    const spec = (schemaOf('nodepools.karpenter.sh').properties as Record<string, StructuralNode>).spec;
    const requirements = spec.properties?.template.properties?.spec.properties?.requirements;
    expect(requirements?.maxItems).toBe(100);
    expect(requirements?.items?.properties?.operator.enum).toEqual([
      'In',
      'NotIn',
      'Exists',
      'DoesNotExist',
      'Gt',
      'Lt',
      'Gte',
      'Lte',
    ]);
    expect(requirements?.items?.properties?.minValues).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 50,
    });
    expect(spec.properties?.limits.additionalProperties).toMatchObject({
      'x-kubernetes-int-or-string': true,
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      minimum: 0,
    });
    expect(spec.properties?.weight).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(spec.required).toEqual(['template']);
  });

  it('are the same on every generation', () => {
    expect(JSON.stringify(crds())).toBe(JSON.stringify(crds()));
  });

  it('accept the shipped examples', () => {
    for (const file of [
      'examples/sim-up/nodepool.yaml',
      'examples/seed-000/nodepool.yaml',
      'examples/node-overlay/nodeoverlay.yaml',
    ]) {
      for (const doc of parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS())) {
        const group = String(doc.apiVersion).split('/')[0];
        const name = CRD_OF[`${group}/${doc.kind}`];
        if (!name) continue;
        expect(schemaErrors(schemaOf(name), doc), `${file} ${doc.kind}/${doc.metadata.name}`).toEqual([]);
      }
    }
  });

  it.each(REFUSED)('refuse what joiner refuses: %s', (_what, doc, field) => {
    const { apiServer, joiner } = verdicts(doc);
    expect(joiner.length, 'joiner refuses it').toBeGreaterThan(0);
    expect(apiServer.join('\n')).toMatch(field);
  });

  it('accept what joiner accepts, numbers where Karpenter writes strings included', () => {
    for (const doc of [
      pool({ limits: { cpu: 1000, memory: '1000Gi' }, weight: 10 }),
      pool({
        disruption: { budgets: [{ nodes: 3 }, { nodes: '10%', schedule: '0 9 * * 1-5', duration: '8h' }] },
      }),
      requirement({ key: 'karpenter.k8s.aws/instance-cpu', operator: 'Gt', values: [4] }),
      requirement({
        key: 'node.kubernetes.io/instance-type',
        operator: 'In',
        values: ['a', 'b'],
        minValues: 2,
      }),
      pool({}, { expireAfter: 'Never', terminationGracePeriod: '1h30m' }),
      pool(
        {},
        {
          requirements: [
            'node.kubernetes.io/instance-type',
            'topology.kubernetes.io/zone',
            'karpenter.sh/capacity-type',
            'karpenter.k8s.aws/instance-family',
            'kops.k8s.io/instancegroup',
            'node-restriction.kubernetes.io/team',
            'example.com/team',
          ].map((key) => ({ key, operator: 'Exists' })),
        },
      ),
      {
        ...pool(),
        spec: {
          ...pool().spec,
          template: {
            ...pool().spec.template,
            metadata: {
              labels: { team: 'a', 'node.kubernetes.io/role': 'web', 'kubernetes.io/arch': 'amd64' },
            },
          },
        },
      },
      nodeClass({
        subnetSelectorTerms: [{ id: 'subnet-1' }],
        blockDeviceMappings: [{ deviceName: '/dev/xvda', ebs: { volumeSize: '100Gi' } }],
      }),
      overlay({ priceAdjustment: '-10%', capacity: { 'example.com/gpu': 1 } }),
    ]) {
      const { apiServer, joiner } = verdicts(doc);
      expect({ apiServer, joiner }).toEqual({ apiServer: [], joiner: [] });
    }
  });
});
