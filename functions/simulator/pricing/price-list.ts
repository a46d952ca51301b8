/**
 * The simulated Price List of EC2 in one region: per instance type, the Linux / shared tenancy /
 * no pre-installed software on-demand product at the catalog's price, and the products a careless
 * query would also match (Windows, dedicated tenancy, SQL Server, unused capacity reservations)
 * at other prices, in the Price List's `aws_v1` JSON format.
 */
import type { InstanceType } from '../../core/model/instance-type.js';

/** One product: its attributes (what filters match) and its hourly USD price. */
export interface PriceListProduct {
  readonly sku: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly price: number;
}

/** Variants of each type besides the one joiner wants, with their price factor. */
const VARIANTS = [
  { operatingSystem: 'Linux', tenancy: 'Shared', preInstalledSw: 'NA', capacitystatus: 'Used', factor: 1 },
  {
    operatingSystem: 'Windows',
    tenancy: 'Shared',
    preInstalledSw: 'NA',
    capacitystatus: 'Used',
    factor: 1.84,
  },
  {
    operatingSystem: 'Linux',
    tenancy: 'Dedicated',
    preInstalledSw: 'NA',
    capacitystatus: 'Used',
    factor: 1.1,
  },
  {
    operatingSystem: 'Linux',
    tenancy: 'Shared',
    preInstalledSw: 'SQL Std',
    capacitystatus: 'Used',
    factor: 2.9,
  },
  {
    operatingSystem: 'Linux',
    tenancy: 'Shared',
    preInstalledSw: 'NA',
    capacitystatus: 'UnusedCapacityReservation',
    factor: 1.2,
  },
] as const;

/** The products of the region's instance types that have an on-demand offering. */
export function priceListProducts(region: string, types: Iterable<InstanceType>): PriceListProduct[] {
  const products: PriceListProduct[] = [];
  for (const type of types) {
    const onDemand = type.offerings.find((o) => o.capacityType === 'on-demand');
    if (!onDemand) continue;
    VARIANTS.forEach((variant, i) => {
      const { factor, ...attributes } = variant;
      products.push({
        sku: skuOf(`${region}|${type.name}|${i}`),
        price: factor === 1 ? onDemand.price : Math.round(onDemand.price * factor * 10_000) / 10_000,
        attributes: {
          servicecode: 'AmazonEC2',
          regionCode: region,
          location: `Simulated (${region})`,
          locationType: 'AWS Region',
          instanceType: type.name,
          instanceFamily: 'General purpose',
          vcpu: String(type.vcpu),
          memory: `${type.memoryMiB / 1024} GiB`,
          licenseModel: 'No License required',
          marketoption: 'OnDemand',
          usagetype: `BoxUsage:${type.name}`,
          operation: 'RunInstances',
          ...attributes,
        },
      });
    });
  }
  return products;
}

/** The `aws_v1` JSON text of a product, as one `PriceList` entry. */
export function priceListEntry(product: PriceListProduct, publicationDate: string): string {
  const term = `${product.sku}.JRTCKXETXF`;
  const rate = `${term}.6YS6EN2CT7`;
  return JSON.stringify({
    product: { productFamily: 'Compute Instance', attributes: product.attributes, sku: product.sku },
    serviceCode: 'AmazonEC2',
    terms: {
      OnDemand: {
        [term]: {
          priceDimensions: {
            [rate]: {
              unit: 'Hrs',
              endRange: 'Inf',
              description: `$${product.price} per On Demand ${product.attributes.operatingSystem} ${product.attributes.instanceType} Instance Hour`,
              appliesTo: [],
              rateCode: rate,
              beginRange: '0',
              pricePerUnit: { USD: product.price.toFixed(10) },
            },
          },
          sku: product.sku,
          effectiveDate: publicationDate,
          offerTermCode: 'JRTCKXETXF',
          termAttributes: {},
        },
      },
    },
    version: '20261101000000',
    publicationDate,
  });
}

function skuOf(seed: string): string {
  let h = 0x811c9dc5;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  let h2 = 0x12345678;
  for (const ch of seed) h2 = Math.imul(h2 ^ ch.charCodeAt(0), 2246822519) >>> 0;
  return (h.toString(36) + h2.toString(36)).toUpperCase().padEnd(16, 'X').slice(0, 16);
}
