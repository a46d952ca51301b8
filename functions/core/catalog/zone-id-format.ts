/**
 * The form of an availability zone ID (`topology.k8s.aws/zone-id`): the region's short code and
 * the zone's number, `usw2-az1` in `us-west-2`, `euc1-az3` in `eu-central-1`. Which zone name an ID
 * is depends on the account (its subnets say it); the form does not.
 */

const DIRECTIONS: Readonly<Record<string, string>> = {
  north: 'n',
  south: 's',
  east: 'e',
  west: 'w',
  central: 'c',
  northeast: 'ne',
  southeast: 'se',
  northwest: 'nw',
  southwest: 'sw',
};

/** The zone-ID prefix of a region (`us-west-2` → `usw2`). */
export function zoneIdPrefix(region: string): string {
  const [geo, direction, number] = region.split('-');
  return `${geo}${DIRECTIONS[direction] ?? direction?.[0] ?? ''}${number ?? ''}`;
}

/** Whether `value` has the form of an availability zone ID of `region`. */
export function isZoneIdOf(region: string, value: string): boolean {
  return new RegExp(`^${zoneIdPrefix(region)}-az[0-9]+$`).test(value);
}
