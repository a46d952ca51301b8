import { DescribeAvailabilityZonesCommand } from '@aws-sdk/client-ec2';
import { afterEach, describe, expect, it } from 'vitest';
import { createEc2Client } from '../../../../functions/adapters/aws/clients.js';
import { SeededRandom, VirtualClock } from '../../../../functions/simulator/clock.js';
import { type Ec2Simulator, startEc2Simulator } from '../../../../functions/simulator/ec2/ec2-simulator.js';
import type { Ec2ThrottlingConfig } from '../../../../functions/simulator/ec2/throttling/throttle-limits.js';
import { testCatalog } from '../../simulator/ec2/test-catalog.js';

let sim: Ec2Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** The simulated EC2 with throttling on and a tiny Describe* bucket, on a clock the test moves. */
async function throttledEc2(throttling: Ec2ThrottlingConfig) {
  const clock = new VirtualClock();
  sim = await startEc2Simulator({ clock, random: new SeededRandom(7), catalog: testCatalog, throttling });
  return { clock, sim };
}

const TINY: Ec2ThrottlingConfig = {
  enabled: true,
  categories: { 'non-mutating': { capacity: 1, refillPerSecond: 1 } },
};

describe('EC2 throttling on the wire', () => {
  it("answers a request past its bucket with EC2's RequestLimitExceeded envelope, HTTP 503", async () => {
    const { sim } = await throttledEc2(TINY);
    const call = () =>
      fetch(sim.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'Action=DescribeAvailabilityZones&Version=2016-11-15',
      });
    expect((await call()).status).toBe(200);
    const refused = await call();
    expect(refused.status).toBe(503);
    const body = await refused.text();
    expect(body).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<Response><Errors><Error><Code>RequestLimitExceeded<\/Code><Message>Request limit exceeded\.<\/Message><\/Error><\/Errors><RequestID>[0-9a-f-]{36}<\/RequestID><\/Response>$/,
    );
    expect(sim.throttling.throttledCalls().get('DescribeAvailabilityZones')).toBe(1);
  });
});

describe("joiner's EC2 client", () => {
  it('retries RequestLimitExceeded with backoff waited on the clock it is given until the bucket refills', async () => {
    const { clock, sim } = await throttledEc2(TINY);
    const waits: number[] = [];
    const client = createEc2Client({
      region: 'us-west-2',
      ec2Endpoint: sim.url,
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
      retrySleep: async (ms) => {
        waits.push(ms);
        await clock.advance(ms);
      },
    });
    try {
      const attempts: number[] = [];
      for (let i = 0; i < 3; i++) {
        const out = await client.send(new DescribeAvailabilityZonesCommand({}));
        expect(out.AvailabilityZones?.length).toBeGreaterThan(0);
        attempts.push(out.$metadata.attempts ?? 0);
      }
      expect(attempts[0]).toBe(1);
      expect(attempts.slice(1).every((a) => a > 1)).toBe(true);
      const throttled = sim.throttling.throttledCalls().get('DescribeAvailabilityZones') ?? 0;
      expect(throttled).toBe(attempts.reduce((n, a) => n + a - 1, 0));
      expect(waits).toHaveLength(throttled);
      // Each retry came after virtual time in which the bucket could refill: at least 1 s in all.
      expect(waits.reduce((n, w) => n + w, 0)).toBeGreaterThanOrEqual(1000);
    } finally {
      client.destroy();
    }
  });

  it('gives up after its attempts with the error EC2 answered', async () => {
    const { clock, sim } = await throttledEc2({
      enabled: true,
      categories: { 'non-mutating': { capacity: 1, refillPerSecond: 0.0001 } },
    });
    const client = createEc2Client({
      region: 'us-west-2',
      ec2Endpoint: sim.url,
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
      maxAttempts: 3,
      retrySleep: (ms) => clock.advance(ms),
    });
    try {
      await client.send(new DescribeAvailabilityZonesCommand({}));
      const error = await client.send(new DescribeAvailabilityZonesCommand({})).catch((e: unknown) => e);
      expect(error).toMatchObject({
        name: 'RequestLimitExceeded',
        message: 'Request limit exceeded.',
        $metadata: { httpStatusCode: 503, attempts: 3 },
      });
      expect(sim.throttling.throttledCalls().get('DescribeAvailabilityZones')).toBe(3);
    } finally {
      client.destroy();
    }
  });
});
