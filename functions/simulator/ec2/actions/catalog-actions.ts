/**
 * Instance types, their offerings, zones and spot prices, all from the catalog the simulator was
 * started with.
 */
import type { InstanceType } from '../../../core/model/instance-type.js';
import { Ec2Error } from '../ec2-error.js';
import { checkFilterNames, matchesFilters, parseFilters } from '../filters.js';
import { ec2Architecture, instanceTypeXml } from '../instance-type-xml.js';
import { paginate } from '../pagination.js';
import type { Ec2Action } from './action.js';

const TYPE_FILTERS = [
  'instance-type',
  'processor-info.supported-architecture',
  'vcpu-info.default-vcpus',
  'memory-info.size-in-mib',
  'current-generation',
  'bare-metal',
  'hypervisor',
  'supported-usage-class',
  'instance-storage-supported',
  'burstable-performance-supported',
  'network-info.maximum-network-interfaces',
  'network-info.efa-supported',
  'network-info.efa-info.maximum-efa-interfaces',
];

function typeFields(type: InstanceType): Record<string, (string | number | boolean)[]> {
  return {
    'instance-type': [type.name],
    'processor-info.supported-architecture': [ec2Architecture(type.arch)],
    'vcpu-info.default-vcpus': [type.vcpu],
    'memory-info.size-in-mib': [type.memoryMiB],
    'current-generation': [true],
    'bare-metal': [type.name.includes('.metal')],
    hypervisor: [type.hypervisor ?? 'nitro'],
    'supported-usage-class': [...new Set(type.offerings.map((o) => o.capacityType))],
    'instance-storage-supported': [(type.localNvmeGiB ?? 0) > 0],
    'burstable-performance-supported': [/^t\d/.test(type.name)],
    'network-info.maximum-network-interfaces': [type.maxEnis],
    'network-info.efa-supported': [(type.maxEfaInterfaces ?? 0) > 0],
    'network-info.efa-info.maximum-efa-interfaces': type.maxEfaInterfaces ? [type.maxEfaInterfaces] : [],
  };
}

export const describeInstanceTypes: Ec2Action = (ctx, params) => {
  const filters = parseFilters(params);
  checkFilterNames(filters, TYPE_FILTERS, 'DescribeInstanceTypes');
  const names = params.strings('InstanceType');
  for (const name of names) {
    if (!ctx.state.instanceTypes.has(name)) {
      throw new Ec2Error(
        'InvalidInstanceType',
        `The following supplied instance types do not exist: [${name}]`,
      );
    }
  }
  const types = [...ctx.state.instanceTypes.values()]
    .filter((t) => names.length === 0 || names.includes(t.name))
    .filter((t) => matchesFilters(filters, typeFields(t)))
    .sort((a, b) => a.name.localeCompare(b.name));
  const page = paginate(types, params, 'DescribeInstanceTypes', { min: 5, max: 100 });
  return { instanceTypeSet: page.items.map(instanceTypeXml), nextToken: page.nextToken };
};

