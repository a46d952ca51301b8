/**
 * Which network interfaces an instance gets: the launch data's interfaces (the primary's subnet
 * replaced by the fleet override's), or one primary interface from the instance-level subnet and
 * security groups; checked the way EC2 checks them (subnets and groups exist, one zone, one VPC,
 * unique device indexes, within the instance type's ENI limit).
 */
import type { InstanceType } from '../../core/model/instance-type.js';
import { Ec2Error } from './ec2-error.js';
import type { Ec2State } from './ec2-state.js';
import type { InterfaceSpec, LaunchData } from './launch-template-data.js';

export interface PlannedInterface extends InterfaceSpec {
  readonly subnetId: string;
}

export interface NetworkPlan {
  readonly zone: string;
  readonly interfaces: readonly PlannedInterface[];
}

/** Resolves and validates the interfaces of one launch. */
export function planNetwork(
  state: Ec2State,
  data: LaunchData,
  type: InstanceType,
  subnetOverride: string | undefined,
  zoneOverride: string | undefined,
): NetworkPlan {
  const specs = interfaceSpecs(data, subnetOverride);
  const primary = specs.find((s) => s.deviceIndex === 0 && s.networkCardIndex === 0);
  if (!primary)
    throw new Ec2Error('InvalidParameterValue', 'A network interface with device index 0 is required');
  if (!primary.subnetId) {
    throw new Ec2Error(
      'MissingParameter',
      'No subnet for the primary network interface: set SubnetId in the fleet override, the launch template or the request',
    );
  }
  const zone = subnetOf(state, primary.subnetId).spec.availabilityZone;
  if (zoneOverride && zoneOverride !== zone) {
    throw new Ec2Error(
      'InvalidParameterCombination',
      `Subnet '${primary.subnetId}' is in ${zone}, not in the requested Availability Zone ${zoneOverride}`,
    );
  }
  const interfaces = specs.map((spec) => checkInterface(state, spec, zone));
  checkLimits(interfaces, type);
  return { zone, interfaces };
}

function interfaceSpecs(data: LaunchData, subnetOverride: string | undefined): InterfaceSpec[] {
  if (data.networkInterfaces.length === 0) {
    return [
      {
        deviceIndex: 0,
        networkCardIndex: 0,
        subnetId: subnetOverride,
        groups: data.securityGroupIds,
        deleteOnTermination: true,
        ipv6AddressCount: 0,
      },
    ];
  }
  if (data.securityGroupIds.length > 0) {
    throw new Ec2Error(
      'InvalidParameterCombination',
      'Network interfaces and an instance-level security groups may not be specified on the same request',
    );
  }
  return data.networkInterfaces.map((spec) =>
    spec.deviceIndex === 0 && spec.networkCardIndex === 0 && subnetOverride
      ? { ...spec, subnetId: subnetOverride }
      : spec,
  );
}

function checkInterface(state: Ec2State, spec: InterfaceSpec, zone: string): PlannedInterface {
  const where = `network interface (device index ${spec.deviceIndex}, network card ${spec.networkCardIndex})`;
  if (!spec.subnetId) throw new Ec2Error('MissingParameter', `The ${where} has no SubnetId`);
  const subnet = subnetOf(state, spec.subnetId);
  if (subnet.spec.availabilityZone !== zone) {
    throw new Ec2Error(
      'InvalidParameterCombination',
      `The ${where} uses subnet '${spec.subnetId}' in ${subnet.spec.availabilityZone}, but the instance is in ${zone}`,
    );
  }
  for (const group of spec.groups) {
    if (!state.securityGroups.has(group)) {
      throw new Ec2Error(
        'InvalidGroup.NotFound',
        `The security group '${group}' does not exist in default VPC`,
      );
    }
  }
  if (spec.ipv6AddressCount > 0 && !subnet.spec.ipv6CidrBlock) {
    throw new Ec2Error(
      'InvalidParameterValue',
      `The ${where} asks for IPv6 addresses but subnet '${spec.subnetId}' has no IPv6 CIDR`,
    );
  }
  return { ...spec, subnetId: spec.subnetId };
}

function checkLimits(interfaces: readonly PlannedInterface[], type: InstanceType): void {
  const seen = new Set<string>();
  for (const spec of interfaces) {
    const key = `${spec.networkCardIndex}/${spec.deviceIndex}`;
    if (seen.has(key)) {
      throw new Ec2Error(
        'InvalidParameterValue',
        `Each network interface requires a unique device index: ${spec.deviceIndex} on network card ${spec.networkCardIndex} is repeated`,
      );
    }
    seen.add(key);
    if (spec.networkCardIndex >= (type.networkCards ?? 1)) {
      throw new Ec2Error(
        'InvalidParameterValue',
        `Network card index ${spec.networkCardIndex} is out of range: ${type.name} has ${type.networkCards ?? 1} network card(s)`,
      );
    }
  }
  if (interfaces.length > type.maxEnis) {
    throw new Ec2Error(
      'InvalidParameterValue',
      `${interfaces.length} network interfaces requested, but ${type.name} supports at most ${type.maxEnis}`,
    );
  }
}

function subnetOf(state: Ec2State, subnetId: string) {
  const subnet = state.subnets.get(subnetId);
  if (!subnet) throw new Ec2Error('InvalidSubnetID.NotFound', `The subnet ID '${subnetId}' does not exist`);
  return subnet;
}
