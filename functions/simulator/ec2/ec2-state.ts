/**
 * Everything the simulated EC2 holds: subnets with their free addresses, security groups, images,
 * launch templates, instances, network interfaces, fleets and capacity pools. Tests inspect it
 * through `Ec2Simulator.state`.
 */
import type { InstanceType } from '../../core/model/instance-type.js';
import type { SimInstance, SimInstanceState, SimNetworkInterface } from '../instance.js';
import type { Ec2CapacityReservation } from './capacity-reservations.js';
import type { ImageSpec } from './eks-images.js';
import type { KmsKeyState, LaunchFailureRule } from './launch-failures.js';
import type { LaunchData } from './launch-template-data.js';
import type { Ec2Market } from './market.js';
import { SubnetAddresses } from './subnet-addresses.js';
import type { SecurityGroupSpec, VpcTopology } from './topology.js';
import type { XmlObject } from './xml-response.js';

export type CapacityTypeName = 'spot' | 'on-demand';

/** A network interface of the simulated VPC. */
export interface Ec2NetworkInterface extends SimNetworkInterface {
  tags: Record<string, string>;
  status: 'in-use' | 'available';
  instanceId?: string;
  attachmentId?: string;
  readonly macAddress: string;
  readonly description: string;
  readonly interfaceType: string;
  readonly createdAt: number;
}

export interface Ec2BlockDevice {
  readonly deviceName: string;
  readonly volumeId: string;
  readonly deleteOnTermination: boolean;
  tags: Record<string, string>;
  /** GiB (the mapping's, else the EKS AMI's 20). */
  readonly size: number;
  readonly volumeType: string;
  readonly iops?: number;
  readonly throughput?: number;
  /** Encrypted by the mapping or by the account's default EBS encryption. */
  readonly encrypted: boolean;
  readonly kmsKeyId?: string;
  readonly snapshotId?: string;
}

/** An instance of the simulated EC2 (the kubelet contract plus what DescribeInstances shows). */
export interface Ec2Instance extends SimInstance {
  tags: Record<string, string>;
  state: SimInstanceState;
  networkInterfaces: Ec2NetworkInterface[];
  readonly reservationId: string;
  readonly subnetId: string;
  readonly vpcId: string;
  readonly securityGroupIds: readonly string[];
  readonly architecture: 'x86_64' | 'arm64';
  readonly clientToken?: string;
  readonly fleetId?: string;
  readonly iamInstanceProfile?: { readonly arn?: string; readonly name?: string };
  readonly metadataOptions?: Readonly<Record<string, string>>;
  readonly blockDevices: readonly Ec2BlockDevice[];
  readonly spotInstanceRequestId?: string;
  /** Tags of the spot instance request (the launch template's and the request's `spot-instances-request` tags). */
  readonly spotInstanceRequestTags?: Readonly<Record<string, string>>;
  stateReason?: { code: string; message: string };
  stateTransitionReason: string;
  /** Set while a spot interruption notice is running. */
  interruptionNoticeAt?: number;
  /** The capacity reservation the instance runs in (a targeted launch into it). */
  readonly capacityReservationId?: string;
  /** `capacity-block` for an instance of a Capacity Block. */
  readonly instanceLifecycle?: 'capacity-block';
}

export interface LaunchTemplateRecord {
  readonly launchTemplateId: string;
  readonly launchTemplateName: string;
  readonly createTime: number;
  tags: Record<string, string>;
  readonly versions: Map<number, LaunchData>;
  defaultVersion: number;
  latestVersion: number;
}

/** One entry of a fleet's `errorSet`. */
export interface FleetError {
  readonly launchTemplateId: string;
  readonly launchTemplateName: string;
  readonly version: string;
  readonly overrides: Readonly<Record<string, string | number | undefined>>;
  readonly lifecycle: CapacityTypeName;
  readonly errorCode: string;
  readonly errorMessage: string;
  /** Position of the failed override among the request's overrides. */
  readonly candidateIndex: number;
}

export interface FleetRecord {
  readonly fleetId: string;
  readonly clientToken?: string;
  /** Fingerprint of the request, to detect a reused ClientToken with different parameters. */
  readonly fingerprint: string;
  readonly createTime: number;
  readonly tags: Readonly<Record<string, string>>;
  readonly instanceIds: readonly string[];
  readonly errors: readonly FleetError[];
  /** The CreateFleet response body, returned again for a replayed ClientToken. */
  readonly response: XmlObject;
}

