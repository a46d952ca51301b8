/**
 * Where the Pricing API answers for a region, and the GetProducts filters of joiner's on-demand
 * prices.
 *
 * The AWS Price List Query API has endpoints in us-east-1, eu-central-1 and ap-south-1 only
 * (cn-northwest-1 for the China partition); each of them serves the prices of every region of
 * its partition. joiner calls the nearest one, the rule Karpenter uses: `ap-*` regions call
 * ap-south-1, `eu-*` regions eu-central-1, `cn-*` regions cn-northwest-1, all others us-east-1.
 */

/** The region whose Pricing endpoint serves `region`'s prices. */
export function pricingRegionFor(region: string): string {
  if (region.startsWith('cn-')) return 'cn-northwest-1';
  if (region.startsWith('ap-')) return 'ap-south-1';
  if (region.startsWith('eu-')) return 'eu-central-1';
  return 'us-east-1';
}

/** A GetProducts filter (`TERM_MATCH` on one product attribute). */
export interface PricingFilter {
  readonly Type: 'TERM_MATCH';
  readonly Field: string;
  readonly Value: string;
}

/** The service code of EC2 in the Price List. */
export const EC2_SERVICE_CODE = 'AmazonEC2';

/**
 * The filters of the on-demand prices joiner plans with: the region (its code, e.g. `eu-west-1`),
 * Linux, shared tenancy, no pre-installed software, capacity status `Used` (the price of a running
 * instance, not of a reservation) and the on-demand market.
 */
export function onDemandFilters(region: string): PricingFilter[] {
  const match = (Field: string, Value: string): PricingFilter => ({ Type: 'TERM_MATCH', Field, Value });
  return [
    match('regionCode', region),
    match('operatingSystem', 'Linux'),
    match('tenancy', 'Shared'),
    match('preInstalledSw', 'NA'),
    match('capacitystatus', 'Used'),
    match('marketoption', 'OnDemand'),
  ];
}
