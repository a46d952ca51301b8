import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import { resolveInstanceTypes } from '../../../../functions/core/catalog/resolve.js';
import type { MultusInterface } from '../../../../functions/core/model/node-class.js';
import { nodeClass } from '../../../builders/config.js';

const GI = 2 ** 30;
const multus: MultusInterface = {
  subnetSelectorTerms: [{ tags: { multus: 'true' } }],
  securityGroupSelectorTerms: [{ tags: { multus: 'true' } }],
  deviceIndex: 1,
  networkCardIndex: 0,
  disableSourceDestCheck: true,
  ipv6AddressCount: 0,
};

function find(resolved: ReturnType<typeof resolveInstanceTypes>, name: string) {
  const found = resolved.find((r) => r.name === name);
  if (!found) throw new Error(`${name} not resolved`);
  return found;
}

describe('resolveInstanceTypes', () => {
  it('resolves every type, sorted by name, with labels, capacity and offerings', () => {
    const resolved = resolveInstanceTypes(bundledCatalog, undefined);
    expect(resolved).toHaveLength(bundledCatalog.instanceTypes.length);
    const sorted = [...resolved.map((r) => r.name)].sort();
    expect(resolved.map((r) => r.name)).toEqual(sorted);
    const m5 = find(resolved, 'm5.large');
    expect(m5.labels['node.kubernetes.io/instance-type']).toBe('m5.large');
    expect(m5.allocatable).toMatchObject({ cpu: 1930, pods: 29 });
    expect(m5.offerings.every((o) => o.available)).toBe(true);
  });

  it('marks unavailable offerings without removing them', () => {
    const resolved = resolveInstanceTypes(bundledCatalog, undefined, {
      isUnavailable: (type, zone, capacityType) =>
        type === 'c5.large' && zone === 'us-west-2b' && capacityType === 'spot',
    });
    const offerings = find(resolved, 'c5.large').offerings;
    expect(offerings.filter((o) => !o.available)).toEqual([
      expect.objectContaining({ zone: 'us-west-2b', capacityType: 'spot', available: false }),
    ]);
    expect(offerings).toHaveLength(8);
  });

  it('applies the NodeClass Multus interfaces, kubelet settings and root volume', () => {
    const withMultus = resolveInstanceTypes(bundledCatalog, nodeClass({ multusInterfaces: [multus] }));
    expect(find(withMultus, 'c5.2xlarge').allocatable.pods).toBe(44);
    expect(find(withMultus, 'm5.large').capacity.pods).toBe(20);

    const tuned = resolveInstanceTypes(
      bundledCatalog,
      nodeClass({
        kubelet: { maxPods: 110, systemReserved: { cpu: '100m' } },
        blockDeviceMappings: [{ deviceName: '/dev/xvda', rootVolume: true, ebs: { volumeSize: '100Gi' } }],
      }),
    );
    const m5 = find(tuned, 'm5.large');
    expect(m5.allocatable.pods).toBe(110);
    expect(m5.allocatable.cpu).toBe(2000 - 70 - 100);
    expect(m5.capacity['ephemeral-storage']).toBe(100 * GI);
  });

  it('names the NodeClass and device of a bad volume size', () => {
    const bad = nodeClass({
      name: 'broken',
      blockDeviceMappings: [{ deviceName: '/dev/xvda', ebs: { volumeSize: 'big' } }],
    });
    expect(() => resolveInstanceTypes(bundledCatalog, bad)).toThrow(
      /NodeClass broken .*\/dev\/xvda ebs\.volumeSize/,
    );
  });

  it('sizes Bottlerocket ephemeral storage from the data volume /dev/xvdb, family written or from an alias', () => {
    const mappings = [
      { deviceName: '/dev/xvda', ebs: { volumeSize: '4Gi' } },
      { deviceName: '/dev/xvdb', ebs: { volumeSize: '80Gi' } },
    ];
    for (const c of [
      nodeClass({ amiFamily: 'Bottlerocket', amiSelectorTerms: [], blockDeviceMappings: mappings }),
      nodeClass({
        amiFamily: undefined,
        amiSelectorTerms: [{ alias: 'bottlerocket@latest' }],
        blockDeviceMappings: mappings,
      }),
    ]) {
      expect(find(resolveInstanceTypes(bundledCatalog, c), 'm5.large').capacity['ephemeral-storage']).toBe(
        80 * GI,
      );
    }
    // AL2023 keeps its storage on the root volume /dev/xvda.
    const al2023 = nodeClass({ blockDeviceMappings: mappings });
    expect(find(resolveInstanceTypes(bundledCatalog, al2023), 'm5.large').capacity['ephemeral-storage']).toBe(
      4 * GI,
    );
  });

  it('uses the default 20 GiB when no mapping sizes the ephemeral device (Bottlerocket: 20 GiB data volume)', () => {
    const osOnly = nodeClass({
      amiFamily: undefined,
      amiSelectorTerms: [{ alias: 'bottlerocket@v1.20.0' }],
      blockDeviceMappings: [{ deviceName: '/dev/xvda', ebs: { volumeSize: '8Gi' } }],
    });
    expect(find(resolveInstanceTypes(bundledCatalog, osOnly), 'm5.large').capacity['ephemeral-storage']).toBe(
      20 * GI,
    );
    expect(
      find(resolveInstanceTypes(bundledCatalog, nodeClass({ amiFamily: 'Bottlerocket' })), 'm5.large')
        .capacity['ephemeral-storage'],
    ).toBe(20 * GI);
  });

  it('takes a sized rootVolume mapping first, and the last mapping for Custom', () => {
    const marked = nodeClass({
      amiFamily: 'Bottlerocket',
      blockDeviceMappings: [
        { deviceName: '/dev/xvda', rootVolume: true, ebs: { volumeSize: '50Gi' } },
        { deviceName: '/dev/xvdb', ebs: { volumeSize: '80Gi' } },
      ],
    });
    expect(find(resolveInstanceTypes(bundledCatalog, marked), 'm5.large').capacity['ephemeral-storage']).toBe(
      50 * GI,
    );
    const custom = nodeClass({
      amiFamily: 'Custom',
      amiSelectorTerms: [{ id: 'ami-123' }],
      blockDeviceMappings: [
        { deviceName: '/dev/xvda', ebs: { volumeSize: '30Gi' } },
        { deviceName: '/dev/sdf', ebs: { volumeSize: '60Gi' } },
      ],
    });
    expect(find(resolveInstanceTypes(bundledCatalog, custom), 'm5.large').capacity['ephemeral-storage']).toBe(
      60 * GI,
    );
  });

  it('with RAID0 sizes ephemeral storage from the instance store, whatever the volumes', () => {
    const raid = nodeClass({
      instanceStorePolicy: 'RAID0',
      blockDeviceMappings: [{ deviceName: '/dev/xvda', ebs: { volumeSize: '100Gi' } }],
    });
    const resolved = resolveInstanceTypes(bundledCatalog, raid);
    expect(find(resolved, 'm5d.large').capacity['ephemeral-storage']).toBe(75e9);
    expect(find(resolved, 'm5.large').capacity['ephemeral-storage']).toBe(100 * GI);
  });

  it('applies podsPerCore except for Bottlerocket nodes', () => {
    const kubelet = { podsPerCore: 2 };
    expect(
      find(resolveInstanceTypes(bundledCatalog, nodeClass({ kubelet })), 'c5.2xlarge').allocatable.pods,
    ).toBe(16);
    const br = nodeClass({
      kubelet,
      amiFamily: undefined,
      amiSelectorTerms: [{ alias: 'bottlerocket@latest' }],
    });
    expect(find(resolveInstanceTypes(bundledCatalog, br), 'c5.2xlarge').allocatable.pods).toBe(58);
  });
});
