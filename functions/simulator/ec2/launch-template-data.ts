/**
 * Launch template data as the simulated EC2 keeps it (the parts that shape an instance), read from
 * the `LaunchTemplateData.*` / RunInstances parameters.
 */
import { tagsFor } from './filters.js';
import type { QueryParams } from './query.js';

export interface InterfaceSpec {
  readonly deviceIndex: number;
  readonly networkCardIndex: number;
  readonly subnetId?: string;
  readonly groups: readonly string[];
  readonly deleteOnTermination: boolean;
  readonly ipv6AddressCount: number;
  readonly associatePublicIpAddress?: boolean;
  readonly description?: string;
  readonly interfaceType?: string;
}

export interface EbsSpec {
  readonly volumeSize?: number;
  readonly volumeType?: string;
  readonly encrypted?: boolean;
  readonly deleteOnTermination?: boolean;
  readonly iops?: number;
  readonly throughput?: number;
  readonly kmsKeyId?: string;
  readonly snapshotId?: string;
}

export interface BlockDeviceSpec {
  readonly deviceName: string;
  readonly ebs?: EbsSpec;
}

export interface LaunchData {
  readonly imageId?: string;
  readonly instanceType?: string;
  /** Base64, as sent. */
  readonly userData?: string;
  readonly securityGroupIds: readonly string[];
  readonly networkInterfaces: readonly InterfaceSpec[];
  /** Resource type (`instance`, `volume`, `network-interface`, ...) to tags. */
  readonly tagSpecifications: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly metadataOptions?: Readonly<Record<string, string>>;
  readonly blockDeviceMappings: readonly BlockDeviceSpec[];
  readonly iamInstanceProfile?: { readonly arn?: string; readonly name?: string };
  readonly monitoring?: boolean;
  readonly spot?: boolean;
  readonly keyName?: string;
  /** `InstanceMarketOptions.MarketType` (`spot`, `capacity-block`). */
  readonly marketType?: string;
  /** `CapacityReservationSpecification`: preference and targeted reservation. */
  readonly capacityReservation?: {
    readonly preference?: string;
    readonly capacityReservationId?: string;
  };
}

const RESOURCE_TYPES = ['instance', 'volume', 'network-interface', 'spot-instances-request'];

/** Reads launch template data (or the equivalent RunInstances parameters). */
export function parseLaunchData(params: QueryParams | undefined): LaunchData {
  if (!params)
    return { securityGroupIds: [], networkInterfaces: [], tagSpecifications: {}, blockDeviceMappings: [] };
  const tagSpecifications: Record<string, Record<string, string>> = {};
  for (const type of RESOURCE_TYPES) {
    const tags = tagsFor(params, type);
    if (Object.keys(tags).length > 0) tagSpecifications[type] = tags;
  }
  const metadata = params.child('MetadataOptions');
  const profile = params.child('IamInstanceProfile');
  const market = params.child('InstanceMarketOptions');
  return {
    imageId: params.str('ImageId'),
    instanceType: params.str('InstanceType'),
    userData: params.str('UserData'),
    securityGroupIds: params.strings('SecurityGroupId'),
    networkInterfaces: params.list('NetworkInterface').map(parseInterface),
    tagSpecifications,
    metadataOptions: metadata ? readAll(metadata, METADATA_FIELDS) : undefined,
    blockDeviceMappings: params.list('BlockDeviceMapping').map(parseBlockDevice),
    iamInstanceProfile: profile ? { arn: profile.str('Arn'), name: profile.str('Name') } : undefined,
    monitoring: params.child('Monitoring')?.bool('Enabled'),
    spot: market ? market.str('MarketType') === 'spot' : undefined,
    keyName: params.str('KeyName'),
    marketType: market?.str('MarketType'),
    capacityReservation: capacityReservationOf(params.child('CapacityReservationSpecification')),
  };
}

function capacityReservationOf(spec: QueryParams | undefined): LaunchData['capacityReservation'] {
  if (!spec) return undefined;
  return {
    preference: spec.str('CapacityReservationPreference'),
    capacityReservationId: spec.child('CapacityReservationTarget')?.str('CapacityReservationId'),
  };
}

const METADATA_FIELDS = [
  'HttpTokens',
  'HttpPutResponseHopLimit',
  'HttpEndpoint',
  'HttpProtocolIpv6',
  'InstanceMetadataTags',
];

function readAll(params: QueryParams, fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of fields) {
    const value = params.str(field);
    if (value !== undefined) out[field] = value;
  }
  return out;
}

function parseInterface(params: QueryParams): InterfaceSpec {
  return {
    deviceIndex: params.int('DeviceIndex') ?? 0,
    networkCardIndex: params.int('NetworkCardIndex') ?? 0,
    subnetId: params.str('SubnetId'),
    groups: params.strings('SecurityGroupId'),
    deleteOnTermination: params.bool('DeleteOnTermination') ?? true,
    ipv6AddressCount: params.int('Ipv6AddressCount') ?? 0,
    associatePublicIpAddress: params.bool('AssociatePublicIpAddress'),
    description: params.str('Description'),
    interfaceType: params.str('InterfaceType'),
  };
}

function parseBlockDevice(params: QueryParams): BlockDeviceSpec {
  const ebs = params.child('Ebs');
  return {
    deviceName: params.required('DeviceName'),
    ebs: ebs && {
      volumeSize: ebs.int('VolumeSize'),
      volumeType: ebs.str('VolumeType'),
      encrypted: ebs.bool('Encrypted'),
      deleteOnTermination: ebs.bool('DeleteOnTermination'),
      iops: ebs.int('Iops'),
      throughput: ebs.int('Throughput'),
      kmsKeyId: ebs.str('KmsKeyId'),
      snapshotId: ebs.str('SnapshotId'),
    },
  };
}
