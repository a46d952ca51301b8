/**
 * A token bucket on the virtual clock: it starts full, gains `refillPerSecond` tokens a second
 * (fractions accrue, so a 0.1-a-second bucket gains a token every 10 s) up to its capacity, and a
 * request takes its tokens only when all of them are there.
 */
import type { BucketLimit } from './throttle-limits.js';

export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    readonly limit: BucketLimit,
    now: number,
  ) {
    this.tokens = limit.capacity;
    this.at = now;
  }

  /** Tokens in the bucket at `now` (epoch ms). */
  level(now: number): number {
    this.refill(now);
    return this.tokens;
  }

  /** Whether `count` tokens are there at `now`. */
  has(count: number, now: number): boolean {
    return this.level(now) >= count - 1e-9;
  }

  /** Takes `count` tokens (call {@link has} first). */
  take(count: number, now: number): void {
    this.refill(now);
    this.tokens = Math.max(0, this.tokens - count);
  }

  /** Milliseconds from `now` until `count` tokens are there (0 when they are). */
  waitMs(count: number, now: number): number {
    const missing = Math.min(count, this.limit.capacity) - this.level(now);
    return missing <= 0 ? 0 : Math.ceil((missing / this.limit.refillPerSecond) * 1000);
  }

  private refill(now: number): void {
    if (now <= this.at) return;
    const gained = ((now - this.at) / 1000) * this.limit.refillPerSecond;
    this.tokens = Math.min(this.limit.capacity, this.tokens + gained);
    this.at = now;
  }
}
