/**
 * Rate limiting of the Kubernetes Events joiner writes, as Karpenter's event recorder does: the
 * same event (object, reason, message) is written once per dedupe window, and a token bucket caps
 * the rate overall, so a pod pending for an hour or a drain retrying every few seconds does not
 * flood `kubectl get events` (or the API server). Per function instance, in memory.
 */
import type { Clock } from '../../core/ports/clock.js';
import type { ClusterEvent } from '../../core/ports/cluster-api.js';

/** Limits of {@link EventLimiter}. */
export interface EventLimits {
  /** An identical event within this window is dropped. Default 2 minutes. */
  readonly dedupeMs: number;
  /** Events written at once at most. Default 100. */
  readonly burst: number;
  /** Events per second written once the burst is spent. Default 10. */
  readonly perSecond: number;
}

export const DEFAULT_EVENT_LIMITS: EventLimits = { dedupeMs: 120_000, burst: 100, perSecond: 10 };

/** Remembered events at most (oldest forgotten first). */
const MAX_REMEMBERED = 10_000;

/** Decides which events are written. */
export class EventLimiter {
  private readonly seen = new Map<string, number>();
  private tokens: number;
  private refilledAt: number;
  private dropped = 0;

  constructor(
    private readonly clock: Clock,
    private readonly limits: EventLimits = DEFAULT_EVENT_LIMITS,
  ) {
    this.tokens = limits.burst;
    this.refilledAt = clock.now();
  }

  /** The events to write now; the others are counted in {@link takeDropped}. */
  admit(events: readonly ClusterEvent[]): ClusterEvent[] {
    const now = this.clock.now();
    this.refill(now);
    const out: ClusterEvent[] = [];
    for (const event of events) {
      const o = event.involvedObject;
      const key = [o.kind, o.namespace ?? '', o.name, o.uid ?? '', event.reason, event.message].join(
        '\u0000',
      );
      const last = this.seen.get(key);
      if ((last !== undefined && now - last < this.limits.dedupeMs) || this.tokens < 1) {
        this.dropped++;
        continue;
      }
      this.tokens -= 1;
      this.seen.delete(key);
      this.seen.set(key, now);
      if (this.seen.size > MAX_REMEMBERED) this.seen.delete(this.seen.keys().next().value as string);
      out.push(event);
    }
    return out;
  }

  /** Events dropped since the last call. */
  takeDropped(): number {
    const n = this.dropped;
    this.dropped = 0;
    return n;
  }

  private refill(now: number): void {
    const elapsed = Math.max(0, now - this.refilledAt) / 1000;
    this.tokens = Math.min(this.limits.burst, this.tokens + elapsed * this.limits.perSecond);
    this.refilledAt = now;
  }
}
