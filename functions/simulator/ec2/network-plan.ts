/**
 * Which network interfaces an instance gets: the launch data's interfaces (the primary's subnet
 * replaced by the fleet override's), or one primary interface from the instance-level subnet and
 * security groups; checked the way EC2 checks them (subnets and groups exist, one zone, one VPC,
 * unique device indexes, within the instance type's ENI limits, EFA interfaces only where the
 * type supports them).
 */
import { defaultCardEnis } from '../../core/catalog/allocatable.js';
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
  checkEfa(interfaces, type);
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

/** The interface types a launch may ask for. */
const INTERFACE_TYPES = ['interface', 'efa', 'efa-only'];

/** Whether an interface is an EFA (`efa`, EFA with ENA, or `efa-only`). */
export function isEfa(spec: Pick<InterfaceSpec, 'interfaceType'>): boolean {
  return spec.interfaceType === 'efa' || spec.interfaceType === 'efa-only';
}

/**
 * EC2's EFA rules: a known interface type; EFA only on a type that supports it, at most its
 * maximum EFA interfaces and one per network card; the primary interface not `efa-only`; an
 * `efa-only` interface without IP settings (it has no IP address); and no network card with more
 * interfaces than the type takes per card.
 */
function checkEfa(interfaces: readonly PlannedInterface[], type: InstanceType): void {
  for (const spec of interfaces) {
    const kind = spec.interfaceType ?? 'interface';
    if (!INTERFACE_TYPES.includes(kind))
      throw new Ec2Error(
        'InvalidParameterValue',
        `Value (${kind}) for parameter InterfaceType is invalid. Valid values: ${INTERFACE_TYPES.join(', ')}`,
      );
  }
  const efa = interfaces.filter(isEfa);
  if (efa.length > 0 && !type.maxEfaInterfaces)
    throw new Ec2Error(
      'InvalidParameterCombination',
      `The instance type '${type.name}' does not support Elastic Fabric Adapter (EFA) interfaces`,
    );
  if (efa.length > (type.maxEfaInterfaces ?? 0))
    throw new Ec2Error(
      'InvalidParameterCombination',
      `${efa.length} EFA interfaces requested, but ${type.name} supports at most ${type.maxEfaInterfaces}`,
    );
  const cards = new Set<number>();
  for (const spec of efa) {
    if (cards.has(spec.networkCardIndex))
      throw new Ec2Error(
        'InvalidParameterCombination',
        `Only one EFA interface is supported per network card: network card ${spec.networkCardIndex} has more`,
      );
    cards.add(spec.networkCardIndex);
    if (spec.interfaceType !== 'efa-only') continue;
    if (spec.deviceIndex === 0 && spec.networkCardIndex === 0)
      throw new Ec2Error(
        'InvalidParameterCombination',
        'The primary network interface (device index 0, network card 0) cannot be an efa-only interface',
      );
    if (spec.associatePublicIpAddress || spec.ipv6AddressCount > 0)
      throw new Ec2Error(
        'InvalidParameterCombination',
        `The efa-only interface on network card ${spec.networkCardIndex} cannot have IP addresses`,
      );
  }
  const perCard = new Map<number, number>();
  for (const spec of interfaces)
    perCard.set(spec.networkCardIndex, (perCard.get(spec.networkCardIndex) ?? 0) + 1);
  const limit = defaultCardEnis(type);
  for (const [card, n] of perCard) {
    if (n > limit)
      throw new Ec2Error(
        'InvalidParameterValue',
        `${n} network interfaces requested on network card ${card}, but each network card of ${type.name} supports at most ${limit}`,
      );
  }
}

function subnetOf(state: Ec2State, subnetId: string) {
  const subnet = state.subnets.get(subnetId);
  if (!subnet) throw new Ec2Error('InvalidSubnetID.NotFound', `The subnet ID '${subnetId}' does not exist`);
  return subnet;
}
