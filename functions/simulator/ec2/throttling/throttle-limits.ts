/**
 * EC2's documented API throttling limits ("Request throttling for the Amazon EC2 API"), per
 * account and Region:
 *
 * - **request rate limiting**: every action has a token bucket of its own; a request takes one
 *   token. The bucket's size and refill rate come from the action's category — non-mutating
 *   (`Describe*`, `List*`, `Search*`, `Get*`: 100 tokens, 20 a second), a few non-mutating actions
 *   called without a filter or pagination (50, 10), mutating (50, 5), resource-intensive (50, 5) —
 *   or from the action's own entry (the "uncategorized" actions, e.g. `CreateTags` 100, 10);
 * - **resource rate limiting**: `RunInstances`, `TerminateInstances`, `StartInstances` and
 *   `StopInstances` also have a bucket that a request drains by the number of instances it acts
 *   on (1000 tokens; 2 a second for launches and starts, 20 for terminations and stops).
 *
 * `CreateFleet` is a mutating action (the documentation lists no entry of its own and no resource
 * bucket for it); a scenario may give it one (see {@link Ec2ThrottlingConfig}).
 */

/** A token bucket's limits: the tokens it holds at most and the tokens it gains per second. */
export interface BucketLimit {
  readonly capacity: number;
  readonly refillPerSecond: number;
}

/** The request categories of EC2's throttling documentation (the console's one is not modeled). */
export const REQUEST_CATEGORIES = [
  'non-mutating',
  'unfiltered-non-mutating',
  'mutating',
  'resource-intensive',
] as const;
export type RequestCategory = (typeof REQUEST_CATEGORIES)[number];

/** Each category's default bucket. */
export const CATEGORY_LIMITS: Readonly<Record<RequestCategory, BucketLimit>> = {
  'non-mutating': { capacity: 100, refillPerSecond: 20 },
  'unfiltered-non-mutating': { capacity: 50, refillPerSecond: 10 },
  mutating: { capacity: 50, refillPerSecond: 5 },
  'resource-intensive': { capacity: 50, refillPerSecond: 5 },
};

/** Non-mutating actions that use the smaller bucket when called with neither a filter nor pagination. */
export const UNFILTERED_SUBSET: ReadonlySet<string> = new Set([
  'DescribeInstances',
  'DescribeInstanceStatus',
  'DescribeNetworkInterfaces',
  'DescribeSecurityGroups',
  'DescribeSnapshots',
  'DescribeSpotInstanceRequests',
  'DescribeVolumes',
]);

/** The resource-intensive mutating actions. */
export const RESOURCE_INTENSIVE: ReadonlySet<string> = new Set([
  'AcceptVpcPeeringConnection',
  'AuthorizeSecurityGroupIngress',
  'CancelSpotInstanceRequests',
  'CreateKeyPair',
  'CreateVpcPeeringConnection',
  'DeleteVpcPeeringConnection',
  'RejectVpcPeeringConnection',
  'RevokeSecurityGroupIngress',
  'RequestSpotInstances',
]);

const limit = (capacity: number, refillPerSecond: number): BucketLimit => ({ capacity, refillPerSecond });

/**
 * The request buckets of "uncategorized" actions that a node autoscaler calls (the documentation
 * lists many more: VPC endpoints, BYOIP, Verified Access... that nothing here calls).
 */
export const UNCATEGORIZED_LIMITS: Readonly<Record<string, BucketLimit>> = {
  AssignIpv6Addresses: limit(100, 5),
  AssignPrivateIpAddresses: limit(100, 5),
  AssociateIamInstanceProfile: limit(100, 5),
  CreateLaunchTemplateVersion: limit(100, 5),
  CreateNetworkInterface: limit(100, 5),
  CreateSnapshot: limit(100, 5),
  CreateTags: limit(100, 10),
  CreateVolume: limit(100, 5),
  DeleteNetworkInterface: limit(100, 5),
  DeleteSnapshot: limit(100, 5),
  DeleteTags: limit(100, 10),
  DeleteVolume: limit(100, 5),
  DeregisterImage: limit(100, 5),
  DescribeSpotFleetInstances: limit(100, 5),
  DescribeSpotFleetRequests: limit(50, 3),
  DisassociateIamInstanceProfile: limit(100, 5),
  ModifyImageAttribute: limit(100, 5),
  ModifyInstanceMetadataOptions: limit(100, 5),
  ModifyLaunchTemplate: limit(100, 5),
  ModifyNetworkInterfaceAttribute: limit(100, 5),
  RunInstances: limit(5, 2),
  StartInstances: limit(5, 2),
  TerminateInstances: limit(100, 5),
  UnassignPrivateIpAddresses: limit(100, 5),
};

/** The resource buckets: tokens are instances launched, started, terminated or stopped. */
export const RESOURCE_LIMITS: Readonly<Record<string, BucketLimit>> = {
  RunInstances: limit(1000, 2),
  TerminateInstances: limit(1000, 20),
  StartInstances: limit(1000, 2),
  StopInstances: limit(1000, 20),
};

/** Whether an action only reads (its category is non-mutating). */
export function isNonMutating(action: string): boolean {
  return /^(Describe|List|Search|Get)[A-Z]/.test(action);
}

/** The category of a request by its action and whether it names a filter or pagination. */
export function categoryOf(action: string, filteredOrPaginated: boolean): RequestCategory {
  if (isNonMutating(action))
    return UNFILTERED_SUBSET.has(action) && !filteredOrPaginated ? 'unfiltered-non-mutating' : 'non-mutating';
  return RESOURCE_INTENSIVE.has(action) ? 'resource-intensive' : 'mutating';
}

/**
 * How a scenario changes the limits (e.g. a tiny bucket for a test, or an account's raised limits):
 * per category, per action's request bucket, per action's resource bucket.
 */
export interface Ec2ThrottlingConfig {
  /** False: no throttling at all. Default true. */
  readonly enabled?: boolean;
  readonly categories?: Partial<Record<RequestCategory, BucketLimit>>;
  /** An action's own request bucket (it replaces the category's and the documented one). */
  readonly actions?: Readonly<Record<string, BucketLimit>>;
  /** An action's resource bucket, drained by the instances it acts on (e.g. `CreateFleet`). */
  readonly resources?: Readonly<Record<string, BucketLimit>>;
}

/** Checks a throttling configuration; throws an error naming the bad field. */
export function validateThrottlingConfig(config: Ec2ThrottlingConfig, where = 'ec2 throttling'): void {
  for (const name of Object.keys(config.categories ?? {})) {
    if (!(REQUEST_CATEGORIES as readonly string[]).includes(name))
      throw new Error(
        `${where}: categories.${name} is not a category (use ${REQUEST_CATEGORIES.join(', ')})`,
      );
  }
  const check = (field: string, entries: Readonly<Record<string, BucketLimit | undefined>> | undefined) => {
    for (const [name, value] of Object.entries(entries ?? {})) {
      if (field !== 'categories' && !/^[A-Z][A-Za-z0-9]+$/.test(name))
        throw new Error(`${where}: ${field}.${name} is not an EC2 action name (e.g. CreateFleet)`);
      if (!value || !(value.capacity >= 1) || !Number.isFinite(value.capacity))
        throw new Error(`${where}: ${field}.${name}.capacity must be a number >= 1`);
      if (!(value.refillPerSecond > 0) || !Number.isFinite(value.refillPerSecond))
        throw new Error(`${where}: ${field}.${name}.refillPerSecond must be a number > 0`);
    }
  };
  check('categories', config.categories);
  check('actions', config.actions);
  check('resources', config.resources);
}