export const describeInstanceTypeOfferings: Ec2Action = (ctx, params) => {
  const locationType = params.str('LocationType') ?? 'region';
  if (!['region', 'availability-zone', 'availability-zone-id'].includes(locationType)) {
    throw new Ec2Error(
      'InvalidParameterValue',
      `LocationType '${locationType}' must be region, availability-zone or availability-zone-id`,
    );
  }
  const filters = parseFilters(params);
  checkFilterNames(filters, ['instance-type', 'location'], 'DescribeInstanceTypeOfferings');
  const rows: { instanceType: string; locationType: string; location: string }[] = [];
  for (const type of [...ctx.state.instanceTypes.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    const locations = new Set(
      type.offerings.map((o) =>
        locationType === 'region'
          ? ctx.region
          : locationType === 'availability-zone'
            ? o.zone
            : (ctx.state.zoneId(o.zone) ?? o.zone),
      ),
    );
    for (const location of [...locations].sort()) {
      if (matchesFilters(filters, { 'instance-type': [type.name], location: [location] })) {
        rows.push({ instanceType: type.name, locationType, location });
      }
    }
  }
  const page = paginate(rows, params, 'DescribeInstanceTypeOfferings', { min: 5, max: 1000 });
  return { instanceTypeOfferingSet: page.items, nextToken: page.nextToken };
};

export const describeAvailabilityZones: Ec2Action = (ctx, params) => {
  const filters = parseFilters(params);
  checkFilterNames(
    filters,
    ['zone-name', 'zone-id', 'state', 'region-name', 'zone-type'],
    'DescribeAvailabilityZones',
  );
  const names = params.strings('ZoneName');
  const ids = params.strings('ZoneId');
  const zones = ctx.state.topology.zones.filter(
    (z) =>
      (names.length === 0 || names.includes(z.zoneName)) &&
      (ids.length === 0 || ids.includes(z.zoneId)) &&
      matchesFilters(filters, {
        'zone-name': [z.zoneName],
        'zone-id': [z.zoneId],
        state: ['available'],
        'region-name': [ctx.region],
        'zone-type': ['availability-zone'],
      }),
  );
  return {
    availabilityZoneInfo: zones.map((z) => ({
      zoneName: z.zoneName,
      zoneId: z.zoneId,
      zoneState: 'available',
      regionName: ctx.region,
      groupName: ctx.region,
      networkBorderGroup: ctx.region,
      optInStatus: 'opt-in-not-required',
      zoneType: 'availability-zone',
      messageSet: [],
    })),
  };
};

export const describeSpotPriceHistory: Ec2Action = (ctx, params) => {
  const filters = parseFilters(params);
  checkFilterNames(
    filters,
    ['instance-type', 'availability-zone', 'product-description', 'spot-price'],
    'DescribeSpotPriceHistory',
  );
  const types = params.strings('InstanceType');
  const zone = params.str('AvailabilityZone');
  const products = params.strings('ProductDescription');
  const product = 'Linux/UNIX';
  if (products.length > 0 && !products.some((p) => p === product || p === 'Linux/UNIX (Amazon VPC)')) {
    return { spotPriceHistorySet: [] };
  }
  const start = timeParam(params.str('StartTime'), 'StartTime');
  const end = timeParam(params.str('EndTime'), 'EndTime') ?? ctx.clock.now();
  const rows = [...ctx.state.instanceTypes.values()]
    .filter((t) => types.length === 0 || types.includes(t.name))
    .flatMap((t) =>
      t.offerings
        .filter((o) => o.capacityType === 'spot' && (!zone || o.zone === zone))
        .flatMap((o) =>
          (
            ctx.state.market?.history(t.name, o.zone, o.price, start) ?? [
              { at: ctx.clock.now() - 3600_000, price: o.price },
            ]
          )
            .filter((point) => point.at <= end)
            .reverse()
            .map((point) => ({
              instanceType: t.name,
              productDescription: product,
              spotPrice: point.price.toFixed(6),
              timestamp: new Date(point.at).toISOString(),
              availabilityZone: o.zone,
              availabilityZoneId: ctx.state.zoneId(o.zone),
            })),
        ),
    )
    .filter((row) =>
      matchesFilters(filters, {
        'instance-type': [row.instanceType],
        'availability-zone': [row.availabilityZone],
        'product-description': [product],
        'spot-price': [row.spotPrice],
      }),
    );
  const page = paginate(rows, params, 'DescribeSpotPriceHistory', { min: 1, max: 1000 });
  return { spotPriceHistorySet: page.items, nextToken: page.nextToken };
};

/** A StartTime / EndTime parameter (ISO 8601) in epoch ms. */
function timeParam(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new Ec2Error('InvalidParameterValue', `Invalid value '${value}' for ${name}`);
  return ms;
}
