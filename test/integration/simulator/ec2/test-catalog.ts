import type { Catalog, InstanceType, Offering } from '../../../../functions/core/model/instance-type.js';

const ZONES = ['us-west-2a', 'us-west-2b', 'us-west-2c'];

function offerings(onDemand: number, spot: number[]): Offering[] {
  return ZONES.flatMap((zone, i) => [
    { zone, capacityType: 'on-demand' as const, price: onDemand },
    { zone, capacityType: 'spot' as const, price: spot[i] },
  ]);
}

function type(
  name: string,
  vcpu: number,
  memoryMiB: number,
  arch: 'amd64' | 'arm64',
  od: number,
  spot: number[],
): InstanceType {
  return {
    name,
    vcpu,
    memoryMiB,
    arch,
    maxEnis: vcpu >= 8 ? 4 : 3,
    ipv4PerEni: vcpu >= 8 ? 15 : 10,
    offerings: offerings(od, spot),
  };
}

/** A small us-west-2 catalog for the EC2 simulator tests. */
export const testCatalog: Catalog = {
  region: 'us-west-2',
  source: 'test',
  instanceTypes: [
    type('m5.large', 2, 8192, 'amd64', 0.096, [0.035, 0.04, 0.038]),
    type('m5.xlarge', 4, 16384, 'amd64', 0.192, [0.07, 0.08, 0.075]),
    type('c6i.2xlarge', 8, 16384, 'amd64', 0.34, [0.13, 0.12, 0.14]),
    type('c6i.large', 2, 4096, 'amd64', 0.085, [0.03, 0.033, 0.031]),
    type('m6g.large', 2, 8192, 'arm64', 0.077, [0.028, 0.03, 0.029]),
    type('m6g.xlarge', 4, 16384, 'arm64', 0.154, [0.055, 0.06, 0.058]),
    type('r5.large', 2, 16384, 'amd64', 0.126, [0.04, 0.045, 0.042]),
  ],
};
