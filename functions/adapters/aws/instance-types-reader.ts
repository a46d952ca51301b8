import { type EC2Client, type InstanceTypeInfo, paginateDescribeInstanceTypes } from '@aws-sdk/client-ec2';

/** Page size of DescribeInstanceTypes (its maximum). */
const PAGE_SIZE = 100;

/** Every instance type of the region (DescribeInstanceTypes, all pages, `NextToken` paging). */
export async function readInstanceTypes(client: EC2Client): Promise<InstanceTypeInfo[]> {
  const all: InstanceTypeInfo[] = [];
  for await (const page of paginateDescribeInstanceTypes({ client, pageSize: PAGE_SIZE }, {})) {
    all.push(...(page.InstanceTypes ?? []));
  }
  return all;
}
