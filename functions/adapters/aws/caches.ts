/**
 * Every cache of the AWS adapters and its time-to-live, in one place. Lambda containers live for
 * minutes, so these bound how stale a resolution can be.
 */
export const CACHE_TTLS = {
  /** Subnet selection and free-address counts. */
  subnetsMs: 60_000,
  securityGroupsMs: 5 * 60_000,
  /** AMI resolution (DescribeImages, public SSM parameters). */
  amisMs: 5 * 60_000,
  /** Launch templates known to exist (names are content hashes, so entries never go wrong). */
  launchTemplatesMs: 30 * 60_000,
  /** Instance profiles joiner ensured for NodeClass roles (role and tags as last set). */
  instanceProfilesMs: 5 * 60_000,
} as const;

/** A map whose entries expire `ttlMs` after they were set, on an injectable clock. */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V): void {
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** The cached value, or the loaded one (concurrent loads of one key share the promise). */
  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const promise = load().then(
      (value) => {
        this.set(key, value);
        this.loading.delete(key);
        return value;
      },
      (error) => {
        this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, promise);
    return promise;
  }

  private readonly loading = new Map<string, Promise<V>>();
}
