import { describe, expect, it } from 'vitest';
import { loadFiles } from '../../../../../functions/adapters/files/load-files.js';

const errors = (l: Awaited<ReturnType<typeof loadFiles>>) =>
  l.diagnostics.filter((d) => d.severity === 'error');
const pool = (l: Awaited<ReturnType<typeof loadFiles>>, name: string) => {
  const p = l.nodePools.find((x) => x.name === name);
  if (p === undefined) throw new Error(`NodePool ${name} not loaded`);
  return p;
};
const values = (p: { requirements: readonly { key: string; values: readonly string[] }[] }, key: string) =>
  p.requirements.find((r) => r.key === key)?.values;

describe('seed 004: two v1alpha5 Provisioners', async () => {
  const loaded = await loadFiles(['examples/seed-004']);

  it('loads without diagnostics', () => {
    expect(loaded.diagnostics).toEqual([]);
  });

  it('addons-ondemand: m5 on-demand in two zones, labels, add-on taint, empty after 30s', () => {
    const p = pool(loaded, 'addons-ondemand');
    expect(values(p, 'node.kubernetes.io/instance-type')).toEqual(['m5.large', 'm5.2xlarge']);
    expect(values(p, 'topology.kubernetes.io/zone')).toEqual(['us-west-2a', 'us-west-2b']);
    expect(values(p, 'karpenter.sh/capacity-type')).toEqual(['on-demand']);
    expect(p.labels).toEqual({ 'managed-by': 'karpenter', purpose: 'addons' });
    expect(p.taints).toEqual([{ key: 'opsguru.io/addons', effect: 'NoSchedule' }]);
    expect(p.disruption.consolidationPolicy).toBe('WhenEmpty');
    expect(p.disruption.consolidateAfterMs).toBe(30_000);
    expect(p.expireAfterMs).toBeNull();
    expect(p.nodeClassRef.name).toBe('addons-ondemand');
  });

  it('spot-general: c5 spot, no taint, and an inline provider NodeClass', () => {
    const p = pool(loaded, 'spot-general');
    expect(values(p, 'node.kubernetes.io/instance-type')).toEqual(['c5.large', 'c5.2xlarge']);
    expect(values(p, 'karpenter.sh/capacity-type')).toEqual(['spot']);
    expect(p.taints).toEqual([]);
    expect(p.labels).toEqual({ 'managed-by': 'karpenter' });
    const nc = loaded.nodeClasses.find((c) => c.name === 'spot-general');
    expect(nc).toMatchObject({
      instanceProfile: 'KarpenterNodeInstanceProfile-opsguru-karpenter-test',
      tags: { 'managed-by': 'karpenter' },
      amiFamily: 'AL2',
    });
  });

  it('workloads: 1 add-on pod with its toleration and 20 general pods of 1 CPU', () => {
    const pods = loaded.workloads.pods;
    expect(pods).toHaveLength(21);
    const addon = pods.filter((p) => p.metadata.name.startsWith('addon-'));
    expect(addon).toHaveLength(1);
    expect(addon[0].spec.tolerations).toEqual([
      { key: 'opsguru.io/addons', operator: 'Exists', effect: 'NoSchedule' },
    ]);
    const general = pods.filter((p) => p.metadata.name.startsWith('general-workloads-'));
    expect(general.map((p) => p.metadata.name)).toContain('general-workloads-19');
    expect(general.every((p) => p.spec.containers[0].resources?.requests?.cpu === '1')).toBe(true);
    expect(general.every((p) => p.metadata.namespace === 'default')).toBe(true);
  });

  it('the raw article version loads with a warning per unexpanded variable', async () => {
    const raw = await loadFiles(['test/fixtures/seeds/seed-004/provisioners-raw.yaml']);
    expect(errors(raw)).toEqual([]);
    const warnings = raw.diagnostics.filter((d) => d.message.includes('unexpanded shell variable'));
    expect(warnings.map((w) => w.path)).toContain('spec.requirements[1].values[0]');
    expect(warnings.every((w) => w.hint?.includes('envsubst'))).toBe(true);
  });
});

