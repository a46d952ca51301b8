import { DescribeAvailabilityZonesCommand, type EC2Client } from '@aws-sdk/client-ec2';
import type { SnapshotZone } from '../../core/catalog/live/catalog-snapshot.js';

/**
 * The region's availability zones with their zone ids (DescribeAvailabilityZones; Local and
 * Wavelength Zones left out, as joiner plans only in availability zones).
 */
export async function readAvailabilityZones(client: EC2Client): Promise<SnapshotZone[]> {
  const out = await client.send(
    new DescribeAvailabilityZonesCommand({ Filters: [{ Name: 'zone-type', Values: ['availability-zone'] }] }),
  );
  return (out.AvailabilityZones ?? [])
    .filter((z) => z.ZoneName && z.ZoneId && (z.ZoneType ?? 'availability-zone') === 'availability-zone')
    .map((z) => ({ name: z.ZoneName as string, id: z.ZoneId as string }));
}
