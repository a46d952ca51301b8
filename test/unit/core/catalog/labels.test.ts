import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import { instanceTypeLabels, parseInstanceTypeName } from '../../../../functions/core/catalog/labels.js';
import type { InstanceType } from '../../../../functions/core/model/instance-type.js';

function type(name: string): InstanceType {
  const found = bundledCatalog.instanceTypes.find((t) => t.name === name);
  if (!found) throw new Error(`${name} missing from the bundled catalog`);
  return found;
}

describe('instanceTypeLabels', () => {
  it('labels x1e.8xlarge as the node of seed 003 shows, plus the labels later Karpenter versions add', () => {
    expect(instanceTypeLabels(type('x1e.8xlarge'), 'us-west-2')).toEqual({
      'node.kubernetes.io/instance-type': 'x1e.8xlarge',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/os': 'linux',
      'topology.kubernetes.io/region': 'us-west-2',
      'karpenter.k8s.aws/instance-category': 'x',
      'karpenter.k8s.aws/instance-cpu': '32',
      'karpenter.k8s.aws/instance-cpu-manufacturer': 'intel',
      'karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz': '2300',
      'karpenter.k8s.aws/instance-tenancy': 'default',
      'karpenter.k8s.aws/instance-encryption-in-transit-supported': 'false',
      'karpenter.k8s.aws/instance-family': 'x1e',
      'karpenter.k8s.aws/instance-generation': '1',
      'karpenter.k8s.aws/instance-hypervisor': 'xen',
      'karpenter.k8s.aws/instance-memory': '999424',
      'karpenter.k8s.aws/instance-network-bandwidth': '5000',
      'karpenter.k8s.aws/instance-size': '8xlarge',
    });
  });

  it('adds Neuron accelerator and EBS bandwidth labels', () => {
    const inf2: InstanceType = {
      ...type('m5.xlarge'),
      name: 'inf2.xlarge',
      ebsBandwidthMbps: 1250,
      accelerators: { count: 1, name: 'Inferentia2', manufacturer: 'AWS', coresPerDevice: 2 },
    };
    expect(instanceTypeLabels(inf2, 'us-west-2')).toMatchObject({
      'karpenter.k8s.aws/instance-accelerator-name': 'inferentia2',
      'karpenter.k8s.aws/instance-accelerator-manufacturer': 'aws',
      'karpenter.k8s.aws/instance-accelerator-count': '1',
      'karpenter.k8s.aws/instance-ebs-bandwidth': '1250',
    });
  });

  it('adds GPU labels with lower-case name and manufacturer and memory per GPU in MiB', () => {
    const labels = instanceTypeLabels(type('p3.8xlarge'), 'us-west-2');
    expect(labels).toMatchObject({
      'karpenter.k8s.aws/instance-gpu-count': '4',
      'karpenter.k8s.aws/instance-gpu-name': 'v100',
      'karpenter.k8s.aws/instance-gpu-manufacturer': 'nvidia',
      'karpenter.k8s.aws/instance-gpu-memory': '16384',
    });
    expect(instanceTypeLabels(type('g5.xlarge'), 'us-west-2')['karpenter.k8s.aws/instance-gpu-name']).toBe(
      'a10g',
    );
    expect(instanceTypeLabels(type('g4dn.xlarge'), 'us-west-2')['karpenter.k8s.aws/instance-gpu-name']).toBe(
      't4',
    );
    expect(
      instanceTypeLabels(type('m5.large'), 'us-west-2')['karpenter.k8s.aws/instance-gpu-count'],
    ).toBeUndefined();
  });

  it('labels Graviton types with local NVMe (r6gd.xlarge)', () => {
    expect(instanceTypeLabels(type('r6gd.xlarge'), 'us-west-2')).toMatchObject({
      'kubernetes.io/arch': 'arm64',
      'karpenter.k8s.aws/instance-family': 'r6gd',
      'karpenter.k8s.aws/instance-category': 'r',
      'karpenter.k8s.aws/instance-generation': '6',
      'karpenter.k8s.aws/instance-local-nvme': '237',
      'karpenter.k8s.aws/instance-hypervisor': 'nitro',
    });
  });

  it('leaves out the hypervisor of bare metal and reports encryption in transit', () => {
    const metal = instanceTypeLabels(type('m7i.metal-24xl'), 'us-west-2');
    expect(metal['karpenter.k8s.aws/instance-hypervisor']).toBeUndefined();
    expect(metal['karpenter.k8s.aws/instance-size']).toBe('metal-24xl');
    expect(metal['karpenter.k8s.aws/instance-encryption-in-transit-supported']).toBe('true');
  });

  it('takes the region from the caller', () => {
    expect(instanceTypeLabels(type('t4g.2xlarge'), 'eu-west-1')['topology.kubernetes.io/region']).toBe(
      'eu-west-1',
    );
  });
});

describe('parseInstanceTypeName', () => {
  it.each([
    ['c6i.2xlarge', 'c6i', 'c', '6', '2xlarge'],
    ['u-6tb1.metal', 'u-6tb1', 'u', '1', 'metal'],
    ['inf2.xlarge', 'inf2', 'inf', '2', 'xlarge'],
    ['c7i-flex.large', 'c7i-flex', 'c', '7', 'large'],
  ])('splits %s', (name, family, category, generation, size) => {
    expect(parseInstanceTypeName(name)).toEqual({ family, category, generation, size });
  });

  it('rejects names that are not <family>.<size>', () => {
    expect(() => parseInstanceTypeName('m5large')).toThrow(/m5large.*<family>\.<size>/);
  });
});
