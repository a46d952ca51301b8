/**
 * How joiner's AWS clients retry: the SDK's standard retry mode — which errors it retries
 * (throttling such as EC2's `RequestLimitExceeded`, transient 5xx and network errors), its
 * attempts, and the client's retry quota (a throttled retry costs 5 of 500 tokens, a success gives
 * them back) — with its exponential backoff and full jitter (throttling from a 1 s base, others
 * from 50 ms, at most 20 s) waited by a `sleep` joiner passes, its jitter drawn from a `random`
 * joiner passes. A Lambda function waits on the wall clock with `Math.random`'s jitter; the
 * simulated cloud's functions wait on its virtual clock, so that a throttled call is retried after
 * the virtual time EC2's token bucket needs to refill, whatever the host's speed, with a jitter
 * drawn from the run's seed, so that it is retried at the same virtual instant on every run.
 */
import { MAXIMUM_RETRY_DELAY, Retry, StandardRetryStrategy } from '@smithy/core/retry';
import type {
  RetryErrorInfo,
  RetryErrorType,
  RetryStrategyV2,
  StandardRetryBackoffStrategy,
  StandardRetryToken,
} from '@smithy/types';

/** Waits `ms` milliseconds. */
export type RetrySleep = (ms: number) => Promise<void>;

/** The wall clock's wait (a Lambda function's). */
export const wallRetrySleep: RetrySleep = (ms) =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

/** The SDK strategy waits nothing itself: the wait is this module's. */
const NO_WAIT: StandardRetryBackoffStrategy = {
  computeNextBackoffDelay: () => 0,
  setDelayBase: () => undefined,
};

/** The SDK's standard retry mode, its backoff waited with `sleep`. */
export class SleepingRetryStrategy implements RetryStrategyV2 {
  readonly mode = 'standard';
  private readonly standard: StandardRetryStrategy;

  constructor(
    maxAttempts: number,
    private readonly sleep: RetrySleep = wallRetrySleep,
    private readonly random: () => number = Math.random,
  ) {
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
      throw new Error(`AWS client maxAttempts must be an integer >= 1, got ${maxAttempts}`);
    this.standard = new StandardRetryStrategy({ maxAttempts, backoff: NO_WAIT });
  }

  acquireInitialRetryToken(retryTokenScope: string): Promise<StandardRetryToken> {
    return this.standard.acquireInitialRetryToken(retryTokenScope);
  }

  /** Throws (the SDK then rethrows the call's error) when the error is not retried or the quota is spent. */
  async refreshRetryTokenForRetry(
    token: StandardRetryToken,
    errorInfo: RetryErrorInfo,
  ): Promise<StandardRetryToken> {
    const next = await this.standard.refreshRetryTokenForRetry(token, errorInfo);
    await this.sleep(backoffMs(errorInfo.errorType, token.getRetryCount(), this.random()));
    return next;
  }

  recordSuccess(token: StandardRetryToken): void {
    this.standard.recordSuccess(token);
  }

  /** The retry quota left (the SDK's). */
  capacity(): number {
    return this.standard.getCapacity();
  }
}

/** The SDK's backoff before retry number `retryCount + 1`: full jitter over an exponential ceiling. */
export function backoffMs(errorType: RetryErrorType, retryCount: number, draw: number): number {
  const base = errorType === 'THROTTLING' ? Retry.throttlingDelay() : Retry.delay();
  return Math.floor(draw * Math.min(base * 2 ** retryCount, MAXIMUM_RETRY_DELAY));
}
