/**
 * Writes joiner's bundled us-west-2 catalog (functions/core/catalog/data/us-west-2.json) from the
 * family facts in `families.ts`. Spot prices are a deterministic snapshot: the family's typical
 * discount below on-demand, varied a little per type and zone.
 *
 * Usage: `npx tsx bench/catalog/generate-catalog.ts [OUT.json]` (stdout without an argument).
 */
import { writeFileSync } from 'node:fs';
import type { Catalog, InstanceType, Offering } from '../../functions/core/model/instance-type.js';
import { FAMILIES, type FamilyFacts, type SizeRow } from './families.js';

const REGION = 'us-west-2';
const SOURCE =
  'Instance facts (vCPU, memory, ENIs, IPv4 per ENI, bandwidth, NVMe, GPUs, hypervisor, processor manufacturer ' +
  'and sustained all-core clock speed, network cards and EFA interfaces) from the public EC2 ' +
  'instance type documentation and the VPC CNI ENI limits; on-demand prices are the public EC2 Linux ' +
  'on-demand list prices (USD/h; us-west-2 lists the same prices as us-east-1 for these types), as of 2026-11. ' +
  'Spot prices are NOT live data: a plausible deterministic snapshot per zone (about 30-70% below ' +
  'on-demand, varying a little per zone). Zone availability follows public availability where known.';

/** FNV-1a hash of a string to a number in [0, 1). */
function unit(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b) >>> 0;
  hash ^= hash >>> 13;
  return (hash >>> 0) / 2 ** 32;
}

function round(price: number): number {
  return Math.max(0.0001, Math.round(price * 10_000) / 10_000);
}

function offerings(name: string, family: FamilyFacts, onDemand: number): Offering[] {
  return family.zones.flatMap((letter) => {
    const zone = `${REGION}${letter}`;
    const varied = family.spotDiscount + (unit(`${name}/${zone}`) - 0.5) * 0.1;
    const discount = Math.min(0.68, Math.max(0.32, varied));
    return [
      { zone, capacityType: 'on-demand' as const, price: onDemand },
      { zone, capacityType: 'spot' as const, price: round(onDemand * (1 - discount)) },
    ];
  });
}

function instanceType(family: FamilyFacts, row: SizeRow): InstanceType {
  const [size, vcpu, memoryGiB, maxEnis, ipv4PerEni, bandwidth, price, nvme, deviceCount] = row;
  const name = `${family.family}.${size}`;
  const metal = size.startsWith('metal');
  return {
    name,
    vcpu,
    memoryMiB: Math.round(memoryGiB * 1024),
    arch: family.arch,
    ...(family.gpu && deviceCount ? { gpus: { count: deviceCount, ...family.gpu } } : {}),
    ...(family.accelerator && deviceCount
      ? { accelerators: { count: deviceCount, ...family.accelerator } }
      : {}),
    maxEnis,
    ipv4PerEni,
    networkCards: family.networkCards?.[size] ?? 1,
    ...(family.efa?.[size] ? { maxEfaInterfaces: family.efa[size] } : {}),
    localNvmeGiB: nvme ?? 0,
    ...(bandwidth > 0 ? { networkBandwidthMbps: bandwidth } : {}),
    hypervisor: metal ? '' : family.hypervisor,
    encryptionInTransit: family.encryptionInTransit,
    cpuManufacturer: family.cpu[0],
    sustainedClockSpeedMhz: family.clock?.[size] ?? family.cpu[1],
    offerings: offerings(name, family, price),
  };
}

const catalog: Catalog = {
  region: REGION,
  source: SOURCE,
  instanceTypes: FAMILIES.flatMap((f) => f.sizes.map((row) => instanceType(f, row))).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  ),
};
const json = `${JSON.stringify(catalog, null, 1)}\n`;
const out = process.argv[2];
if (out) writeFileSync(out, json);
else process.stdout.write(json);
