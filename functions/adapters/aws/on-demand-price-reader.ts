import { type PricingClient, paginateGetProducts } from '@aws-sdk/client-pricing';
import { EC2_SERVICE_CODE, onDemandFilters } from '../../core/catalog/live/pricing-endpoint.js';

/** Page size of GetProducts (its maximum). */
const PAGE_SIZE = 100;

/**
 * The Price List entries (JSON strings, format aws_v1) of the region's Linux, shared-tenancy,
 * no-software on-demand EC2 instances (GetProducts, all pages).
 */
export async function readOnDemandPriceList(client: PricingClient, region: string): Promise<string[]> {
  const list: string[] = [];
  const pages = paginateGetProducts(
    { client, pageSize: PAGE_SIZE },
    { ServiceCode: EC2_SERVICE_CODE, Filters: onDemandFilters(region), FormatVersion: 'aws_v1' },
  );
  // Each entry is JSON text (the SDK wraps it in a lazy JSON string object).
  for await (const page of pages) list.push(...(page.PriceList ?? []).map((entry: unknown) => String(entry)));
  return list;
}
