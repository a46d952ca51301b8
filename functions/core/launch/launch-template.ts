import {
  CAPACITY_RESERVATION_ID,
  CAPACITY_RESERVATION_TYPE,
  type CapacityReservationType,
} from '../model/capacity-reservation.js';
import type { CapacityType } from '../model/instance-type.js';
import type { BlockDeviceMapping, NodeClass } from '../model/node-class.js';
import { parseBytes } from '../model/quantity.js';
import { type Taint, UNREGISTERED_TAINT } from '../model/taint.js';
import { type AmiVariant, imageFor } from './ami-variant.js';
import { type BootstrapFamily, registrableLabels } from './bootstrap.js';
import { type EfaInterfaceType, efaSlotConflict, efaSlots } from './efa-interfaces.js';
import { shortHash } from './hash.js';
import type { ResolvedNodeClass } from './launch-context.js';
import { pickSubnet } from './launch-context.js';
import { renderUserData } from './user-data.js';

/** An EC2 tag list entry. */
export interface Ec2Tag {
  readonly Key: string;
  readonly Value: string;
}

/** A launch template network interface (EC2 `LaunchTemplateInstanceNetworkInterfaceSpecificationRequest`). */
export interface LaunchTemplateNetworkInterface {
  readonly DeviceIndex: number;
  readonly NetworkCardIndex: number;
  readonly SubnetId: string;
  readonly Groups: readonly string[];
  readonly DeleteOnTermination: true;
  readonly Description: string;
  readonly Ipv6AddressCount?: number;
  readonly AssociatePublicIpAddress?: boolean;
  /** `efa` (EFA with ENA) or `efa-only`; absent for a plain ENA interface. */
  readonly InterfaceType?: EfaInterfaceType;
}

/** Launch template data in the EC2 API's shape (`RequestLaunchTemplateData`). */
export interface LaunchTemplateData {
  readonly ImageId: string;
  readonly IamInstanceProfile: { readonly Name: string };
  /** Base64 of the user data. */
  readonly UserData: string;
  readonly MetadataOptions: {
    readonly HttpEndpoint: string;
    readonly HttpTokens: string;
    readonly HttpPutResponseHopLimit: number;
    readonly HttpProtocolIpv6: string;
  };
  readonly BlockDeviceMappings: readonly {
    readonly DeviceName: string;
    readonly Ebs: Readonly<Record<string, string | number | boolean>>;
  }[];
  readonly NetworkInterfaces: readonly LaunchTemplateNetworkInterface[];
  readonly Monitoring: { readonly Enabled: boolean };
  readonly TagSpecifications: readonly { readonly ResourceType: string; readonly Tags: readonly Ec2Tag[] }[];
  /** A reserved template's targeted reservation (Karpenter puts it in the launch template). */
  readonly CapacityReservationSpecification?: {
    readonly CapacityReservationPreference: 'capacity-reservations-only';
    readonly CapacityReservationTarget: { readonly CapacityReservationId: string };
  };
  /** `capacity-block` for a template that launches into a Capacity Block. */
  readonly InstanceMarketOptions?: { readonly MarketType: 'capacity-block' };
}

/** One launch template: for one zone, capacity type, architecture, AMI variant, EFA count and max-pods value. */
export interface LaunchTemplateSpec {
  /** `joiner/<cluster>/<content hash>`: equal content, equal name (get-or-create is idempotent). */
  readonly name: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  readonly arch: 'amd64' | 'arm64';
  readonly maxPods: number;
  /** Primary subnet (device index 0). */
  readonly subnetId: string;
  /** Decoded user data, for logs and tests. */
  readonly userData: string;
  readonly data: LaunchTemplateData;
  /** Multus interfaces (device index >= 1) that ask for source/dest check off. */
  readonly sourceDestCheckOff: readonly { readonly deviceIndex: number; readonly networkCardIndex: number }[];
  /** Tags of the template resource itself. */
  readonly tags: Readonly<Record<string, string>>;
}

/** What a launch template is built from. */
export interface LaunchTemplateInput {
  readonly nodeClass: NodeClass;
  readonly nodeClassHash: string;
  readonly family: BootstrapFamily;
  readonly resolved: ResolvedNodeClass;
  readonly zone: string;
  readonly capacityType: CapacityType;
  /** For capacity type `reserved`: the reservation the template launches into. */
  readonly reservation?: { readonly id: string; readonly type: CapacityReservationType };
  readonly arch: 'amd64' | 'arm64';
  /** The AMI variant the template's instance types need (default standard). */
  readonly variant?: AmiVariant;
  /** EFA interfaces of the template's instance types (0 or absent: none; see efa-interfaces.ts). */
  readonly efaInterfaces?: number;
  readonly maxPods: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  readonly startupTaints: readonly Taint[];
  /** Tags for instances, volumes and ENIs (cluster, nodepool, nodeclass...). */
  readonly tags: Readonly<Record<string, string>>;
}

/**
 * Builds one launch template; throws naming the NodeClass when the zone lacks a subnet or AMI, or
 * when the EFA interfaces do not fit beside the Multus interfaces.
 */
