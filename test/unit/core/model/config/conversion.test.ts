import { describe, expect, it } from 'vitest';
import { allowedDisruptions } from '../../../../../functions/core/disruption/budgets.js';
import { nodeClass, nodePool } from '../../../../builders/config.js';
import { DEFAULT_NODE_CLASS, errorsOf, load, v1Pool } from './helpers.js';

describe('defaults (Karpenter v1)', () => {
  it('a minimal v1 NodePool and EC2NodeClass get the documented defaults', () => {
    const loaded = load(v1Pool('p'), DEFAULT_NODE_CLASS);
    expect(errorsOf(loaded)).toEqual([]);
    const [p] = loaded.nodePools;
    expect(p).toMatchObject({
      weight: 0,
      expireAfterMs: 720 * 3_600_000,
      disruption: {
        consolidationPolicy: 'WhenEmptyOrUnderutilized',
        consolidateAfterMs: 0,
        budgets: [{ nodes: { percent: 10 } }],
      },
    });
    const [c] = loaded.nodeClasses;
    expect(c.metadataOptions).toEqual({
      httpEndpoint: 'enabled',
      httpProtocolIPv6: 'disabled',
      httpPutResponseHopLimit: 1,
      httpTokens: 'required',
    });
    expect(c.detailedMonitoring).toBe(false);
  });

  it('the builders produce the same defaults as loading', () => {
    const loaded = load(v1Pool('default'), DEFAULT_NODE_CLASS);
    const { source: _s, ...fromFile } = loaded.nodePools[0];
    const { source: _b, ...built } = nodePool();
    expect(built).toEqual(fromFile);
    expect(nodeClass().metadataOptions).toEqual(loaded.nodeClasses[0].metadataOptions);
    expect(nodePool({ disruption: { consolidateAfterMs: 5000 } }).disruption.budgets).toEqual([
      { nodes: { percent: 10 } },
    ]);
  });
});

describe('karpenter.sh/v1 NodePool fields', () => {
  it('converts every field', () => {
    const doc = v1Pool(
      'full',
      {
        requirements: [
          {
            key: 'karpenter.k8s.aws/instance-family',
            operator: 'In',
            values: ['m5', 'c5', 'r5'],
            minValues: 2,
          },
        ],
        taints: [{ key: 'team', value: 'a', effect: 'NoSchedule' }],
        startupTaints: [{ key: 'init', effect: 'NoExecute' }],
        expireAfter: 'Never',
        terminationGracePeriod: '48h',
      },
      {
        weight: 50,
        limits: { cpu: '100', memory: '1000Gi', 'nvidia.com/gpu': 8 },
        disruption: {
          consolidationPolicy: 'WhenEmpty',
          consolidateAfter: '1h30m',
          budgets: [{ nodes: '3', reasons: ['Drifted'], schedule: '@daily', duration: '10m' }],
        },
      },
    );
    (doc as { spec: { template: { metadata?: object } } }).spec.template.metadata = {
      labels: { team: 'a' },
      annotations: { note: 'x' },
    };
    const loaded = load(doc, DEFAULT_NODE_CLASS);
    expect(errorsOf(loaded)).toEqual([]);
    expect(loaded.nodePools[0]).toMatchObject({
      weight: 50,
      labels: { team: 'a' },
      annotations: { note: 'x' },
      requirements: [
        {
          key: 'karpenter.k8s.aws/instance-family',
          operator: 'In',
          values: ['m5', 'c5', 'r5'],
          minValues: 2,
        },
      ],
      taints: [{ key: 'team', value: 'a', effect: 'NoSchedule' }],
      startupTaints: [{ key: 'init', effect: 'NoExecute' }],
      expireAfterMs: null,
      terminationGracePeriodMs: 48 * 3_600_000,
      limits: { cpu: 100_000, memory: 1000 * 2 ** 30, 'nvidia.com/gpu': 8 },
      disruption: {
        consolidationPolicy: 'WhenEmpty',
        consolidateAfterMs: 5_400_000,
        budgets: [{ nodes: { count: 3 }, reasons: ['Drifted'], schedule: '@daily', durationMs: 600_000 }],
      },
    });
  });
});

