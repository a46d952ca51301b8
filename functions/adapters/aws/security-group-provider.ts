import type { SelectorTerm } from '../../core/model/node-class.js';
import { CACHE_TTLS, TtlCache } from './caches.js';
import type { Ec2Api } from './ec2-api.js';
import { selectByTerms, termFilters } from './selector-filters.js';

/** Resolves security group selector terms (ids, names, tags) to sorted group ids (cached). */
export class SecurityGroupProvider {
  private readonly cache: TtlCache<string[]>;

  constructor(
    private readonly ec2: Ec2Api,
    now: () => number = Date.now,
  ) {
    this.cache = new TtlCache(CACHE_TTLS.securityGroupsMs, now);
  }

  resolve(terms: readonly SelectorTerm[], what: string): Promise<string[]> {
    return this.cache.getOrLoad(JSON.stringify(terms), async () => {
      const groups = await selectByTerms(
        terms,
        what,
        (term) =>
          this.ec2.describeSecurityGroups(
            term.id ? [] : termFilters(term, 'group-name'),
            term.id ? [term.id] : undefined,
          ),
        (g) => g.GroupId,
      );
      return groups.map((g) => g.GroupId!).sort();
    });
  }
}
