/**
 * IPv4 / IPv6 address allocation in a simulated subnet. AWS reserves the first four and the last
 * address of every subnet; what is left is `AvailableIpAddressCount`, which goes down as ENIs are
 * created and back up when they are deleted.
 */
import { Ec2Error } from './ec2-error.js';
import type { SubnetSpec } from './topology.js';

export class SubnetAddresses {
  readonly capacity: number;
  private readonly base: number;
  private next = 4;
  private readonly released: number[] = [];
  private used = 0;
  private ipv6Next = 1;

  constructor(readonly spec: SubnetSpec) {
    const [ip, bits] = spec.cidrBlock.split('/');
    const prefix = Number(bits);
    if (!/^\d+\.\d+\.\d+\.\d+$/.test(ip) || !(prefix >= 16 && prefix <= 28)) {
      throw new Error(
        `subnet ${spec.subnetId}: cidrBlock '${spec.cidrBlock}' must be an IPv4 CIDR from /16 to /28`,
      );
    }
    this.base = ip.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
    this.capacity = 2 ** (32 - prefix) - 5;
  }

  /** Free addresses left. */
  get available(): number {
    return this.capacity - this.used;
  }

  /** Takes one address; throws InsufficientFreeAddressesInSubnet when none is left. */
  allocate(): string {
    if (this.available <= 0) {
      throw new Ec2Error(
        'InsufficientFreeAddressesInSubnet',
        `There are not enough free addresses in subnet '${this.spec.subnetId}' to satisfy the requested number of instances.`,
      );
    }
    const offset = this.released.shift() ?? this.next++;
    this.used += 1;
    return toDotted(this.base + offset);
  }

  /** Gives an address back. */
  release(address: string): void {
    const offset = address.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0) - this.base;
    this.released.push(offset);
    this.used -= 1;
  }

  /** Takes `count` IPv6 addresses from the subnet's IPv6 block. */
  allocateIpv6(count: number): string[] {
    if (count === 0) return [];
    if (!this.spec.ipv6CidrBlock) {
      throw new Ec2Error('InvalidParameterValue', `Subnet '${this.spec.subnetId}' has no IPv6 CIDR block`);
    }
    const prefix = this.spec.ipv6CidrBlock.split('::')[0];
    return Array.from({ length: count }, () => `${prefix}::${(this.ipv6Next++).toString(16)}`);
  }
}

function toDotted(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}