describe('seed 001: v1alpha5 Provisioner with layered constraints and expiry', async () => {
  const loaded = await loadFiles(['examples/seed-001']);
  const initial = await loadFiles(['test/fixtures/seeds/seed-001']);

  it('expiry version: ttlSecondsUntilExpired 1800 -> expireAfter 30m, cpu limit 1000, selector maps -> tag terms', () => {
    expect(errors(loaded)).toEqual([]);
    const p = pool(loaded, 'default');
    expect(p.expireAfterMs).toBe(1_800_000);
    expect(p.limits).toEqual({ cpu: 1_000_000 });
    expect(values(p, 'kubernetes.io/arch')).toEqual(['arm64', 'amd64']);
    expect(values(p, 'karpenter.sh/capacity-type')).toEqual(['spot', 'on-demand']);
    expect(p.disruption).toMatchObject({ consolidationPolicy: 'WhenEmpty', consolidateAfterMs: 30_000 });
    const nc = loaded.nodeClasses[0];
    expect(nc.subnetSelectorTerms).toEqual([{ tags: { 'kubernetes.io/cluster/karpenter-demo': '*' } }]);
    expect(nc.securityGroupSelectorTerms).toEqual([
      { tags: { 'kubernetes.io/cluster/karpenter-demo': '*' } },
    ]);
  });

  it('initial version never expires; workloads: inflate x3 on r6gd.xlarge and its PDB', () => {
    expect(errors(initial)).toEqual([]);
    expect(pool(initial, 'default').expireAfterMs).toBeNull();
    expect(loaded.workloads.pods).toHaveLength(3);
    expect(loaded.workloads.pods[0].spec.nodeSelector?.['node.kubernetes.io/instance-type']).toBe(
      'r6gd.xlarge',
    );
    expect(loaded.workloads.podDisruptionBudgets[0].spec.minAvailable).toBe(2);
    expect(initial.workloads.pods[0].spec.nodeSelector?.['node.kubernetes.io/instance-type']).toBe(
      't4g.2xlarge',
    );
  });
});

describe('seed 002: spot-only Provisioner', async () => {
  const loaded = await loadFiles(['examples/seed-002']);

  it('loads spot only, discovery-tag selectors, instance profile, 4 inflate pods', () => {
    expect(loaded.diagnostics).toEqual([]);
    const p = pool(loaded, 'default');
    // Karpenter's v1alpha5 webhook defaults the keys the Provisioner leaves open (capacity type is set).
    expect(p.requirements).toEqual([
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] },
      { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] },
      { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
      { key: 'karpenter.k8s.aws/instance-category', operator: 'In', values: ['c', 'm', 'r'] },
      { key: 'karpenter.k8s.aws/instance-generation', operator: 'Gt', values: ['2'] },
    ]);
    expect(p.disruption.consolidateAfterMs).toBe(30_000);
    expect(loaded.nodeClasses[0]).toMatchObject({
      instanceProfile: 'KarpenterNodeInstanceProfile-karpenter-demo',
      subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'karpenter-demo' } }],
    });
    expect(loaded.workloads.pods).toHaveLength(4);
  });
});

