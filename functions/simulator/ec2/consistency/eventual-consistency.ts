/**
 * EC2's eventual consistency as Describe* calls see it: a just-created instance, network interface
 * or launch template, and a just-written tag, stay invisible for a delay drawn (from the seeded
 * random source, so runs repeat) between 1 ms and the modeled window. During it, describing the
 * resource by id answers the NotFound error EC2 gives, filters do not return it, and describe
 * results omit the new tag keys.
 */
import type { SeededRandom, VirtualClock } from '../../clock.js';

/** The modeled window: each create or tag write becomes visible within `windowMs` (virtual time). */
export interface EventualConsistencyOptions {
  readonly windowMs: number;
}

export class EventualConsistency {
  private readonly visibleAt = new Map<string, number>();
  private readonly tagVisibleAt = new Map<string, Map<string, number>>();

  constructor(
    private readonly clock: VirtualClock,
    private readonly random: SeededRandom,
    readonly windowMs: number,
  ) {
    if (!Number.isFinite(windowMs) || windowMs < 0) {
      throw new Error(
        `eventualConsistency.windowMs must be a non-negative number of milliseconds, got ${windowMs}`,
      );
    }
  }

  /** A resource (`i-…`, `eni-…`, `lt-…`) was just created. */
  created(id: string): void {
    this.visibleAt.set(id, this.clock.now() + this.draw());
  }

  /** Tags were just written on an existing resource. */
  tagged(id: string, keys: readonly string[]): void {
    const at = this.clock.now() + this.draw();
    const pending = this.tagVisibleAt.get(id) ?? new Map<string, number>();
    for (const key of keys) pending.set(key, at);
    this.tagVisibleAt.set(id, pending);
  }

  /** Whether Describe* sees the resource yet. */
  visible(id: string): boolean {
    const at = this.visibleAt.get(id);
    if (at === undefined) return true;
    if (this.clock.now() >= at) {
      this.visibleAt.delete(id);
      return true;
    }
    return false;
  }

  /** The tags Describe* shows: written keys still inside their delay are left out. */
  visibleTags(id: string, tags: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
    const pending = this.tagVisibleAt.get(id);
    if (!pending) return tags;
    const now = this.clock.now();
    for (const [key, at] of pending) if (now >= at) pending.delete(key);
    if (pending.size === 0) {
      this.tagVisibleAt.delete(id);
      return tags;
    }
    return Object.fromEntries(Object.entries(tags).filter(([key]) => !pending.has(key)));
  }

  private draw(): number {
    return this.windowMs < 1 ? 0 : this.random.int(1, Math.floor(this.windowMs));
  }
}

/** Whether Describe* sees a resource (always, without eventual consistency). */
export function describable(consistency: EventualConsistency | undefined, id: string): boolean {
  return consistency ? consistency.visible(id) : true;
}

/** The tags Describe* shows of a resource. */
export function describedTags(
  consistency: EventualConsistency | undefined,
  id: string,
  tags: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  return consistency ? consistency.visibleTags(id, tags) : tags;
}
