import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../../../functions/core/model/config/diagnostic.js';
import { DEFAULT_NODE_CLASS, errorsOf, load, v1Pool } from './helpers.js';

const req = (r: object) => v1Pool('p', { requirements: [r] });

function only(objects: object[]) {
  const loaded = load(...objects, DEFAULT_NODE_CLASS);
  const errors = errorsOf(loaded);
  expect(errors).toHaveLength(1);
  expect(loaded.nodePools.map((p) => p.name)).not.toContain('p');
  return errors[0];
}

describe('configuration errors name file, document, field path and what is wrong', () => {
  it('operator Equals gets a hint to use In', () => {
    const e = only([req({ key: 'kubernetes.io/arch', operator: 'Equals', values: ['amd64'] })]);
    expect(e).toMatchObject({
      file: 'test.yaml',
      document: 'NodePool/p',
      path: 'spec.template.spec.requirements[0].operator',
    });
    expect(e.message).toMatch(/unknown operator "Equals"/);
    expect(e.hint).toMatch(/use In/);
    expect(formatDiagnostic(e)).toMatch(
      /^test\.yaml: NodePool\/p: spec\.template\.spec\.requirements\[0\]\.operator: unknown/,
    );
  });

  it.each(['Gt', 'Lt', 'Gte', 'Lte'])('%s needs exactly one integer value', (operator) => {
    for (const values of [['4', '8'], [], ['four']]) {
      const e = only([req({ key: 'karpenter.k8s.aws/instance-cpu', operator, values })]);
      expect(e.path).toBe('spec.template.spec.requirements[0].values');
      expect(e.message).toMatch(new RegExp(`${operator} needs exactly one integer value`));
    }
  });

  it('In needs at least one value', () => {
    const e = only([req({ key: 'kubernetes.io/arch', operator: 'In', values: [] })]);
    expect(e.message).toMatch(/In needs at least one value/);
  });

  it.each(['Exists', 'DoesNotExist'])('%s takes no values', (operator) => {
    const e = only([req({ key: 'kubernetes.io/arch', operator, values: ['amd64'] })]);
    expect(e.message).toMatch(/takes no values/);
  });

  it('minValues may not exceed the number of In values', () => {
    const e = only([
      req({ key: 'karpenter.k8s.aws/instance-family', operator: 'In', values: ['m5'], minValues: 2 }),
    ]);
    expect(e.path).toBe('spec.template.spec.requirements[0].minValues');
  });

  it('limits may not be negative (v1, and v1alpha5 limits.resources)', () => {
    const e = only([v1Pool('p', {}, { limits: { cpu: '-16' } })]);
    expect(e.path).toBe('spec.limits.cpu');
    expect(e.message).toMatch(/quantity "-16" must not be negative/);
    const old = only([
      {
        apiVersion: 'karpenter.sh/v1alpha5',
        kind: 'Provisioner',
        metadata: { name: 'p' },
        spec: { providerRef: { name: 'default' }, limits: { resources: { memory: -1 } } },
      },
    ]);
    expect(old.path).toBe('spec.limits.resources.memory');
    expect(old.message).toMatch(/quantity -1 must not be negative/);
  });

  it('budget nodes must be a count or a percentage', () => {
    const e = only([v1Pool('p', {}, { disruption: { budgets: [{ nodes: 'ten' }] } })]);
    expect(e.path).toBe('spec.disruption.budgets[0].nodes');
    expect(e.hint).toMatch(/10%/);
  });

  it('a budget schedule requires a duration', () => {
    const e = only([v1Pool('p', {}, { disruption: { budgets: [{ nodes: '0', schedule: '0 8 * * sun' }] } })]);
    expect(e.path).toBe('spec.disruption.budgets[0].duration');
  });

  it('a bad cron schedule is named', () => {
    const e = only([
      v1Pool('p', {}, { disruption: { budgets: [{ nodes: '0', schedule: 'every day', duration: '1h' }] } }),
    ]);
    expect(e.path).toBe('spec.disruption.budgets[0].schedule');
  });

  it('a bad quantity in limits names the field', () => {
    const e = only([v1Pool('p', {}, { limits: { memory: '10 gigs' } })]);
    expect(e.path).toBe('spec.limits.memory');
    expect(e.message).toMatch(/invalid quantity "10 gigs"/);
  });

  it('a bad duration names the field', () => {
    const e = only([v1Pool('p', { expireAfter: '30 days' })]);
    expect(e.path).toBe('spec.template.spec.expireAfter');
  });

  it('an unsupported kind in a configuration group names what is supported', () => {
    const loaded = load({
      apiVersion: 'karpenter.sh/v2',
      kind: 'NodePool',
      metadata: { name: 'x' },
      spec: {},
    });
    const [e] = errorsOf(loaded);
    expect(e.document).toBe('NodePool/x');
    expect(e.message).toMatch(/unsupported kind NodePool in karpenter.sh\/v2/);
    expect(e.hint).toMatch(/karpenter.sh\/v1 NodePool/);
    expect(loaded.documents).toEqual([expect.objectContaining({ ok: false })]);
  });

  it('a missing nodeClassRef target is an error on that NodePool', () => {
    const loaded = load(v1Pool('p'));
    const [e] = errorsOf(loaded);
    expect(e).toMatchObject({ document: 'NodePool/p', path: 'spec.template.spec.nodeClassRef.name' });
    expect(e.message).toMatch(/EC2NodeClass "default" is not among the loaded node classes/);
    expect(loaded.nodePools).toEqual([]);
    expect(loaded.documents[0].ok).toBe(false);
  });

  it.each([
    ['kubernetes.io/hostname', /restricted/],
    ['karpenter.sh/nodepool', /restricted/],
    ['karpenter.sh/custom', /"karpenter.sh" is restricted/],
    ['example.k8s.io/team', /"k8s.io" is restricted/],
    ['kubernetes.io/custom', /"kubernetes.io" is restricted/],
    ['karpenter.k8s.aws/custom', /"karpenter.k8s.aws" is restricted/],
  ])('the restricted label %s is rejected as a label', (key, message) => {
    const e = only([
      {
        ...v1Pool('p'),
        spec: {
          ...(v1Pool('p') as { spec: object }).spec,
          template: {
            metadata: { labels: { [key]: 'x' } },
            spec: (v1Pool('p') as { spec: { template: { spec: object } } }).spec.template.spec,
          },
        },
      },
    ]);
    expect(e.path).toBe(`spec.template.metadata.labels.${key}`);
    expect(e.message).toMatch(message);
  });

  it.each([
    'node.kubernetes.io/instance-type',
    'karpenter.sh/capacity-type',
    'karpenter.k8s.aws/instance-family',
    'topology.kubernetes.io/zone',
    'team.example.com/x',
    'node-role.node.kubernetes.io/worker',
  ])('the well-known or user label %s is allowed as a requirement key', (key) => {
    const loaded = load(req({ key, operator: 'Exists' }), DEFAULT_NODE_CLASS);
    expect(errorsOf(loaded)).toEqual([]);
  });

  it('a document without apiVersion/kind is an error, named by position', () => {
    const loaded = load({ hello: 'world' });
    expect(errorsOf(loaded)).toEqual([
      expect.objectContaining({
        document: 'document 1',
        message: expect.stringMatching(/not a Kubernetes object/),
      }),
    ]);
  });

  it('a YAML syntax error is reported once, with its line and column, and the other documents still load', () => {
    const { documents, diagnostics } = parseYaml('a: [1, 2\n---\nb: 2\n');
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toEqual(
      expect.objectContaining({
        severity: 'error',
        document: 'document 1',
        position: { line: 2, column: 1 },
      }),
    );
    expect(formatDiagnostic(diagnostics[0])).toMatch(/^x\.yaml:2:1: document 1: YAML syntax error: [^\n]+$/);
    expect(formatDiagnostic(diagnostics[0])).not.toMatch(/at line/);
    expect(documents).toEqual([{ file: 'x.yaml', index: 1, object: { b: 2 } }]);
  });

  it('one indentation mistake is one diagnostic, however many errors yaml raises for it', () => {
    const text = 'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: a\n  b: [\nspec: {}\n';
    const { diagnostics } = parseYaml(text);
    expect(diagnostics.map(formatDiagnostic)).toEqual([expect.stringMatching(/^x\.yaml:6:1: document 1: /)]);
  });
});

import { parseYamlDocuments } from '../../../../../functions/core/model/config/raw-document.js';

function parseYaml(text: string) {
  return parseYamlDocuments('x.yaml', text);
}