describe('seed 003: v1beta1 NodePools and EC2NodeClasses', async () => {
  const loaded = await loadFiles(['examples/seed-003']);
  const withDefault = (f: string) =>
    loadFiles([`test/fixtures/seeds/seed-003/${f}`, 'examples/seed-003/ec2nodeclass-default.yaml']);

  it('all load without errors', () => {
    expect(errors(loaded)).toEqual([]);
    expect(loaded.documents.every((d) => d.ok)).toBe(true);
  });

  it('default: WhenUnderutilized -> WhenEmptyOrUnderutilized, 720h, budgets with schedule', () => {
    const p = pool(loaded, 'default');
    expect(p.disruption.consolidationPolicy).toBe('WhenEmptyOrUnderutilized');
    expect(p.expireAfterMs).toBe(720 * 3_600_000);
    expect(p.disruption.budgets).toEqual([
      { nodes: { percent: 10 } },
      { nodes: { count: 0 }, schedule: '0 8 * * sun', durationMs: 165 * 3_600_000 },
    ]);
    expect(values(p, 'karpenter.k8s.aws/instance-family')).toEqual(['m5', 'r5']);
    expect(values(p, 'karpenter.k8s.aws/instance-size')).toEqual(['nano', 'micro', 'small', 'large']);
    expect(p.nodeClassRef).toEqual({ group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' });
  });

  it('specialist-compute: p3 only, GPU taint, weight 10, cpu 900 / memory 9000Gi limits', () => {
    const p = pool(loaded, 'specialist-compute');
    expect(values(p, 'node.kubernetes.io/instance-type')).toEqual(['p3.8xlarge', 'p3.16xlarge']);
    expect(p.taints).toEqual([{ key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' }]);
    expect(p.weight).toBe(10);
    expect(p.limits).toEqual({ cpu: 900_000, memory: 9000 * 2 ** 30 });
  });

  it('bottlerocket EC2NodeClass: family, AMI name, two gp3 volumes, tags, user data', () => {
    const nc = loaded.nodeClasses.find((c) => c.name === 'bottlerocket');
    expect(nc?.amiFamily).toBe('Bottlerocket');
    expect(nc?.amiSelectorTerms).toEqual([{ name: 'bottlerocket-aws-k8s-1.27-x86_64-v1.16.0-d2d9cf87' }]);
    expect(nc?.blockDeviceMappings.map((b) => [b.deviceName, b.ebs?.volumeSize, b.ebs?.volumeType])).toEqual([
      ['/dev/xvda', '2Gi', 'gp3'],
      ['/dev/xvdb', '200Gi', 'gp3'],
    ]);
    expect(nc?.tags).toEqual({ MyTag: '1234', MyBackupTag: 'yes' });
    expect(nc?.userData).toContain('kube-api-qps = 30');
    expect(nc?.metadataOptions).toEqual({
      httpEndpoint: 'enabled',
      httpProtocolIPv6: 'disabled',
      httpPutResponseHopLimit: 1,
      httpTokens: 'required',
    });
  });

  it('expireAfter written as 2592000 seconds is 30 days', async () => {
    const l = await withDefault('nodepool-expiry.yaml');
    expect(errors(l)).toEqual([]);
    expect(pool(l, 'default').expireAfterMs).toBe(30 * 24 * 3_600_000);
  });

  it('attribute selection: Gt/Lt on instance cpu and memory', async () => {
    const l = await withDefault('nodepool-attributes.yaml');
    expect(errors(l)).toEqual([]);
    const gtLt = pool(l, 'default').requirements.filter((r) => r.operator === 'Gt' || r.operator === 'Lt');
    expect(gtLt.map((r) => `${r.key} ${r.operator} ${r.values[0]}`)).toEqual([
      'karpenter.k8s.aws/instance-cpu Gt 7',
      'karpenter.k8s.aws/instance-cpu Lt 65',
      'karpenter.k8s.aws/instance-memory Gt 130048',
      'karpenter.k8s.aws/instance-memory Lt 1049600',
    ]);
  });

  it('the zones-only snippet without nodeClassRef uses EC2NodeClass "default" with a warning', async () => {
    const l = await withDefault('nodepool-zones.yaml');
    expect(errors(l)).toEqual([]);
    expect(l.diagnostics.map((d) => d.path)).toContain('spec.template.spec.nodeClassRef');
    expect(values(pool(l, 'default'), 'topology.kubernetes.io/zone')).toEqual([
      'eu-west-1a',
      'eu-west-1b',
      'eu-west-1c',
    ]);
  });

  it('workloads: 6 web-server pods and a PV pinned to us-west-2a', () => {
    expect(loaded.workloads.pods).toHaveLength(6);
    expect(
      loaded.workloads.persistentVolumes[0].spec.nodeAffinity?.required?.nodeSelectorTerms[0]
        .matchExpressions?.[0].values,
    ).toEqual(['us-west-2a']);
  });
});

describe('seed 000: joiner.sh/v1 NodePool and NodeClass with Multus interfaces', async () => {
  const loaded = await loadFiles(['examples/seed-000']);

  it('loads the pool with its Multus startup taint and the class with two Multus ENIs', () => {
    expect(loaded.diagnostics).toEqual([]);
    const p = pool(loaded, 'multus');
    expect(p.startupTaints).toEqual([{ key: 'multus/not-ready', value: 'true', effect: 'NoSchedule' }]);
    expect(p.labels).toEqual({ nodegroup: 'karpenter-node' });
    expect(p.nodeClassRef).toEqual({ group: 'joiner.sh', kind: 'NodeClass', name: 'multus' });
    const nc = loaded.nodeClasses[0];
    expect(nc.multusReadyTaint).toEqual({ key: 'multus/not-ready', value: 'true', effect: 'NoSchedule' });
    expect(nc.multusInterfaces).toHaveLength(2);
    expect(nc.multusInterfaces[0]).toEqual({
      deviceIndex: 1,
      networkCardIndex: 0,
      disableSourceDestCheck: true,
      ipv6AddressCount: 0,
      subnetSelectorTerms: [
        { tags: { Name: 'Multus1Az1-karpenterwithmultus' } },
        { tags: { Name: 'Multus1Az2-karpenterwithmultus' } },
      ],
      securityGroupSelectorTerms: [{ tags: { Name: 'Vpc1SecurityGroup' } }],
    });
  });

  it('workloads: one pod per AZ deployment and the Multus daemonset', () => {
    expect(loaded.workloads.pods.map((p) => p.metadata.name)).toEqual([
      'scaleouttestappaz1-0',
      'scaleouttestappaz2-0',
    ]);
    expect(loaded.workloads.daemonSets.map((d) => `${d.metadata.namespace}/${d.metadata.name}`)).toEqual([
      'kube-system/kube-multus-ds',
    ]);
  });
});