/** Mutable state of one simulated region. */
export class Ec2State {
  readonly subnets = new Map<string, SubnetAddresses>();
  readonly securityGroups = new Map<string, SecurityGroupSpec>();
  readonly images = new Map<string, ImageSpec>();
  readonly instanceTypes = new Map<string, InstanceType>();
  readonly launchTemplates = new Map<string, LaunchTemplateRecord>();
  readonly instances = new Map<string, Ec2Instance>();
  readonly networkInterfaces = new Map<string, Ec2NetworkInterface>();
  readonly fleets = new Map<string, FleetRecord>();
  /** Capacity reservations (ODCRs and Capacity Blocks) by id. */
  readonly capacityReservations = new Map<string, Ec2CapacityReservation>();
  /** Remaining capacity per `type|zone|capacityType`; absent means unlimited. */
  readonly pools = new Map<string, number>();
  /** RunInstances idempotency: client token to fingerprint and response. */
  readonly runTokens = new Map<string, { fingerprint: string; response: XmlObject }>();
  /** CreateLaunchTemplate idempotency: client token to template id and fingerprint. */
  readonly launchTemplateTokens = new Map<string, { launchTemplateId: string; fingerprint: string }>();
  /** Maximum running spot instances (MaxSpotInstanceCountExceeded beyond); unlimited when absent. */
  spotInstanceLimit?: number;
  /** Whether the account has the spot service-linked role (created by the first spot launch allowed to). */
  spotServiceLinkedRole = false;
  /** When a spot launch created the spot service-linked role (virtual epoch ms); unset when it existed or was never created. */
  spotServiceLinkedRoleCreatedAt?: number;
  /** Spot price changes and withdrawn offerings (set by the simulator at start). */
  market?: Ec2Market;
  /** The account's KMS keys EC2 may be asked to use for volumes, by id or ARN; unlisted keys are enabled. */
  readonly kmsKeys = new Map<string, KmsKeyState>();
  /** Injected failures: instances launched into a matching offering are terminated during launch. */
  launchFailures: LaunchFailureRule[] = [];

  constructor(
    readonly topology: VpcTopology,
    readonly region: string,
    instanceTypes: readonly InstanceType[],
  ) {
    for (const subnet of topology.subnets) this.subnets.set(subnet.subnetId, new SubnetAddresses(subnet));
    for (const group of topology.securityGroups) this.securityGroups.set(group.groupId, group);
    for (const image of topology.images) this.images.set(image.imageId, image);
    for (const type of instanceTypes) this.instanceTypes.set(type.name, type);
  }

  /** Remaining capacity of a pool (Infinity when unlimited). */
  poolCapacity(type: string, zone: string, capacityType: CapacityTypeName): number {
    return this.pools.get(poolKey(type, zone, capacityType)) ?? Number.POSITIVE_INFINITY;
  }

  setPoolCapacity(type: string, zone: string, capacityType: CapacityTypeName, count: number): void {
    this.pools.set(poolKey(type, zone, capacityType), count);
  }

  /** Takes (`delta` -1) or returns (+1) one unit of a finite pool. */
  adjustPool(type: string, zone: string, capacityType: CapacityTypeName, delta: number): void {
    const key = poolKey(type, zone, capacityType);
    const current = this.pools.get(key);
    if (current !== undefined) this.pools.set(key, Math.max(0, current + delta));
  }

  /** Running or pending spot instances. */
  liveSpotCount(): number {
    let count = 0;
    for (const instance of this.instances.values()) {
      if (instance.capacityType === 'spot' && (instance.state === 'pending' || instance.state === 'running'))
        count++;
    }
    return count;
  }

  launchTemplateByName(name: string): LaunchTemplateRecord | undefined {
    for (const template of this.launchTemplates.values())
      if (template.launchTemplateName === name) return template;
    return undefined;
  }

  zoneId(zoneName: string): string | undefined {
    return this.topology.zones.find((z) => z.zoneName === zoneName)?.zoneId;
  }
}

function poolKey(type: string, zone: string, capacityType: CapacityTypeName): string {
  return `${type}|${zone}|${capacityType}`;
}
