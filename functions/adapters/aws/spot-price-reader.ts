import { type EC2Client, paginateDescribeSpotPriceHistory, type SpotPrice } from '@aws-sdk/client-ec2';

/** Page size of DescribeSpotPriceHistory (its maximum). */
const PAGE_SIZE = 1000;

/** The Linux product descriptions (EC2-Classic and VPC spellings). */
const LINUX = ['Linux/UNIX', 'Linux/UNIX (Amazon VPC)'];

/**
 * The Linux spot prices in effect at `now` for every instance type and zone
 * (DescribeSpotPriceHistory with StartTime = now: the price in effect then, per type and zone;
 * all pages).
 */
export async function readSpotPrices(client: EC2Client, now: Date): Promise<SpotPrice[]> {
  const rows: SpotPrice[] = [];
  const pages = paginateDescribeSpotPriceHistory(
    { client, pageSize: PAGE_SIZE },
    { ProductDescriptions: LINUX, StartTime: now },
  );
  for await (const page of pages) rows.push(...(page.SpotPriceHistory ?? []));
  return rows;
}
