/** Instances and network interfaces as DescribeInstances / DescribeNetworkInterfaces render them. */
import { describedTags } from './consistency/eventual-consistency.js';
import type { Ec2Context } from './context.js';
import type { Ec2Instance, Ec2NetworkInterface } from './ec2-state.js';
import { tagSet } from './filters.js';
import { stateCode } from './instance-lifecycle.js';
import type { XmlObject } from './xml-response.js';

function groups(ctx: Ec2Context, ids: readonly string[]): XmlObject[] {
  return ids.map((id) => ({ groupId: id, groupName: ctx.state.securityGroups.get(id)?.groupName }));
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** An interface's address and DNS name; none for an efa-only interface, which has no IP address. */
function interfaceAddress(ctx: Ec2Context, eni: Ec2NetworkInterface): XmlObject {
  if (!eni.privateIpAddress) return {};
  return {
    privateIpAddress: eni.privateIpAddress,
    privateDnsName: `ip-${eni.privateIpAddress.replaceAll('.', '-')}.${ctx.region}.compute.internal`,
  };
}

/** `InstanceNetworkInterface`. */
function instanceInterfaceXml(ctx: Ec2Context, eni: Ec2NetworkInterface, instance: Ec2Instance): XmlObject {
  return {
    networkInterfaceId: eni.networkInterfaceId,
    subnetId: eni.subnetId,
    vpcId: eni.vpcId,
    description: eni.description,
    ownerId: ctx.state.topology.accountId,
    status: eni.status,
    macAddress: eni.macAddress,
    ...interfaceAddress(ctx, eni),
    sourceDestCheck: eni.sourceDestCheck,
    groupSet: groups(ctx, eni.securityGroupIds),
    attachment: {
      attachmentId: eni.attachmentId,
      deviceIndex: eni.deviceIndex,
      networkCardIndex: eni.networkCardIndex,
      status: instance.state === 'terminated' ? 'detached' : 'attached',
      attachTime: iso(instance.launchTime),
      deleteOnTermination: eni.deleteOnTermination,
    },
    privateIpAddressesSet: eni.privateIpAddress
      ? [{ privateIpAddress: eni.privateIpAddress, primary: true }]
      : [],
    ipv6AddressesSet: eni.ipv6Addresses.map((ipv6Address) => ({ ipv6Address })),
    interfaceType: eni.interfaceType,
  };
}

/** `Instance`. */
export function instanceXml(ctx: Ec2Context, instance: Ec2Instance): XmlObject {
  const live = instance.state !== 'terminated';
  return {
    instanceId: instance.instanceId,
    imageId: instance.imageId,
    instanceState: { code: stateCode(instance.state), name: instance.state },
    privateDnsName: live ? instance.privateDnsName : '',
    dnsName: '',
    reason: instance.stateTransitionReason,
    amiLaunchIndex: 0,
    instanceType: instance.instanceType,
    launchTime: iso(instance.launchTime),
    placement: {
      availabilityZone: instance.availabilityZone,
      availabilityZoneId: ctx.state.zoneId(instance.availabilityZone),
      groupName: '',
      tenancy: 'default',
    },
    monitoring: { state: 'disabled' },
    subnetId: live ? instance.subnetId : undefined,
    vpcId: live ? instance.vpcId : undefined,
    privateIpAddress: live ? instance.privateIpAddress : undefined,
    stateReason: instance.stateReason,
    architecture: instance.architecture,
    rootDeviceType: 'ebs',
    rootDeviceName: instance.blockDevices[0]?.deviceName,
    blockDeviceMapping: live
      ? instance.blockDevices.map((device) => ({
          deviceName: device.deviceName,
          ebs: {
            volumeId: device.volumeId,
            status: 'attached',
            attachTime: iso(instance.launchTime),
            deleteOnTermination: device.deleteOnTermination,
          },
        }))
      : [],
    instanceLifecycle: instance.capacityType === 'spot' ? 'spot' : instance.instanceLifecycle,
    capacityReservationId: instance.capacityReservationId,
    capacityReservationSpecification: instance.capacityReservationId
      ? {
          capacityReservationPreference: 'capacity-reservations-only',
          capacityReservationTarget: { capacityReservationId: instance.capacityReservationId },
        }
      : undefined,
    spotInstanceRequestId: instance.spotInstanceRequestId,
    clientToken: instance.clientToken,
    tagSet: tagSet(describedTags(ctx.consistency, instance.instanceId, instance.tags)),
    groupSet: groups(ctx, instance.securityGroupIds),
    sourceDestCheck: instance.networkInterfaces[0]?.sourceDestCheck ?? true,
    hypervisor: 'xen',
    networkInterfaceSet: live
      ? instance.networkInterfaces.map((eni) => instanceInterfaceXml(ctx, eni, instance))
      : [],
    iamInstanceProfile: instance.iamInstanceProfile?.arn
      ? { arn: instance.iamInstanceProfile.arn, id: 'AIPAEXAMPLE' }
      : instance.iamInstanceProfile?.name
        ? {
            arn: `arn:aws:iam::${ctx.state.topology.accountId}:instance-profile/${instance.iamInstanceProfile.name}`,
            id: 'AIPAEXAMPLE',
          }
        : undefined,
    ebsOptimized: false,
    enaSupport: true,
    virtualizationType: 'hvm',
    metadataOptions: {
      state: 'applied',
      httpTokens: instance.metadataOptions?.HttpTokens ?? 'required',
      httpPutResponseHopLimit: instance.metadataOptions?.HttpPutResponseHopLimit ?? '2',
      httpEndpoint: instance.metadataOptions?.HttpEndpoint ?? 'enabled',
      httpProtocolIpv6: instance.metadataOptions?.HttpProtocolIpv6 ?? 'disabled',
      instanceMetadataTags: instance.metadataOptions?.InstanceMetadataTags ?? 'disabled',
    },
    platformDetails: 'Linux/UNIX',
  };
}

/** `NetworkInterface` (DescribeNetworkInterfaces). */
export function networkInterfaceXml(ctx: Ec2Context, eni: Ec2NetworkInterface): XmlObject {
  const instance = eni.instanceId ? ctx.state.instances.get(eni.instanceId) : undefined;
  return {
    networkInterfaceId: eni.networkInterfaceId,
    subnetId: eni.subnetId,
    vpcId: eni.vpcId,
    availabilityZone: eni.availabilityZone,
    availabilityZoneId: ctx.state.zoneId(eni.availabilityZone),
    description: eni.description,
    ownerId: ctx.state.topology.accountId,
    requesterManaged: false,
    status: eni.status,
    macAddress: eni.macAddress,
    ...interfaceAddress(ctx, eni),
    sourceDestCheck: eni.sourceDestCheck,
    groupSet: groups(ctx, eni.securityGroupIds),
    attachment: instance
      ? {
          attachmentId: eni.attachmentId,
          instanceId: instance.instanceId,
          instanceOwnerId: ctx.state.topology.accountId,
          deviceIndex: eni.deviceIndex,
          networkCardIndex: eni.networkCardIndex,
          status: 'attached',
          attachTime: iso(instance.launchTime),
          deleteOnTermination: eni.deleteOnTermination,
        }
      : undefined,
    privateIpAddressesSet: eni.privateIpAddress
      ? [{ privateIpAddress: eni.privateIpAddress, primary: true }]
      : [],
    ipv6AddressesSet: eni.ipv6Addresses.map((ipv6Address) => ({ ipv6Address })),
    interfaceType: eni.interfaceType,
    tagSet: tagSet(describedTags(ctx.consistency, eni.networkInterfaceId, eni.tags)),
  };
}
