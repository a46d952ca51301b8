/** The latest spot price per instance type and zone, from DescribeSpotPriceHistory rows. */
import type { SkippedEntry, SpotPriceShape } from './api-shapes.js';

/** Hourly USD spot price by instance type, then zone. */
export type SpotPriceTable = Record<string, Record<string, number>>;

/** What {@link latestSpotPrices} made of the history. */
export interface SpotPriceConversion {
  readonly prices: SpotPriceTable;
  readonly skipped: SkippedEntry[];
}

/**
 * Keeps, per (instance type, zone), the row with the newest timestamp (the history lists the
 * price in effect at the start time and every change after it, in no promised order). Rows with
 * no type, zone or a price that is not a positive number are skipped with the reason.
 */
export function latestSpotPrices(rows: readonly SpotPriceShape[]): SpotPriceConversion {
  const latest = new Map<string, { at: number; price: number; type: string; zone: string }>();
  const skipped: SkippedEntry[] = [];
  rows.forEach((row, index) => {
    const at = `DescribeSpotPriceHistory SpotPriceHistory[${index}]`;
    if (!row.InstanceType || !row.AvailabilityZone) {
      skipped.push({ at, reason: 'InstanceType or AvailabilityZone is missing' });
      return;
    }
    const price = Number.parseFloat(row.SpotPrice ?? '');
    if (!Number.isFinite(price) || price <= 0) {
      skipped.push({ at, reason: `SpotPrice ${JSON.stringify(row.SpotPrice)} is not a positive number` });
      return;
    }
    const time = row.Timestamp ? new Date(row.Timestamp).getTime() : 0;
    const key = `${row.InstanceType}|${row.AvailabilityZone}`;
    const known = latest.get(key);
    if (!known || time >= known.at) {
      latest.set(key, { at: time, price, type: row.InstanceType, zone: row.AvailabilityZone });
    }
  });
  const prices: SpotPriceTable = {};
  for (const { type, zone, price } of latest.values()) {
    prices[type] ??= {};
    prices[type][zone] = price;
  }
  return { prices, skipped };
}
