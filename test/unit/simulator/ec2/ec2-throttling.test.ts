import { describe, expect, it } from 'vitest';
import { parseQueryBody } from '../../../../functions/simulator/ec2/query.js';
import {
  Ec2Throttling,
  resourceCount,
} from '../../../../functions/simulator/ec2/throttling/ec2-throttling.js';
import { categoryOf } from '../../../../functions/simulator/ec2/throttling/throttle-limits.js';
import { TokenBucket } from '../../../../functions/simulator/ec2/throttling/token-bucket.js';

const params = (body = '') => parseQueryBody(body);

/** A throttling model on a clock the test moves. */
function model(config = {}) {
  const time = { now: 0 };
  const throttling = new Ec2Throttling('us-west-2', () => time.now, config);
  const call = (action: string, body = '', account = '111122223333') =>
    throttling.admit(account, action, params(body)) === undefined;
  /** How many of `n` calls in a row are admitted. */
  const burst = (action: string, n: number, body = '') =>
    Array.from({ length: n }, () => call(action, body)).filter(Boolean).length;
  return { time, throttling, call, burst };
}

describe('TokenBucket', () => {
  it('starts full, drains by what is taken and refills at its rate, fractions included, up to its capacity', () => {
    const bucket = new TokenBucket({ capacity: 10, refillPerSecond: 0.5 }, 0);
    expect(bucket.level(0)).toBe(10);
    bucket.take(10, 0);
    expect(bucket.has(1, 0)).toBe(false);
    expect(bucket.level(1_000)).toBeCloseTo(0.5);
    expect(bucket.has(1, 1_999)).toBe(false);
    expect(bucket.has(1, 2_000)).toBe(true);
    expect(bucket.waitMs(3, 2_000)).toBe(4_000);
    expect(bucket.level(600_000)).toBe(10);
  });
});

describe('EC2 request buckets', () => {
  it('gives Describe* calls 100 tokens refilled at 20 a second', () => {
    const m = model();
    expect(m.burst('DescribeSubnets', 120)).toBe(100);
    m.time.now += 1_000;
    expect(m.burst('DescribeSubnets', 30)).toBe(20);
  });

  it('gives mutating calls such as CreateFleet 50 tokens refilled at 5 a second', () => {
    const m = model();
    expect(m.burst('CreateFleet', 60)).toBe(50);
    m.time.now += 2_000;
    expect(m.burst('CreateFleet', 20)).toBe(10);
  });

  it('keeps a bucket per action: a drained CreateFleet bucket leaves CreateTags (100, 10 a second) alone', () => {
    const m = model();
    m.burst('CreateFleet', 60);
    expect(m.burst('CreateTags', 120)).toBe(100);
    m.time.now += 1_000;
    expect(m.burst('CreateTags', 20)).toBe(10);
    expect(m.throttling.throttledCalls().get('CreateFleet')).toBe(10);
    expect(m.throttling.throttledCalls().get('CreateTags')).toBe(30);
  });

  it('gives DescribeInstances without a filter or pagination its smaller bucket (50, 10 a second), filtered calls the standard one', () => {
    const m = model();
    expect(m.burst('DescribeInstances', 60)).toBe(50);
    expect(m.burst('DescribeInstances', 60, 'Filter.1.Name=tag-key&Filter.1.Value.1=x')).toBe(60);
    expect(m.burst('DescribeInstances', 50, 'MaxResults=100')).toBe(40);
    m.time.now += 1_000;
    expect(m.burst('DescribeInstances', 20)).toBe(10);
  });

  it('counts an account apart from another', () => {
    const m = model();
    m.burst('CreateFleet', 50);
    expect(m.call('CreateFleet')).toBe(false);
    expect(m.call('CreateFleet', '', '444455556666')).toBe(true);
  });

  it('sorts actions into the documented categories', () => {
    expect(categoryOf('DescribeImages', false)).toBe('non-mutating');
    expect(categoryOf('DescribeVolumes', false)).toBe('unfiltered-non-mutating');
    expect(categoryOf('DescribeVolumes', true)).toBe('non-mutating');
    expect(categoryOf('CreateLaunchTemplate', false)).toBe('mutating');
    expect(categoryOf('RequestSpotInstances', false)).toBe('resource-intensive');
  });
});

