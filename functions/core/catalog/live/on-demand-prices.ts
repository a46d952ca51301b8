/**
 * On-demand prices from the Pricing API: `GetProducts` returns each product as a JSON string
 * (`PriceList`, format `aws_v1`) with the product's attributes and its OnDemand terms.
 */
import type { SkippedEntry } from './api-shapes.js';

/** Hourly on-demand USD price per instance type, and the entries that could not be read. */
export interface OnDemandPrices {
  readonly prices: Map<string, number>;
  readonly skipped: SkippedEntry[];
}

interface PriceDimension {
  readonly unit?: string;
  readonly pricePerUnit?: { readonly USD?: string };
}

interface ProductDocument {
  readonly product?: { readonly attributes?: Record<string, string | undefined> };
  readonly terms?: {
    readonly OnDemand?: Record<string, { readonly priceDimensions?: Record<string, PriceDimension> }>;
  };
}

/**
 * Reads every `PriceList` entry of the GetProducts pages. An entry that is not JSON, names no
 * instance type or has no positive hourly USD price is skipped with the reason; when a type is
 * listed more than once the lowest price wins (the filters already ask for one product per type).
 */
export function onDemandPrices(priceList: readonly string[]): OnDemandPrices {
  const prices = new Map<string, number>();
  const skipped: SkippedEntry[] = [];
  priceList.forEach((text, index) => {
    const at = `GetProducts PriceList[${index}]`;
    let doc: ProductDocument;
    try {
      doc = JSON.parse(text) as ProductDocument;
    } catch (error) {
      skipped.push({ at, reason: `not JSON: ${(error as Error).message}` });
      return;
    }
    const type = doc?.product?.attributes?.instanceType;
    if (!type) {
      skipped.push({ at, reason: 'product.attributes.instanceType is missing' });
      return;
    }
    const price = hourlyUsd(doc);
    if (price === undefined) {
      skipped.push({ at: `${at} (${type})`, reason: 'no positive hourly USD price in terms.OnDemand' });
      return;
    }
    const known = prices.get(type);
    if (known === undefined || price < known) prices.set(type, price);
  });
  return { prices, skipped };
}

function hourlyUsd(doc: ProductDocument): number | undefined {
  for (const term of Object.values(doc.terms?.OnDemand ?? {})) {
    for (const dimension of Object.values(term.priceDimensions ?? {})) {
      if (dimension.unit !== undefined && dimension.unit !== 'Hrs') continue;
      const price = Number.parseFloat(dimension.pricePerUnit?.USD ?? '');
      if (Number.isFinite(price) && price > 0) return price;
    }
  }
  return undefined;
}
