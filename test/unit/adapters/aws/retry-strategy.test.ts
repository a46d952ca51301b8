import type { RetryErrorInfo } from '@smithy/types';
import { describe, expect, it } from 'vitest';
import { createEc2Client } from '../../../../functions/adapters/aws/clients.js';
import { backoffMs, SleepingRetryStrategy } from '../../../../functions/adapters/aws/retry-strategy.js';

const THROTTLED: RetryErrorInfo = { errorType: 'THROTTLING' };

/** The backoffs a strategy waits over `retries` throttled retries of one call. */
async function backoffs(random: (() => number) | undefined, retries: number): Promise<number[]> {
  const waited: number[] = [];
  const strategy = new SleepingRetryStrategy(
    retries + 1,
    async (ms) => {
      waited.push(ms);
    },
    random,
  );
  let token = await strategy.acquireInitialRetryToken('ec2');
  for (let i = 0; i < retries; i++) token = await strategy.refreshRetryTokenForRetry(token, THROTTLED);
  return waited;
}

/** A seeded source: the same seed gives the same floats. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe('SleepingRetryStrategy', () => {
  it("takes the backoff's jitter from the source it is given, so a seeded source waits the same every time", async () => {
    const first = await backoffs(seeded(3), 4);
    expect(await backoffs(seeded(3), 4)).toEqual(first);
    // Each wait is the SDK's full jitter over its exponential ceiling, drawn from that source.
    const draws = seeded(3);
    expect(first).toEqual([0, 1, 2, 3].map((n) => backoffMs('THROTTLING', n, draws())));
    expect(await backoffs(seeded(4), 4)).not.toEqual(first);
  });

  it('draws from Math.random when no source is given (as in Lambda)', async () => {
    const real = Math.random;
    let calls = 0;
    Math.random = () => {
      calls++;
      return 0.5;
    };
    try {
      expect(await backoffs(undefined, 2)).toEqual([500, 1000]);
    } finally {
      Math.random = real;
    }
    expect(calls).toBe(2);
  });

  it("gives an EC2 client the jitter source of the client's options", async () => {
    const random = seeded(9);
    const client = createEc2Client({ region: 'us-east-1', maxAttempts: 3, retryRandom: random });
    const strategy = await client.config.retryStrategy();
    expect(strategy).toBeInstanceOf(SleepingRetryStrategy);
    // The client's strategy draws from `random`: the next float it would give is consumed.
    const expected = seeded(9);
    const sleepy = strategy as SleepingRetryStrategy;
    const token = await sleepy.acquireInitialRetryToken('ec2');
    // A transient error's backoff is at most 50 ms of wall time here (no sleep was passed).
    await sleepy.refreshRetryTokenForRetry(token, { errorType: 'TRANSIENT' });
    expected();
    expect(random()).toBe(expected());
  });

  it('refuses a maxAttempts that is not an integer >= 1', () => {
    expect(() => new SleepingRetryStrategy(0)).toThrow(/maxAttempts must be an integer >= 1, got 0/);
  });
});