export function buildLaunchTemplate(input: LaunchTemplateInput): LaunchTemplateSpec {
  const { nodeClass, resolved, zone } = input;
  const where = `NodeClass ${nodeClass.name}`;
  const variant = input.variant ?? 'standard';
  const imageId = imageFor(resolved, input.arch, variant);
  if (!imageId) {
    const what = variant === 'standard' ? input.arch : `${input.arch} (${variant} variant)`;
    throw new Error(`${where}: no AMI resolved for ${what}; check amiSelectorTerms`);
  }
  const primary = pickSubnet(resolved.subnets, zone);
  if (!primary) throw new Error(`${where}: no subnet selected in ${zone}; check subnetSelectorTerms`);
  const conflict = efaSlotConflict(input.efaInterfaces ?? 0, nodeClass.multusInterfaces);
  if (conflict) throw new Error(`${where}: ${conflict}`);
  const userData = renderUserData({
    family: input.family,
    cluster: resolved.cluster,
    labels: registrableLabels({
      ...input.labels,
      'karpenter.sh/capacity-type': input.capacityType,
      ...(input.reservation
        ? {
            [CAPACITY_RESERVATION_ID]: input.reservation.id,
            [CAPACITY_RESERVATION_TYPE]: input.reservation.type,
          }
        : {}),
    }),
    // Karpenter's registration taint last: no pod lands before joiner registers the node.
    taints: uniqueTaints([
      ...input.taints,
      ...input.startupTaints,
      ...(nodeClass.multusReadyTaint ? [nodeClass.multusReadyTaint] : []),
      UNREGISTERED_TAINT,
    ]),
    maxPods: input.maxPods,
    kubelet: nodeClass.kubelet,
    customUserData: nodeClass.userData,
    instanceStorePolicy: nodeClass.instanceStorePolicy,
  });
  const data: LaunchTemplateData = {
    ImageId: imageId,
    IamInstanceProfile: { Name: resolved.instanceProfile },
    UserData: Buffer.from(userData, 'utf8').toString('base64'),
    MetadataOptions: {
      HttpEndpoint: nodeClass.metadataOptions.httpEndpoint,
      HttpTokens: nodeClass.metadataOptions.httpTokens,
      HttpPutResponseHopLimit: nodeClass.metadataOptions.httpPutResponseHopLimit,
      HttpProtocolIpv6: nodeClass.metadataOptions.httpProtocolIPv6,
    },
    BlockDeviceMappings: blockDevices(nodeClass.blockDeviceMappings, input.family),
    NetworkInterfaces: networkInterfaces(input, primary.subnetId),
    Monitoring: { Enabled: nodeClass.detailedMonitoring },
    TagSpecifications: templateTaggedTypes(input.capacityType).map((ResourceType) => ({
      ResourceType,
      Tags: toTagList(input.tags),
    })),
    ...reservationData(input),
  };
  const name = `joiner/${resolved.cluster.name}/${shortHash(data, 20)}`;
  return {
    name,
    zone,
    capacityType: input.capacityType,
    arch: input.arch,
    maxPods: input.maxPods,
    subnetId: primary.subnetId,
    userData,
    data,
    sourceDestCheckOff: nodeClass.multusInterfaces
      .filter((m) => m.disableSourceDestCheck)
      .map((m) => ({ deviceIndex: m.deviceIndex, networkCardIndex: m.networkCardIndex })),
    tags: {
      ...input.tags,
      'joiner.sh/nodeclass-hash': input.nodeClassHash,
      'topology.kubernetes.io/zone': zone,
    },
  };
}

/**
 * The resource types a launch template tags. A spot launch also creates a
 * `spot-instances-request`, which EC2 authorizes like every resource it creates: the IAM policy
 * requires the cluster tag on it, and only the launch template can tag it (CreateFleet's own
 * TagSpecifications take fleet, instance and volume), as Karpenter does. On-demand templates
 * leave it out. Spot and on-demand launches never share a template: names are hashes of the
 * content, and this list (like the capacity-type label in the user data) differs between them.
 */
export function templateTaggedTypes(capacityType: CapacityType): string[] {
  return [
    'instance',
    'volume',
    'network-interface',
    ...(capacityType === 'spot' ? ['spot-instances-request'] : []),
  ];
}

/**
 * A reserved template targets its reservation only (`capacity-reservations-only`, so a full
 * reservation fails the launch instead of launching plain on-demand) and, for a Capacity Block,
 * has the market type `capacity-block` — as Karpenter builds them.
 */
function reservationData(
  input: LaunchTemplateInput,
): Pick<LaunchTemplateData, 'CapacityReservationSpecification' | 'InstanceMarketOptions'> {
  const r = input.reservation;
  if (input.capacityType !== 'reserved' || !r) return {};
  return {
    CapacityReservationSpecification: {
      CapacityReservationPreference: 'capacity-reservations-only',
      CapacityReservationTarget: { CapacityReservationId: r.id },
    },
    ...(r.type === 'capacity-block'
      ? { InstanceMarketOptions: { MarketType: 'capacity-block' as const } }
      : {}),
  };
}

