import {
  type EC2Client,
  type InstanceTypeOffering,
  paginateDescribeInstanceTypeOfferings,
} from '@aws-sdk/client-ec2';

/** Page size of DescribeInstanceTypeOfferings (its maximum). */
const PAGE_SIZE = 1000;

/**
 * The availability zones offering each instance type (DescribeInstanceTypeOfferings with location
 * type availability-zone, all pages).
 */
export async function readZoneOfferings(client: EC2Client): Promise<Map<string, string[]>> {
  const rows: InstanceTypeOffering[] = [];
  const pages = paginateDescribeInstanceTypeOfferings(
    { client, pageSize: PAGE_SIZE },
    { LocationType: 'availability-zone' },
  );
  for await (const page of pages) rows.push(...(page.InstanceTypeOfferings ?? []));
  const zones = new Map<string, string[]>();
  for (const row of rows) {
    if (!row.InstanceType || !row.Location) continue;
    const list = zones.get(row.InstanceType) ?? [];
    list.push(row.Location);
    zones.set(row.InstanceType, list);
  }
  return zones;
}
