import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eniLimitedPods, maxPods, nodeCapacity } from '../../../../functions/core/catalog/allocatable.js';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import { kubeReservedCpuMillis } from '../../../../functions/core/catalog/reserved.js';
import type { InstanceType } from '../../../../functions/core/model/instance-type.js';

const MI = 2 ** 20;
const GI = 2 ** 30;

function type(name: string): InstanceType {
  const found = bundledCatalog.instanceTypes.find((t) => t.name === name);
  if (!found) throw new Error(`${name} missing from the bundled catalog`);
  return found;
}

describe('max pods', () => {
  it.each([
    ['m5.large', 29],
    ['c5.large', 29],
    ['c5.2xlarge', 58],
    ['m5.2xlarge', 58],
    ['t3.2xlarge', 58],
    ['t3.medium', 17],
    ['m5.4xlarge', 234],
    ['r5.24xlarge', 737],
    ['g5.48xlarge', 345],
    ['g5.8xlarge', 234],
    ['g4dn.16xlarge', 58],
    ['x1e.xlarge', 29],
  ])('%s is ENI-limited to %i pods', (name, pods) => {
    expect(maxPods(type(name))).toBe(pods);
  });

  it('subtracts the ENIs Multus takes before computing max pods', () => {
    // m5.large: (3 - 1) x (10 - 1) + 2 = 20; c5.2xlarge: (4 - 1) x (15 - 1) + 2 = 44
    expect(maxPods(type('m5.large'), { multusEnis: 1 })).toBe(20);
    expect(maxPods(type('c5.2xlarge'), { multusEnis: 1 })).toBe(44);
    expect(maxPods(type('c5.2xlarge'), { multusEnis: 2 })).toBe(30);
  });

  it('is 0 when Multus takes every ENI', () => {
    expect(eniLimitedPods(type('m5.large'), 3)).toBe(0);
    expect(maxPods(type('m5.large'), { multusEnis: 5 })).toBe(0);
  });

  it('uses the kubelet maxPods over the ENI limit and caps by podsPerCore x vCPUs', () => {
    expect(maxPods(type('m5.large'), { kubelet: { maxPods: 110 } })).toBe(110);
    expect(maxPods(type('m5.large'), { kubelet: { maxPods: 110 }, multusEnis: 1 })).toBe(110);
    expect(maxPods(type('c5.2xlarge'), { kubelet: { podsPerCore: 4 } })).toBe(32);
    expect(maxPods(type('c5.2xlarge'), { kubelet: { podsPerCore: 10 } })).toBe(58);
    expect(maxPods(type('c5.2xlarge'), { kubelet: { maxPods: 20, podsPerCore: 4 } })).toBe(20);
  });

  it('lets an explicit maxPods on a synthetic catalog entry win', () => {
    const synthetic = { ...type('m5.large'), maxPods: 110 };
    expect(maxPods(synthetic, { kubelet: { maxPods: 50 }, multusEnis: 1 })).toBe(110);
  });
});

describe('kube-reserved', () => {
  it.each([
    [1, 60],
    [2, 70],
    [4, 80],
    [8, 90],
    [16, 110],
    [48, 190],
    [96, 310],
  ])('cpu of a %i-vCPU type is %im (6%% / 1%% / 0.5%% / 0.25%% steps)', (vcpu, millis) => {
    expect(kubeReservedCpuMillis(vcpu * 1000)).toBe(millis);
  });

  it('reserves 11 MiB per pod plus 255 MiB of memory: 574 MiB on m5.large', () => {
    const { overhead } = nodeCapacity(type('m5.large'));
    expect(overhead.kubeReserved.memory).toBe(574 * MI);
    expect(overhead.kubeReserved.cpu).toBe(70);
  });

  it('follows max pods: fewer pods with a Multus ENI means less reserved memory', () => {
    const { overhead } = nodeCapacity(type('m5.large'), { multusEnis: 1 });
    expect(overhead.kubeReserved.memory).toBe((11 * 20 + 255) * MI);
  });
});

