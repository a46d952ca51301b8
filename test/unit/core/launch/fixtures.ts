import type { ResolvedNodeClass } from '../../../../functions/core/launch/launch-context.js';
import type { NodeClass } from '../../../../functions/core/model/node-class.js';
import { newNodeClaim } from '../../../../functions/core/nodeclaim/create.js';
import type { NodeClaim, NodeClaimOption } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { nodeClass } from '../../../builders/config.js';

export const ZONES = ['us-west-2a', 'us-west-2b'];

/** A NodeClass with two Multus interfaces, as in the Multus seed. */
export function multusNodeClass(overrides: Partial<NodeClass> = {}): NodeClass {
  const multus = (n: number) => ({
    subnetSelectorTerms: [{ tags: { Name: `Multus${n}*` } }],
    securityGroupSelectorTerms: [{ tags: { Name: 'Vpc1SecurityGroup' } }],
    deviceIndex: n,
    networkCardIndex: 0,
    disableSourceDestCheck: n === 1,
    ipv6AddressCount: n === 2 ? 1 : 0,
  });
  return nodeClass({
    multusInterfaces: [multus(1), multus(2)],
    multusReadyTaint: { key: 'joiner.sh/multus-not-ready', value: 'true', effect: 'NoSchedule' },
    ...overrides,
  });
}

/** Resolved subnets: primary, Multus 1 and Multus 2 per zone. */
export function resolved(): ResolvedNodeClass {
  return {
    cluster: {
      name: 'eks-telco',
      endpoint: 'https://ABC.gr7.us-west-2.eks.amazonaws.com',
      certificateAuthority: 'Q0EtREFUQQ==',
      serviceCidr: '10.100.0.0/16',
    },
    images: { amd64: 'ami-amd', arm64: 'ami-arm' },
    instanceProfile: 'joiner-node',
    subnets: [
      { subnetId: 'subnet-pa', zone: 'us-west-2a', availableIps: 200 },
      { subnetId: 'subnet-pa-small', zone: 'us-west-2a', availableIps: 10 },
      { subnetId: 'subnet-pb', zone: 'us-west-2b', availableIps: 200 },
    ],
    securityGroupIds: ['sg-node'],
    multus: [1, 2].map((n) => ({
      subnets: [
        { subnetId: `subnet-m${n}a`, zone: 'us-west-2a', availableIps: 20 },
        { subnetId: `subnet-m${n}b`, zone: 'us-west-2b', availableIps: 20 },
      ],
      securityGroupIds: [`sg-multus${n}`],
    })),
  };
}

export function option(
  instanceType: string,
  zone: string,
  capacityType: 'spot' | 'on-demand',
  price: number,
): NodeClaimOption {
  return { instanceType, zone, capacityType, price };
}

export function claim(options: NodeClaimOption[], id = 'multus-abc123'): NodeClaim {
  return newNodeClaim(
    {
      id,
      nodePool: 'multus',
      nodeClass: 'default',
      nodePoolHash: 'np',
      nodeClassHash: 'nc',
      requirements: [],
      labels: { 'karpenter-node': 'true', 'node.kubernetes.io/instance-type': 'c6i.2xlarge' },
      taints: [{ key: 'dedicated', value: 'telco', effect: 'NoSchedule' }],
      startupTaints: [{ key: 'node.cilium.io/agent-not-ready', effect: 'NoExecute' }],
      options,
      pods: [{ namespace: 'default', name: 'p1', uid: 'u1' }],
      requests: { cpu: 1000 },
    },
    0,
  );
}

/** Facts for c6i / m6g sizes: arm64 for Graviton, max pods by size. */
export function facts(instanceType: string) {
  const size = instanceType.split('.')[1];
  const maxPods = { large: 27, xlarge: 56, '2xlarge': 56, '4xlarge': 232 }[size] ?? 110;
  return { arch: (instanceType.includes('g.') ? 'arm64' : 'amd64') as 'amd64' | 'arm64', maxPods };
}
