import type { Catalog, InstanceType } from '../../../../functions/core/model/instance-type.js';

const zones = ['us-west-2a', 'us-west-2b', 'us-west-2c'];

function type(name: string, vcpu: number, memoryMiB: number, onDemand: number): InstanceType {
  return {
    name,
    vcpu,
    memoryMiB,
    arch: 'amd64',
    maxEnis: 3,
    ipv4PerEni: 10,
    offerings: zones.flatMap((zone) => [
      { zone, capacityType: 'on-demand' as const, price: onDemand },
      { zone, capacityType: 'spot' as const, price: onDemand / 3 },
    ]),
  };
}

/** A two-type catalog for the simulated cloud tests. */
export const smallCatalog: Catalog = {
  region: 'us-west-2',
  source: 'test fixture',
  instanceTypes: [type('m5.large', 2, 8192, 0.096), type('m5.xlarge', 4, 16384, 0.192)],
};
