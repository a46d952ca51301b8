import type { ResolvedSubnet } from '../../core/launch/launch-context.js';
import type { SelectorTerm } from '../../core/model/node-class.js';
import { CACHE_TTLS, TtlCache } from './caches.js';
import type { Ec2Api } from './ec2-api.js';
import { selectByTerms, termFilters } from './selector-filters.js';

/** Resolves subnet selector terms to subnets with their zone and free addresses (cached). */
export class SubnetProvider {
  private readonly cache: TtlCache<ResolvedSubnet[]>;

  constructor(
    private readonly ec2: Ec2Api,
    now: () => number = Date.now,
  ) {
    this.cache = new TtlCache(CACHE_TTLS.subnetsMs, now);
  }

  /** Subnets matching any term; `what` names the field in errors (e.g. `NodeClass x subnetSelectorTerms`). */
  resolve(terms: readonly SelectorTerm[], what: string): Promise<ResolvedSubnet[]> {
    return this.cache.getOrLoad(JSON.stringify(terms), async () => {
      const subnets = await selectByTerms(
        terms,
        what,
        (term) =>
          this.ec2.describeSubnets(
            term.id ? [] : termFilters(term, 'tag:Name'),
            term.id ? [term.id] : undefined,
          ),
        (s) => s.SubnetId,
      );
      return subnets
        .filter((s) => s.SubnetId && s.AvailabilityZone)
        .map((s) => ({
          subnetId: s.SubnetId!,
          zone: s.AvailabilityZone!,
          ...(s.AvailabilityZoneId ? { zoneId: s.AvailabilityZoneId } : {}),
          availableIps: s.AvailableIpAddressCount ?? 0,
        }))
        .sort((a, b) => (a.subnetId < b.subnetId ? -1 : 1));
    });
  }

  /** Forgets cached selections (e.g. after InsufficientFreeAddressesInSubnet). */
  invalidate(): void {
    this.cache.clear();
  }
}
