import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import type { SimInstance, SimNetworkInterface } from '../../../../functions/simulator/instance.js';
import { efaDevices, withEfaDevices } from '../../../../functions/simulator/kube/kubelet/efa-devices.js';
import { buildNode } from '../../../../functions/simulator/kube/kubelet/node-object.js';
import type { NodeBootstrap } from '../../../../functions/simulator/kube/kubelet/user-data.js';

const nic = (interfaceType: string | undefined, card: number): SimNetworkInterface => ({
  networkInterfaceId: `eni-${card}-${interfaceType}`,
  subnetId: 'subnet-a',
  vpcId: 'vpc-1',
  availabilityZone: 'us-west-2a',
  deviceIndex: card === 0 ? 0 : 1,
  networkCardIndex: card,
  securityGroupIds: [],
  privateIpAddress: interfaceType === 'efa-only' ? '' : `10.0.0.${card + 4}`,
  ipv6Addresses: [],
  deleteOnTermination: true,
  ...(interfaceType ? { interfaceType } : {}),
  sourceDestCheck: true,
  tags: {},
});

function instance(interfaces: SimNetworkInterface[]): SimInstance {
  return {
    instanceId: 'i-0abc',
    instanceType: 'p4d.24xlarge',
    availabilityZone: 'us-west-2a',
    capacityType: 'on-demand',
    imageId: 'ami-1',
    imageName: 'amazon-eks-node-al2023-x86_64-nvidia-1.32-v20251001',
    launchTime: 0,
    privateDnsName: 'ip-10-0-0-4.us-west-2.compute.internal',
    privateIpAddress: '10.0.0.4',
    userData: '',
    tags: {},
    networkInterfaces: interfaces,
    state: 'running',
  };
}

const p4d = bundledCatalog.instanceTypes.find((t) => t.name === 'p4d.24xlarge');
if (!p4d) throw new Error('p4d.24xlarge is not in the bundled catalog');
const boot: NodeBootstrap = { format: 'AL2023', labels: {}, taints: [], maxPods: 737 };

describe('EFA devices the simulated kubelet advertises', () => {
  it('counts efa and efa-only interfaces, not plain ones', () => {
    expect(efaDevices([nic('efa', 0), nic('efa-only', 1), nic('interface', 0), nic(undefined, 0)])).toBe(2);
    expect(withEfaDevices({ cpu: '96', 'vpc.amazonaws.com/efa': '4' }, [nic('interface', 0)])).toEqual({
      cpu: '96',
    });
    expect(withEfaDevices({ cpu: '96' }, [nic('efa', 0)])).toEqual({
      cpu: '96',
      'vpc.amazonaws.com/efa': '1',
    });
  });

  it('a p4d launched with 4 EFA interfaces advertises 4; launched without, none', () => {
    const withEfa = buildNode(
      instance([nic('efa', 0), nic('efa-only', 1), nic('efa-only', 2), nic('efa-only', 3)]),
      p4d,
      boot,
      'us-west-2',
      0,
    );
    const status = withEfa.status as {
      capacity: Record<string, string>;
      allocatable: Record<string, string>;
    };
    expect(status.capacity['vpc.amazonaws.com/efa']).toBe('4');
    expect(status.allocatable['vpc.amazonaws.com/efa']).toBe('4');
    expect(status.allocatable['nvidia.com/gpu']).toBe('8');
    const plain = buildNode(instance([nic('interface', 0)]), p4d, boot, 'us-west-2', 0);
    const plainStatus = plain.status as { capacity: Record<string, string> };
    expect(plainStatus.capacity['vpc.amazonaws.com/efa']).toBeUndefined();
  });
});
