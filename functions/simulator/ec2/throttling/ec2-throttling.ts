/**
 * EC2's API throttling in the simulated EC2: a request bucket per account, Region and action, and
 * a resource bucket for the actions that have one (see throttle-limits.ts), on the virtual clock.
 * A request that finds a bucket short is refused as EC2 refuses it — `RequestLimitExceeded`,
 * HTTP 503 — and takes no token from any bucket; the refusals are counted per action.
 */
import type { QueryParams } from '../query.js';
import {
  type BucketLimit,
  CATEGORY_LIMITS,
  categoryOf,
  type Ec2ThrottlingConfig,
  RESOURCE_LIMITS,
  UNCATEGORIZED_LIMITS,
  validateThrottlingConfig,
} from './throttle-limits.js';
import { TokenBucket } from './token-bucket.js';

/** Why a request was refused: the bucket that was short. */
export interface Throttled {
  readonly bucket: string;
  readonly needed: number;
  readonly available: number;
}

export class Ec2Throttling {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly refused = new Map<string, number>();

  /**
   * `running` says whether the simulation's clock runs by itself: with `enabled` unset, requests
   * are throttled only then (a test that moves time by hand would otherwise see buckets that never
   * refill); `enabled: true` throttles always, `false` never.
   */
  constructor(
    private readonly region: string,
    private readonly now: () => number,
    private readonly config: Ec2ThrottlingConfig = {},
    private readonly running: () => boolean = () => true,
  ) {
    validateThrottlingConfig(config);
  }

  /** Whether requests are throttled now. */
  get active(): boolean {
    return this.config.enabled ?? this.running();
  }

  /** The request bucket's limits of `action` (with or without a filter or pagination). */
  requestLimit(action: string, filteredOrPaginated = true): BucketLimit {
    const own = this.config.actions?.[action] ?? UNCATEGORIZED_LIMITS[action];
    if (own) return own;
    const category = categoryOf(action, filteredOrPaginated);
    return this.config.categories?.[category] ?? CATEGORY_LIMITS[category];
  }

  /** The resource bucket's limits of `action`, if it has one. */
  resourceLimit(action: string): BucketLimit | undefined {
    return this.config.resources?.[action] ?? RESOURCE_LIMITS[action];
  }

  /**
   * Admits one request of `action` from `account` (taking its tokens), or says which bucket was
   * short (taking none).
   */
  admit(account: string, action: string, params: QueryParams): Throttled | undefined {
    if (!this.active) return undefined;
    const now = this.now();
    const filtered = params.has('Filter') || params.has('MaxResults') || params.has('NextToken');
    const own = this.config.actions?.[action] ?? UNCATEGORIZED_LIMITS[action];
    const category = categoryOf(action, filtered);
    const limit = own ?? this.config.categories?.[category] ?? CATEGORY_LIMITS[category];
    // The unfiltered calls of an action draw from a bucket of their own.
    const unfiltered = !own && category === 'unfiltered-non-mutating' ? '/unfiltered' : '';
    const requestKey = `${account}/${this.region}/request/${action}${unfiltered}`;
    const request = this.bucket(requestKey, limit, now);
    const resourceLimit = this.resourceLimit(action);
    const count = resourceLimit ? resourceCount(action, params) : 0;
    const resource =
      resourceLimit && this.bucket(`${account}/${this.region}/resource/${action}`, resourceLimit, now);
    const short = !request.has(1, now)
      ? { bucket: requestKey, needed: 1, available: request.level(now) }
      : resource && !resource.has(count, now)
        ? {
            bucket: `${account}/${this.region}/resource/${action}`,
            needed: count,
            available: resource.level(now),
          }
        : undefined;
    if (short) {
      this.refused.set(action, (this.refused.get(action) ?? 0) + 1);
      return short;
    }
    request.take(1, now);
    resource?.take(count, now);
    return undefined;
  }

  /** Requests refused so far, per action. */
  throttledCalls(): ReadonlyMap<string, number> {
    return this.refused;
  }

  /** Tokens in a bucket now (a key from {@link Throttled.bucket}); undefined before its first use. */
  level(bucket: string): number | undefined {
    return this.buckets.get(bucket)?.level(this.now());
  }

  private bucket(key: string, limit: BucketLimit, now: number): TokenBucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket(limit, now);
      this.buckets.set(key, bucket);
    }
    return bucket;
  }
}

/** The instances a request acts on (what its resource bucket is drained by); at least 1. */
export function resourceCount(action: string, params: QueryParams): number {
  try {
    switch (action) {
      case 'RunInstances':
        return Math.max(1, params.int('MaxCount') ?? params.int('MinCount') ?? 1);
      case 'TerminateInstances':
      case 'StartInstances':
      case 'StopInstances':
        return Math.max(1, params.strings('InstanceId').length);
      case 'CreateFleet':
        return Math.max(1, params.child('TargetCapacitySpecification')?.int('TotalTargetCapacity') ?? 1);
      default:
        return 1;
    }
  } catch {
    // A malformed count is the action's to refuse, with its own error.
    return 1;
  }
}