describe('karpenter.k8s.aws/v1 EC2NodeClass fields', () => {
  it('converts selector terms, AMI terms, kubelet, devices and options', () => {
    const loaded = load({
      apiVersion: 'karpenter.k8s.aws/v1',
      kind: 'EC2NodeClass',
      metadata: { name: 'full' },
      spec: {
        subnetSelectorTerms: [{ tags: { a: 'b' } }, { id: 'subnet-1' }],
        securityGroupSelectorTerms: [{ name: 'sg-name' }],
        amiSelectorTerms: [{ alias: 'bottlerocket@v1.20.0' }, { ssmParameter: '/my/ami' }],
        amiFamily: 'AL2023',
        instanceProfile: 'profile',
        kubelet: {
          maxPods: 50,
          systemReserved: { cpu: '100m', memory: '100Mi' },
          evictionHard: { 'memory.available': '5%' },
        },
        blockDeviceMappings: [
          { deviceName: '/dev/xvda', rootVolume: true, ebs: { volumeSize: '100Gi', volumeType: 'gp3' } },
        ],
        instanceStorePolicy: 'RAID0',
        metadataOptions: { httpPutResponseHopLimit: 2 },
        associatePublicIPAddress: false,
        detailedMonitoring: true,
        userData: 'echo hi',
        tags: { team: 'a' },
      },
    });
    expect(errorsOf(loaded)).toEqual([]);
    expect(loaded.nodeClasses[0]).toMatchObject({
      subnetSelectorTerms: [{ tags: { a: 'b' } }, { id: 'subnet-1' }],
      securityGroupSelectorTerms: [{ name: 'sg-name' }],
      capacityReservationSelectorTerms: [],
      amiSelectorTerms: [{ alias: 'bottlerocket@v1.20.0' }, { ssmParameter: '/my/ami' }],
      kubelet: {
        maxPods: 50,
        systemReserved: { cpu: '100m', memory: '100Mi' },
        evictionHard: { 'memory.available': '5%' },
      },
      blockDeviceMappings: [
        { deviceName: '/dev/xvda', rootVolume: true, ebs: { volumeSize: '100Gi', volumeType: 'gp3' } },
      ],
      instanceStorePolicy: 'RAID0',
      metadataOptions: { httpPutResponseHopLimit: 2, httpTokens: 'required' },
      associatePublicIPAddress: false,
      detailedMonitoring: true,
      instanceProfile: 'profile',
    });
  });

  it('role and instanceProfile together are an error', () => {
    const doc = { ...DEFAULT_NODE_CLASS, spec: { ...DEFAULT_NODE_CLASS.spec, instanceProfile: 'p' } };
    expect(errorsOf(load(doc))).toEqual([
      expect.objectContaining({ path: 'spec.role', message: expect.stringMatching(/mutually exclusive/) }),
    ]);
  });
});

describe('v1beta1 and v1alpha5 conversion', () => {
  it('v1beta1 keeps kubelet on the NodePool and reads WhenEmpty', () => {
    const loaded = load(
      {
        apiVersion: 'karpenter.sh/v1beta1',
        kind: 'NodePool',
        metadata: { name: 'b' },
        spec: {
          template: { spec: { nodeClassRef: { name: 'default' }, kubelet: { maxPods: 20 } } },
          disruption: { consolidationPolicy: 'WhenEmpty', consolidateAfter: '30s', expireAfter: 'Never' },
        },
      },
      DEFAULT_NODE_CLASS,
    );
    expect(errorsOf(loaded)).toEqual([]);
    expect(loaded.nodePools[0]).toMatchObject({
      kubelet: { maxPods: 20 },
      expireAfterMs: null,
      disruption: { consolidationPolicy: 'WhenEmpty', consolidateAfterMs: 30_000 },
    });
  });

  const provisioner = (spec: object) => ({
    apiVersion: 'karpenter.sh/v1alpha5',
    kind: 'Provisioner',
    metadata: { name: 'prov' },
    spec,
  });

  it('consolidation.enabled becomes WhenEmptyOrUnderutilized; no ttl means empty nodes stay', () => {
    const enabled = load(provisioner({ consolidation: { enabled: true }, provider: {} })).nodePools[0];
    expect(enabled.disruption).toMatchObject({
      consolidationPolicy: 'WhenEmptyOrUnderutilized',
      consolidateAfterMs: 0,
    });
    const none = load(provisioner({ provider: {} })).nodePools[0];
    expect(none.disruption).toMatchObject({ consolidationPolicy: 'WhenEmpty', consolidateAfterMs: null });
  });

  it('v1alpha5 has no disruption budgets: ttlSecondsAfterEmpty removes every empty node at once', () => {
    const ttl = load(provisioner({ ttlSecondsAfterEmpty: 30, provider: {} })).nodePools[0];
    expect(ttl.disruption).toEqual({
      consolidationPolicy: 'WhenEmpty',
      consolidateAfterMs: 30_000,
      budgets: [],
    });
    expect(allowedDisruptions(ttl.disruption.budgets, 'Empty', { nodes: 3, disrupting: 0 }, 0)).toBe(
      Number.POSITIVE_INFINITY,
    );
  });

  it('provider aws-ids become id terms; kubeletConfiguration and startupTaints carry over', () => {
    const loaded = load(
      provisioner({
        startupTaints: [{ key: 's', effect: 'NoSchedule' }],
        kubeletConfiguration: { maxPods: 30 },
        weight: 5,
        provider: {
          subnetSelector: { 'aws-ids': 'subnet-1, subnet-2' },
          securityGroupSelector: { Name: 'sg' },
          amiFamily: 'Bottlerocket',
        },
      }),
    );
    expect(errorsOf(loaded)).toEqual([]);
    expect(loaded.nodePools[0]).toMatchObject({
      weight: 5,
      kubelet: { maxPods: 30 },
      startupTaints: [{ key: 's', effect: 'NoSchedule' }],
    });
    expect(loaded.nodeClasses[0]).toMatchObject({
      name: 'prov',
      subnetSelectorTerms: [{ id: 'subnet-1' }, { id: 'subnet-2' }],
      securityGroupSelectorTerms: [{ tags: { Name: 'sg' } }],
      amiFamily: 'Bottlerocket',
    });
  });

  it('providerRef resolves to a loaded AWSNodeTemplate, and is an error when it is missing', () => {
    const template = {
      apiVersion: 'karpenter.k8s.aws/v1alpha1',
      kind: 'AWSNodeTemplate',
      metadata: { name: 'tpl' },
      spec: { subnetSelector: { a: 'b' } },
    };
    const ok = load(provisioner({ providerRef: { name: 'tpl' } }), template);
    expect(errorsOf(ok)).toEqual([]);
    expect(ok.nodePools[0].nodeClassRef).toMatchObject({ kind: 'AWSNodeTemplate', name: 'tpl' });
    const missing = load(provisioner({ providerRef: { name: 'tpl' } }));
    expect(errorsOf(missing)).toEqual([expect.objectContaining({ path: 'spec.providerRef.name' })]);
  });

  it('a Provisioner without provider or providerRef is an error', () => {
    expect(errorsOf(load(provisioner({})))).toEqual([
      expect.objectContaining({ document: 'Provisioner/prov', path: 'spec' }),
    ]);
  });

  it('minValues is rejected in v1alpha5', () => {
    const loaded = load(
      provisioner({
        provider: {},
        requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'], minValues: 1 }],
      }),
    );
    expect(errorsOf(loaded)[0].path).toBe('spec.requirements[0].minValues');
  });
});

