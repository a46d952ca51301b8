import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../../../functions/core/model/config/diagnostic.js';
import { DEFAULT_NODE_CLASS, errorsOf, load, v1Pool } from './helpers.js';

function nodeClass(spec: object, name = 'default') {
  return { ...DEFAULT_NODE_CLASS, metadata: { name }, spec: { ...DEFAULT_NODE_CLASS.spec, ...spec } };
}

function formatted(loaded: ReturnType<typeof load>, severity: 'error' | 'warning' = 'error') {
  return loaded.diagnostics.filter((d) => d.severity === severity).map(formatDiagnostic);
}

describe('not supported yet: a clear error at validate time', () => {
  it.each(['Windows2019', 'Windows2022'])('amiFamily %s names the document and field', (family) => {
    const loaded = load(nodeClass({ amiFamily: family, amiSelectorTerms: [{ id: 'ami-1' }] }));
    expect(formatted(loaded)).toEqual([
      `test.yaml: EC2NodeClass/default: spec.amiFamily: amiFamily ${family} is not supported: joiner does not launch Windows nodes yet (hint: use AL2023, AL2, Bottlerocket or Custom)`,
    ]);
    expect(loaded.nodeClasses).toEqual([]);
    expect(loaded.documents[0].ok).toBe(false);
  });

  it.each(['windows2022@latest', 'windows2019@v20240101'])('the alias %s is refused at its term', (alias) => {
    const loaded = load(nodeClass({ amiSelectorTerms: [{ alias }] }));
    expect(errorsOf(loaded)).toEqual([
      expect.objectContaining({
        document: 'EC2NodeClass/default',
        path: 'spec.amiSelectorTerms[0].alias',
        message: expect.stringMatching(new RegExp(`alias "${alias}" selects Windows20\\d\\d AMIs`)),
      }),
    ]);
  });

  it('Bottlerocket userData that is not TOML is refused at validate time, with its line', () => {
    const loaded = load(
      nodeClass({
        amiSelectorTerms: [{ alias: 'bottlerocket@latest' }],
        userData: '[settings.kubernetes\nx = 1',
      }),
    );
    expect(errorsOf(loaded)).toEqual([
      expect.objectContaining({
        document: 'EC2NodeClass/default',
        path: 'spec.userData',
        message: expect.stringMatching(/^Bottlerocket userData is not valid TOML \(line 1\)/),
      }),
    ]);
    const merged = load(
      nodeClass({
        amiSelectorTerms: [{ alias: 'bottlerocket@latest' }],
        userData: '[settings.kubernetes]\nhousekeeping-interval = "1s"',
      }),
    );
    expect(errorsOf(merged)).toEqual([]);
  });

  it('a Windows alias beside a Linux amiFamily is refused too', () => {
    const loaded = load(
      nodeClass({ amiFamily: 'AL2023', amiSelectorTerms: [{ alias: 'windows2022@latest' }] }),
    );
    expect(errorsOf(loaded).map((d) => d.path)).toEqual(['spec.amiSelectorTerms[0].alias']);
  });

  it('an alias of an unknown family is refused at validate time, not at launch', () => {
    const loaded = load(nodeClass({ amiSelectorTerms: [{ alias: 'ubuntu@latest' }] }));
    expect(errorsOf(loaded)).toEqual([
      expect.objectContaining({
        path: 'spec.amiSelectorTerms[0].alias',
        message: 'alias "ubuntu@latest" names an unknown AMI family "ubuntu"',
      }),
    ]);
  });

  it('the Linux aliases and families load', () => {
    for (const spec of [
      { amiSelectorTerms: [{ alias: 'al2023@latest' }] },
      { amiSelectorTerms: [{ alias: 'al2@latest' }] },
      { amiSelectorTerms: [{ alias: 'bottlerocket@v1.20.0' }] },
      { amiFamily: 'Custom', amiSelectorTerms: [{ id: 'ami-1' }], userData: '#!/bin/bash' },
    ]) {
      expect(errorsOf(load(nodeClass(spec)))).toEqual([]);
    }
  });

  it("capacityReservationSelectorTerms are accepted (Karpenter v1.3+), with Karpenter's rules per term", () => {
    const ok = load(
      nodeClass({
        capacityReservationSelectorTerms: [
          { id: 'cr-0123456789abcdef0' },
          { tags: { team: 'ml' }, ownerID: '123456789012' },
          { instanceMatchCriteria: 'targeted' },
        ],
      }),
      v1Pool('p'),
    );
    expect(errorsOf(ok)).toEqual([]);
    const bad = formatted(
      load(
        nodeClass({
          capacityReservationSelectorTerms: [
            { id: 'cr-1', tags: { team: 'ml' } },
            { id: 'reservation-1' },
            { tags: { team: 'ml' }, ownerID: '42' },
            { ownerID: '123456789012' },
            { instanceMatchCriteria: 'closed' },
          ],
        }),
      ),
    ).join('\n');
    expect(bad).toContain('spec.capacityReservationSelectorTerms[0]: "id" is mutually exclusive');
    expect(bad).toContain('spec.capacityReservationSelectorTerms[1].id: must be a capacity reservation id');
    expect(bad).toContain(
      'spec.capacityReservationSelectorTerms[2].ownerID: must be a 12-digit AWS account id',
    );
    expect(bad).toContain('spec.capacityReservationSelectorTerms[3]: selector term selects nothing');
    expect(bad).toContain('spec.capacityReservationSelectorTerms[4].instanceMatchCriteria');
  });

  it('a joiner.sh/v1 NodeClass is checked the same way', () => {
    const loaded = load({
      apiVersion: 'joiner.sh/v1',
      kind: 'NodeClass',
      metadata: { name: 'j' },
      spec: { ...DEFAULT_NODE_CLASS.spec, amiFamily: 'Windows2022' },
    });
    expect(errorsOf(loaded)).toEqual([
      expect.objectContaining({ document: 'NodeClass/j', path: 'spec.amiFamily' }),
    ]);
  });

  it('v1beta1 EC2NodeClass and v1alpha5 provider / AWSNodeTemplate: Windows at their own paths', () => {
    const beta = load({
      apiVersion: 'karpenter.k8s.aws/v1beta1',
      kind: 'EC2NodeClass',
      metadata: { name: 'b' },
      spec: { ...DEFAULT_NODE_CLASS.spec, amiSelectorTerms: undefined, amiFamily: 'Windows2019' },
    });
    expect(errorsOf(beta)).toEqual([
      expect.objectContaining({ document: 'EC2NodeClass/b', path: 'spec.amiFamily' }),
    ]);
    const prov = load({
      apiVersion: 'karpenter.sh/v1alpha5',
      kind: 'Provisioner',
      metadata: { name: 'w' },
      spec: {
        provider: { amiFamily: 'Windows2022', subnetSelector: { a: 'b' }, securityGroupSelector: { a: 'b' } },
      },
    });
    expect(errorsOf(prov)).toEqual([
      expect.objectContaining({ document: 'Provisioner/w', path: 'spec.provider.amiFamily' }),
    ]);
    expect(prov.nodePools).toEqual([]);
    const template = load({
      apiVersion: 'karpenter.k8s.aws/v1alpha1',
      kind: 'AWSNodeTemplate',
      metadata: { name: 't' },
      spec: { amiFamily: 'Windows2019', subnetSelector: { a: 'b' }, securityGroupSelector: { a: 'b' } },
    });
    expect(errorsOf(template)).toEqual([
      expect.objectContaining({ document: 'AWSNodeTemplate/t', path: 'spec.amiFamily' }),
    ]);
  });
});

