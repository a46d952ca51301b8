/**
 * What the simulated region contains before anything is launched: a VPC, its zones, subnets,
 * security groups and images. `defaultTopology` builds the one joiner's examples expect.
 */
import { zoneIdPrefix } from '../../core/catalog/zone-id-format.js';
import { eksImages, type ImageSpec } from './eks-images.js';

export interface ZoneSpec {
  readonly zoneName: string;
  readonly zoneId: string;
}

export interface SubnetSpec {
  readonly subnetId: string;
  readonly availabilityZone: string;
  /** IPv4 CIDR; its size gives the free addresses (minus the 5 AWS reserves). */
  readonly cidrBlock: string;
  readonly ipv6CidrBlock?: string;
  readonly tags: Readonly<Record<string, string>>;
}

export interface SecurityGroupSpec {
  readonly groupId: string;
  readonly groupName: string;
  readonly description: string;
  readonly tags: Readonly<Record<string, string>>;
}

/** A simulated region's network and images. */
export interface VpcTopology {
  readonly accountId: string;
  readonly vpcId: string;
  readonly cidrBlock: string;
  readonly zones: readonly ZoneSpec[];
  readonly subnets: readonly SubnetSpec[];
  readonly securityGroups: readonly SecurityGroupSpec[];
  readonly images: readonly ImageSpec[];
}

export interface DefaultTopologyOptions {
  /** Zone letters, default `a`, `b`, `c`. */
  readonly zoneLetters?: readonly string[];
  /** Stack name in the Multus subnet names (seed 000); default: the cluster name without `eks-`. */
  readonly multusStackName?: string;
}

const ACCOUNT_ID = '111122223333';

/**
 * A VPC with, per zone: a private node subnet (/19) tagged for discovery
 * (`karpenter.sh/discovery=<cluster>`, `kubernetes.io/role/internal-elb=1`,
 * `alpha.eksctl.io/cluster-name=<cluster>`), and two Multus subnets (/24) named as in seed 000
 * (`Multus1Az1-<stack>`, `Multus2Az1-<stack>`, ...) tagged `multus=true`; the cluster's node security
 * group, the seed's `Vpc1SecurityGroup` and one security group per Multus interface; and the
 * EKS-optimized AMIs.
 */
export function defaultTopology(
  clusterName: string,
  region: string,
  options: DefaultTopologyOptions = {},
): VpcTopology {
  const letters = options.zoneLetters ?? ['a', 'b', 'c'];
  const stack = options.multusStackName ?? clusterName.replace(/^eks-/, '');
  const zones = letters.map((letter, i) => ({
    zoneName: `${region}${letter}`,
    zoneId: `${zoneIdPrefix(region)}-az${i + 1}`,
  }));
  const subnets: SubnetSpec[] = [];
  zones.forEach((zone, i) => {
    subnets.push({
      subnetId: hexId('subnet', `node-${i}`),
      availabilityZone: zone.zoneName,
      cidrBlock: `10.0.${i * 32}.0/19`,
      ipv6CidrBlock: `2600:1f14:abc:${(0x100 + i).toString(16)}::/64`,
      tags: {
        Name: `${clusterName}-private-${zone.zoneName}`,
        'karpenter.sh/discovery': clusterName,
        'kubernetes.io/role/internal-elb': '1',
        'alpha.eksctl.io/cluster-name': clusterName,
        [`kubernetes.io/cluster/${clusterName}`]: 'shared',
      },
    });
    for (const n of [1, 2]) {
      subnets.push({
        subnetId: hexId('subnet', `multus-${n}-${i}`),
        availabilityZone: zone.zoneName,
        cidrBlock: `10.0.${128 + (n - 1) * 16 + i}.0/24`,
        ipv6CidrBlock: `2600:1f14:abc:${(0x200 + n * 16 + i).toString(16)}::/64`,
        tags: { Name: `Multus${n}Az${i + 1}-${stack}`, multus: 'true', 'multus/interface': String(n) },
      });
    }
  });
  return {
    accountId: ACCOUNT_ID,
    vpcId: hexId('vpc', clusterName),
    cidrBlock: '10.0.0.0/16',
    zones,
    subnets,
    securityGroups: securityGroups(clusterName),
    images: eksImages(),
  };
}

function securityGroups(clusterName: string): SecurityGroupSpec[] {
  return [
    {
      groupId: hexId('sg', 'node'),
      groupName: `${clusterName}-node`,
      description: `Nodes of cluster ${clusterName}`,
      tags: {
        Name: `${clusterName}-node`,
        'karpenter.sh/discovery': clusterName,
        [`kubernetes.io/cluster/${clusterName}`]: 'owned',
      },
    },
    {
      groupId: hexId('sg', 'vpc1'),
      groupName: 'Vpc1SecurityGroup',
      description: 'Multus interfaces (seed 000)',
      tags: { Name: 'Vpc1SecurityGroup', multus: 'true' },
    },
    ...[1, 2].map((n) => ({
      groupId: hexId('sg', `multus-${n}`),
      groupName: `Multus${n}SecurityGroup`,
      description: `Multus interface ${n}`,
      tags: { Name: `Multus${n}SecurityGroup`, multus: 'true', 'multus/interface': String(n) },
    })),
  ];
}

/** A stable EC2-style id (`prefix-` + 17 hex digits) derived from a seed string. */
export function hexId(prefix: string, seed: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (const ch of seed) {
    h1 = Math.imul(h1 ^ ch.charCodeAt(0), 16777619) >>> 0;
    h2 = Math.imul(h2 ^ ch.charCodeAt(0), 2246822519) >>> 0;
  }
  return `${prefix}-0${h1.toString(16).padStart(8, '0')}${h2.toString(16).padStart(8, '0')}`;
}