/**
 * The primary interface (type `efa` when the template has EFA interfaces), the secondary EFA
 * interfaces (`efa-only`, in the primary's subnet and security groups), then the Multus ones.
 */
function networkInterfaces(
  input: LaunchTemplateInput,
  primarySubnet: string,
): LaunchTemplateNetworkInterface[] {
  const { nodeClass, resolved, zone } = input;
  const efa = efaSlots(input.efaInterfaces ?? 0);
  const primary: LaunchTemplateNetworkInterface = {
    DeviceIndex: 0,
    NetworkCardIndex: 0,
    SubnetId: primarySubnet,
    Groups: [...resolved.securityGroupIds],
    DeleteOnTermination: true,
    Description: 'joiner primary interface',
    ...(nodeClass.associatePublicIPAddress === undefined
      ? {}
      : { AssociatePublicIpAddress: nodeClass.associatePublicIPAddress }),
    ...(efa.length > 0 ? { InterfaceType: 'efa' as const } : {}),
  };
  const efaOnly = efa.slice(1).map(
    (slot): LaunchTemplateNetworkInterface => ({
      DeviceIndex: slot.deviceIndex,
      NetworkCardIndex: slot.networkCardIndex,
      SubnetId: primarySubnet,
      Groups: [...resolved.securityGroupIds],
      DeleteOnTermination: true,
      Description: `joiner EFA interface on network card ${slot.networkCardIndex}`,
      InterfaceType: slot.interfaceType,
    }),
  );
  const multus = nodeClass.multusInterfaces.map((m, i): LaunchTemplateNetworkInterface => {
    const r = resolved.multus[i];
    const subnet = r ? pickSubnet(r.subnets, zone) : undefined;
    if (!subnet) {
      throw new Error(`NodeClass ${nodeClass.name}: multusInterfaces[${i}] selects no subnet in ${zone}`);
    }
    if (r.securityGroupIds.length === 0) {
      throw new Error(`NodeClass ${nodeClass.name}: multusInterfaces[${i}] selects no security group`);
    }
    return {
      DeviceIndex: m.deviceIndex,
      NetworkCardIndex: m.networkCardIndex,
      SubnetId: subnet.subnetId,
      Groups: [...r.securityGroupIds],
      DeleteOnTermination: true,
      Description: `joiner multus interface ${i}`,
      ...(m.ipv6AddressCount > 0 ? { Ipv6AddressCount: m.ipv6AddressCount } : {}),
    };
  });
  return [primary, ...efaOnly, ...multus];
}

/** Default root volumes: 20 GiB gp3 (AL2023/AL2), 4 GiB OS + 20 GiB data (Bottlerocket), encrypted. */
function blockDevices(
  mappings: readonly BlockDeviceMapping[],
  family: BootstrapFamily,
): LaunchTemplateData['BlockDeviceMappings'] {
  const defaults: BlockDeviceMapping[] =
    family === 'Bottlerocket'
      ? [
          { deviceName: '/dev/xvda', ebs: { volumeSize: '4Gi', volumeType: 'gp3', encrypted: true } },
          { deviceName: '/dev/xvdb', ebs: { volumeSize: '20Gi', volumeType: 'gp3', encrypted: true } },
        ]
      : [{ deviceName: '/dev/xvda', ebs: { volumeSize: '20Gi', volumeType: 'gp3', encrypted: true } }];
  return (mappings.length > 0 ? mappings : defaults).map((m) => {
    const e = m.ebs ?? {};
    const ebs: Record<string, string | number | boolean> = {
      DeleteOnTermination: e.deleteOnTermination ?? true,
    };
    if (e.volumeSize !== undefined) ebs.VolumeSize = Math.ceil(parseBytes(e.volumeSize) / 2 ** 30);
    if (e.volumeType !== undefined) ebs.VolumeType = e.volumeType;
    if (e.iops !== undefined) ebs.Iops = e.iops;
    if (e.throughput !== undefined) ebs.Throughput = e.throughput;
    if (e.encrypted !== undefined) ebs.Encrypted = e.encrypted;
    if (e.kmsKeyID !== undefined) ebs.KmsKeyId = e.kmsKeyID;
    if (e.snapshotID !== undefined) ebs.SnapshotId = e.snapshotID;
    if (e.volumeInitializationRate !== undefined) ebs.VolumeInitializationRate = e.volumeInitializationRate;
    return { DeviceName: m.deviceName, Ebs: ebs };
  });
}

function uniqueTaints(taints: readonly Taint[]): Taint[] {
  const seen = new Map(taints.map((t) => [`${t.key}:${t.effect}`, t]));
  return [...seen.values()];
}

/** A tag map as an EC2 tag list, sorted by key. */
export function toTagList(tags: Readonly<Record<string, string>>): Ec2Tag[] {
  return Object.keys(tags)
    .sort()
    .map((Key) => ({ Key, Value: tags[Key] }));
}