describe('instanceStorePolicy RAID0', () => {
  it.each([
    [{ amiSelectorTerms: [{ alias: 'al2023@latest' }] }],
    [{ amiSelectorTerms: [{ alias: 'al2@latest' }] }],
    [{ amiSelectorTerms: [{ alias: 'bottlerocket@latest' }] }],
    [{ amiFamily: 'Bottlerocket', amiSelectorTerms: [{ name: 'bottlerocket-*' }] }],
  ])('loads without diagnostics where joiner’s user data builds the array: %j', (spec) => {
    const loaded = load(nodeClass({ ...spec, instanceStorePolicy: 'RAID0' }));
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.nodeClasses[0].instanceStorePolicy).toBe('RAID0');
  });

  it('warns with Custom: only the NodeClass user data can build the array', () => {
    const loaded = load(
      nodeClass({
        amiFamily: 'Custom',
        amiSelectorTerms: [{ id: 'ami-1' }],
        userData: '#!/bin/bash',
        instanceStorePolicy: 'RAID0',
      }),
    );
    expect(errorsOf(loaded)).toEqual([]);
    expect(formatted(loaded, 'warning')).toEqual([
      expect.stringMatching(
        /^test\.yaml: EC2NodeClass\/default: spec\.instanceStorePolicy: instanceStorePolicy RAID0 with amiFamily Custom: .*only your userData can assemble the array/,
      ),
    ]);
  });
});