describe('joiner.sh/v1 NodeClass', () => {
  const multus = (extra: object) => ({
    apiVersion: 'joiner.sh/v1',
    kind: 'NodeClass',
    metadata: { name: 'm' },
    spec: { ...DEFAULT_NODE_CLASS.spec, ...extra },
  });
  const iface = {
    subnetSelectorTerms: [{ tags: { Name: 'a' } }],
    securityGroupSelectorTerms: [{ id: 'sg-1' }],
    deviceIndex: 1,
  };

  it('applies Multus defaults and reads the taint as an object too', () => {
    const loaded = load(
      multus({
        multusInterfaces: [{ ...iface, ipv6AddressCount: 1, disableSourceDestCheck: false }],
        multusReadyTaint: { key: 'k', effect: 'NoSchedule' },
      }),
    );
    expect(errorsOf(loaded)).toEqual([]);
    expect(loaded.nodeClasses[0].multusInterfaces[0]).toMatchObject({
      networkCardIndex: 0,
      disableSourceDestCheck: false,
      ipv6AddressCount: 1,
    });
    expect(loaded.nodeClasses[0].multusReadyTaint).toEqual({ key: 'k', effect: 'NoSchedule' });
  });

  it('rejects a duplicate device index and a malformed taint string', () => {
    const loaded = load(multus({ multusInterfaces: [iface, iface], multusReadyTaint: 'not a taint' }));
    expect(
      errorsOf(loaded)
        .map((e) => e.path)
        .sort(),
    ).toEqual(['spec.multusInterfaces[1].deviceIndex', 'spec.multusReadyTaint']);
  });
});

describe('multi-document files', () => {
  it('one bad document never stops the others; unknown fields are warnings with their path', () => {
    const bad = v1Pool('bad', { requirements: [{ key: 'kubernetes.io/arch', operator: 'In' }] });
    const typo = { ...(v1Pool('typo') as object), spce: {} };
    const loaded = load(
      v1Pool('good'),
      bad,
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } },
      typo,
      DEFAULT_NODE_CLASS,
    );
    expect(loaded.nodePools.map((p) => p.name)).toEqual(['good', 'typo']);
    expect(loaded.documents.map((d) => `${d.source.name}:${d.ok}`)).toEqual([
      'good:true',
      'bad:false',
      'typo:true',
      'default:true',
    ]);
    expect(loaded.diagnostics.filter((d) => d.severity === 'warning')).toEqual([
      expect.objectContaining({
        document: 'NodePool/typo',
        path: 'spce',
        message: expect.stringMatching(/unknown field "spce"/),
      }),
    ]);
  });

  it('duplicate NodePool names are an error on the second one', () => {
    const loaded = load(v1Pool('p'), v1Pool('p'), DEFAULT_NODE_CLASS);
    expect(loaded.nodePools).toHaveLength(1);
    expect(errorsOf(loaded)).toEqual([
      expect.objectContaining({ path: 'metadata.name', message: expect.stringMatching(/already defined/) }),
    ]);
    expect(loaded.documents.map((d) => d.ok)).toEqual([true, false, true]);
  });
});