describe('nodeCapacity', () => {
  it('gives m5.large 1930m cpu as its nodes report, and memory after 7.5% VM overhead', () => {
    const { capacity, allocatable } = nodeCapacity(type('m5.large'));
    expect(capacity.cpu).toBe(2000);
    expect(allocatable.cpu).toBe(1930);
    expect(capacity.memory).toBe((8192 - 615) * MI);
    expect(allocatable.memory).toBe((8192 - 615 - 574 - 100) * MI);
    expect(capacity.pods).toBe(29);
    expect(allocatable.pods).toBe(29);
    expect(capacity['ephemeral-storage']).toBe(20 * GI);
    expect(allocatable['ephemeral-storage']).toBe(20 * GI - GI - 2 * GI);
  });

  it('gives Neuron devices and NeuronCores as extended resources', () => {
    const inf2 = {
      ...type('m5.xlarge'),
      name: 'inf2.8xlarge',
      accelerators: { count: 1, name: 'Inferentia2', manufacturer: 'AWS', coresPerDevice: 2 },
    };
    const { capacity, allocatable } = nodeCapacity(inf2);
    expect(capacity['aws.amazon.com/neuron']).toBe(1);
    expect(allocatable['aws.amazon.com/neuroncore']).toBe(2);
    expect(nodeCapacity(type('m5.large')).capacity['aws.amazon.com/neuron']).toBeUndefined();
  });

  it('honours vmMemoryOverheadPercent', () => {
    expect(nodeCapacity(type('m5.large'), { vmMemoryOverheadPercent: 0 }).capacity.memory).toBe(8192 * MI);
    expect(() => nodeCapacity(type('m5.large'), { vmMemoryOverheadPercent: 7.5 })).toThrow(/between 0 and 1/);
  });

  it('applies kubelet kubeReserved, systemReserved and evictionHard overrides', () => {
    const { allocatable, overhead } = nodeCapacity(type('c5.2xlarge'), {
      kubelet: {
        kubeReserved: { cpu: '200m', memory: '1Gi' },
        systemReserved: { cpu: '100m', memory: '512Mi', 'ephemeral-storage': '1Gi' },
        evictionHard: { 'memory.available': '5%', 'nodefs.available': '15%' },
      },
    });
    const memory = (16384 - 1229) * MI;
    expect(overhead.kubeReserved).toMatchObject({ cpu: 200, memory: GI });
    expect(overhead.evictionThreshold.memory).toBe(Math.ceil(memory * 0.05));
    expect(allocatable.cpu).toBe(8000 - 200 - 100);
    expect(allocatable.memory).toBe(memory - GI - 512 * MI - Math.ceil(memory * 0.05));
    expect(allocatable['ephemeral-storage']).toBe(20 * GI - GI - GI - 3 * GI);
  });

  it('names the bad kubelet setting', () => {
    expect(() => nodeCapacity(type('m5.large'), { kubelet: { systemReserved: { memory: '1 Gi' } } })).toThrow(
      /systemReserved\.memory/,
    );
    expect(() =>
      nodeCapacity(type('m5.large'), { kubelet: { evictionHard: { 'memory.available': '150%' } } }),
    ).toThrow(/evictionHard\.memory\.available/);
  });

  it('uses the catalog overhead of synthetic types', () => {
    const synthetic = {
      ...type('m5.large'),
      overhead: { kubeReservedCpuMillis: 100, kubeReservedMemoryMiB: 200 },
    };
    const { overhead } = nodeCapacity(synthetic);
    expect(overhead.kubeReserved.cpu).toBe(100);
    expect(overhead.kubeReserved.memory).toBe(200 * MI);
  });

  it('names GPU resources by manufacturer as Karpenter does: amd.com/gpu, habana.ai/gaudi, none for others', () => {
    const withGpus = (manufacturer: string): InstanceType => ({
      ...type('m5.large'),
      gpus: { count: 2, manufacturer, name: 'x', memoryMiB: 1024 },
    });
    expect(nodeCapacity(withGpus('AMD')).capacity['amd.com/gpu']).toBe(2);
    expect(nodeCapacity(withGpus('Habana')).capacity['habana.ai/gaudi']).toBe(2);
    const other = nodeCapacity(withGpus('Xilinx')).capacity;
    expect(Object.keys(other).filter((k) => k.includes('/'))).toEqual([]);
  });

  it('exposes GPUs as nvidia.com/gpu', () => {
    expect(nodeCapacity(type('p3.8xlarge')).allocatable['nvidia.com/gpu']).toBe(4);
    expect(nodeCapacity(type('p3.16xlarge')).capacity['nvidia.com/gpu']).toBe(8);
    expect(nodeCapacity(type('m5.large')).capacity['nvidia.com/gpu']).toBeUndefined();
  });

  it('sizes ephemeral storage from the root volume, or the NVMe store with RAID0', () => {
    expect(nodeCapacity(type('m5.large'), { rootVolumeBytes: 100 * GI }).capacity['ephemeral-storage']).toBe(
      100 * GI,
    );
    // EC2 reports r6gd.xlarge's instance store as 237 GB (decimal), which Karpenter counts as 237G.
    const raid = nodeCapacity(type('r6gd.xlarge'), { instanceStorePolicy: 'RAID0' });
    expect(raid.capacity['ephemeral-storage']).toBe(237e9);
    expect(raid.allocatable['ephemeral-storage']).toBe(237e9 - GI - Math.ceil(237e9 / 10));
    expect(
      nodeCapacity(type('m5.large'), { instanceStorePolicy: 'RAID0' }).capacity['ephemeral-storage'],
    ).toBe(20 * GI);
  });

  it('never gives more allocatable than capacity, for every bundled type and Multus ENI count', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...bundledCatalog.instanceTypes),
        fc.integer({ min: 0, max: 4 }),
        (it, multusEnis) => {
          const { capacity, allocatable } = nodeCapacity(it, { multusEnis });
          for (const [name, amount] of Object.entries(allocatable)) {
            expect(amount).toBeGreaterThanOrEqual(0);
            expect(amount).toBeLessThanOrEqual(capacity[name]);
          }
          expect(maxPods(it, { multusEnis: multusEnis + 1 })).toBeLessThanOrEqual(
            maxPods(it, { multusEnis }),
          );
        },
      ),
    );
  });
});

