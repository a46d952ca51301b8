import { describe, expect, it } from 'vitest';
import { onDemandPrices } from '../../../../../functions/core/catalog/live/on-demand-prices.js';
import {
  onDemandFilters,
  pricingRegionFor,
} from '../../../../../functions/core/catalog/live/pricing-endpoint.js';
import { latestSpotPrices } from '../../../../../functions/core/catalog/live/spot-prices.js';

/** A Price List entry (aws_v1) as GetProducts returns it: a JSON string. */
function product(instanceType: string | undefined, usd: string, unit = 'Hrs'): string {
  return JSON.stringify({
    product: { attributes: { instanceType, regionCode: 'eu-west-1', operatingSystem: 'Linux' } },
    terms: {
      OnDemand: {
        'SKU.JRTCKXETXF': {
          priceDimensions: { 'SKU.JRTCKXETXF.6YS6EN2CT7': { unit, pricePerUnit: { USD: usd } } },
        },
      },
    },
  });
}

describe('on-demand prices from GetProducts', () => {
  it('reads the hourly USD price of each instance type', () => {
    const { prices, skipped } = onDemandPrices([
      product('m5.large', '0.1070000000'),
      product('c5.large', '0.0960000000'),
    ]);
    expect(Object.fromEntries(prices)).toEqual({ 'm5.large': 0.107, 'c5.large': 0.096 });
    expect(skipped).toEqual([]);
  });

  it('skips what it cannot read, naming the entry and the reason; the lower of two prices wins', () => {
    const { prices, skipped } = onDemandPrices([
      '{not json',
      product(undefined, '1'),
      product('m5.large', '0.0000000000'),
      product('m5.xlarge', '0.2', 'Quantity'),
      product('m5.2xlarge', '0.5'),
      product('m5.2xlarge', '0.4'),
    ]);
    expect(Object.fromEntries(prices)).toEqual({ 'm5.2xlarge': 0.4 });
    expect(skipped.map((s) => s.at)).toEqual([
      'GetProducts PriceList[0]',
      'GetProducts PriceList[1]',
      'GetProducts PriceList[2] (m5.large)',
      'GetProducts PriceList[3] (m5.xlarge)',
    ]);
    expect(skipped[0].reason).toMatch(/^not JSON/);
    expect(skipped[1].reason).toBe('product.attributes.instanceType is missing');
    expect(skipped[2].reason).toBe('no positive hourly USD price in terms.OnDemand');
  });

  it('asks for Linux, shared tenancy, no software, used capacity, on-demand, by region code', () => {
    expect(onDemandFilters('ap-southeast-2').map((f) => `${f.Field}=${f.Value}`)).toEqual([
      'regionCode=ap-southeast-2',
      'operatingSystem=Linux',
      'tenancy=Shared',
      'preInstalledSw=NA',
      'capacitystatus=Used',
      'marketoption=OnDemand',
    ]);
  });

  it('calls the nearest Pricing endpoint: ap-south-1, eu-central-1, cn-northwest-1 or us-east-1', () => {
    expect(
      [
        'us-west-2',
        'ca-central-1',
        'sa-east-1',
        'eu-west-1',
        'eu-central-1',
        'ap-southeast-2',
        'cn-north-1',
        'me-south-1',
      ].map(pricingRegionFor),
    ).toEqual([
      'us-east-1',
      'us-east-1',
      'us-east-1',
      'eu-central-1',
      'eu-central-1',
      'ap-south-1',
      'cn-northwest-1',
      'us-east-1',
    ]);
  });
});

describe('spot prices from DescribeSpotPriceHistory', () => {
  const at = (iso: string) => new Date(iso);
  it('keeps the newest price per type and zone, whatever the order of the rows', () => {
    const { prices, skipped } = latestSpotPrices([
      {
        InstanceType: 'm5.large',
        AvailabilityZone: 'eu-west-1a',
        SpotPrice: '0.040000',
        Timestamp: at('2026-11-25T10:00:00Z'),
      },
      {
        InstanceType: 'm5.large',
        AvailabilityZone: 'eu-west-1a',
        SpotPrice: '0.030000',
        Timestamp: at('2026-11-25T12:00:00Z'),
      },
      {
        InstanceType: 'm5.large',
        AvailabilityZone: 'eu-west-1a',
        SpotPrice: '0.050000',
        Timestamp: at('2026-11-25T11:00:00Z'),
      },
      {
        InstanceType: 'm5.large',
        AvailabilityZone: 'eu-west-1b',
        SpotPrice: '0.041000',
        Timestamp: at('2026-11-25T09:00:00Z'),
      },
    ]);
    expect(prices).toEqual({ 'm5.large': { 'eu-west-1a': 0.03, 'eu-west-1b': 0.041 } });
    expect(skipped).toEqual([]);
  });

  it('skips rows without a type, a zone or a positive price', () => {
    const { prices, skipped } = latestSpotPrices([
      { AvailabilityZone: 'eu-west-1a', SpotPrice: '0.1' },
      { InstanceType: 'm5.large', AvailabilityZone: 'eu-west-1a', SpotPrice: 'n/a' },
      { InstanceType: 'm5.large', AvailabilityZone: 'eu-west-1a', SpotPrice: '-1' },
    ]);
    expect(prices).toEqual({});
    expect(skipped.map((s) => s.reason)).toEqual([
      'InstanceType or AvailabilityZone is missing',
      'SpotPrice "n/a" is not a positive number',
      'SpotPrice "-1" is not a positive number',
    ]);
  });
});