describe('EC2 resource buckets', () => {
  it('drains RunInstances by the instances launched (1000, 2 a second) besides its request bucket (5, 2 a second)', () => {
    const m = model();
    expect(m.call('RunInstances', 'MinCount=1&MaxCount=600')).toBe(true);
    expect(m.call('RunInstances', 'MinCount=1&MaxCount=500')).toBe(false);
    // The refused request took nothing: 400 instances still fit.
    expect(m.call('RunInstances', 'MinCount=1&MaxCount=400')).toBe(true);
    expect(m.call('RunInstances', 'MinCount=1&MaxCount=1')).toBe(false);
    m.time.now += 1_000;
    expect(m.call('RunInstances', 'MinCount=1&MaxCount=2')).toBe(true);
  });

  it('throttles on the request bucket even when instances are left', () => {
    const m = model();
    expect(m.burst('RunInstances', 7, 'MinCount=1&MaxCount=1')).toBe(5);
  });

  it('counts TerminateInstances by its instance ids (1000, 20 a second)', () => {
    const m = model({ actions: { TerminateInstances: { capacity: 1000, refillPerSecond: 100 } } });
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `InstanceId.${i + 1}=i-${i}`).join('&');
    expect(resourceCount('TerminateInstances', params(ids(3)))).toBe(3);
    expect(m.call('TerminateInstances', ids(990))).toBe(true);
    expect(m.call('TerminateInstances', ids(20))).toBe(false);
    m.time.now += 1_000;
    expect(m.call('TerminateInstances', ids(30))).toBe(true);
  });

  it('gives CreateFleet a resource bucket when a scenario says so, drained by its target capacity', () => {
    const m = model({ resources: { CreateFleet: { capacity: 3, refillPerSecond: 1 } } });
    const fleet = (n: number) => `TargetCapacitySpecification.TotalTargetCapacity=${n}`;
    expect(m.call('CreateFleet', fleet(2))).toBe(true);
    expect(m.call('CreateFleet', fleet(2))).toBe(false);
    expect(m.call('CreateFleet', fleet(1))).toBe(true);
  });
});

describe('throttling configuration', () => {
  it('replaces a category or an action', () => {
    const m = model({
      categories: { mutating: { capacity: 2, refillPerSecond: 0.5 } },
      actions: { CreateTags: { capacity: 1, refillPerSecond: 1 } },
    });
    expect(m.burst('CreateFleet', 5)).toBe(2);
    m.time.now += 1_999;
    expect(m.call('CreateFleet')).toBe(false);
    m.time.now += 1;
    expect(m.call('CreateFleet')).toBe(true);
    expect(m.burst('CreateTags', 3)).toBe(1);
    expect(m.throttling.requestLimit('DescribeSubnets')).toEqual({ capacity: 100, refillPerSecond: 20 });
  });

  it('is off with enabled: false, and by default while the clock does not run by itself', () => {
    expect(model({ enabled: false }).burst('CreateFleet', 80)).toBe(80);
    const manual = new Ec2Throttling(
      'us-west-2',
      () => 0,
      {},
      () => false,
    );
    expect(manual.active).toBe(false);
    expect(
      new Ec2Throttling(
        'us-west-2',
        () => 0,
        { enabled: true },
        () => false,
      ).active,
    ).toBe(true);
  });

  it('refuses a bad configuration with an error naming the field', () => {
    expect(() => model({ categories: { writes: { capacity: 1, refillPerSecond: 1 } } })).toThrow(
      /categories\.writes is not a category/,
    );
    expect(() => model({ actions: { CreateFleet: { capacity: 0, refillPerSecond: 1 } } })).toThrow(
      /actions\.CreateFleet\.capacity must be a number >= 1/,
    );
    expect(() => model({ resources: { CreateFleet: { capacity: 5, refillPerSecond: 0 } } })).toThrow(
      /resources\.CreateFleet\.refillPerSecond must be a number > 0/,
    );
    expect(() => model({ actions: { 'ec2:CreateFleet': { capacity: 5, refillPerSecond: 1 } } })).toThrow(
      /not an EC2 action name/,
    );
  });
});