describe("Karpenter's capacity defaults", () => {
  it('keeps 64 MiB of a Graviton (arm64) node for the CMA before the 7.5% VM overhead', () => {
    // m6g.large: 8192 MiB - 64 MiB = 8128 MiB; 7.5% of it rounds up to 610 MiB.
    expect(nodeCapacity(type('m6g.large')).capacity.memory).toBe((8128 - 610) * MI);
    // The same size on amd64 keeps all of it: 8192 - 615.
    expect(nodeCapacity(type('m5.large')).capacity.memory).toBe((8192 - 615) * MI);
  });

  it('reserves 100Mi memory and 10% nodefs for eviction by default', () => {
    const { overhead } = nodeCapacity(type('m5.large'));
    expect(overhead.evictionThreshold).toEqual({ memory: 100 * MI, 'ephemeral-storage': 2 * GI });
  });

  it('lowers allocatable by evictionHard only: evictionSoft is a warning threshold', () => {
    const soft = nodeCapacity(type('m5.large'), {
      kubelet: { evictionSoft: { 'memory.available': '1Gi', 'nodefs.available': '50%' } },
    });
    expect(soft.overhead.evictionThreshold).toEqual({ memory: 100 * MI, 'ephemeral-storage': 2 * GI });
    const hard = nodeCapacity(type('m5.large'), {
      kubelet: {
        evictionHard: { 'memory.available': '500Mi' },
        evictionSoft: { 'memory.available': '1Gi' },
      },
    });
    expect(hard.overhead.evictionThreshold.memory).toBe(500 * MI);
  });

  it('ignores podsPerCore on Bottlerocket, which has no such setting', () => {
    const kubelet = { podsPerCore: 4 };
    expect(maxPods(type('c5.2xlarge'), { kubelet, amiFamily: 'AL2023' })).toBe(32);
    expect(maxPods(type('c5.2xlarge'), { kubelet, amiFamily: 'Bottlerocket' })).toBe(58);
    expect(
      maxPods(type('c5.2xlarge'), { kubelet: { maxPods: 20, podsPerCore: 1 }, amiFamily: 'Bottlerocket' }),
    ).toBe(20);
  });

  it('keeps ENI-limited max pods uncapped (no 110 ceiling) when maxPods is not set', () => {
    expect(maxPods(type('m5.4xlarge'), { amiFamily: 'AL2023' })).toBe(234);
    expect(maxPods(type('m5.4xlarge'), { amiFamily: 'Bottlerocket' })).toBe(234);
  });

  it('reserves 1Gi of ephemeral storage for the kubelet', () => {
    expect(nodeCapacity(type('m5.large')).overhead.kubeReserved['ephemeral-storage']).toBe(GI);
  });
});
