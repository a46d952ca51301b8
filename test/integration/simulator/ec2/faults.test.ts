import { DescribeInstanceTypesCommand, RunInstancesCommand } from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../../functions/simulator/clock.js';
import { FaultInjector } from '../../../../functions/simulator/faults.js';
import { type Harness, startHarness } from './ec2-harness.js';
import { ids } from './multus-fixtures.js';

describe('injected EC2 faults reach the SDK as typed exceptions', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ maxAttempts: 1 });
  });
  afterEach(() => h.close());

  it('throttles with RequestLimitExceeded for the given number of calls', async () => {
    h.faults.inject({
      service: 'ec2',
      action: 'DescribeInstanceTypes',
      error: 'RequestLimitExceeded',
      times: 1,
    });
    const error = await h.ec2
      .send(new DescribeInstanceTypesCommand({}))
      .catch((e: Error & { $metadata?: unknown }) => e);
    expect(error).toMatchObject({ name: 'RequestLimitExceeded', $metadata: { httpStatusCode: 503 } });
    const ok = await h.ec2.send(new DescribeInstanceTypesCommand({}));
    expect(ok.InstanceTypes).toHaveLength(7);
  });

  it('fails a launch with InsufficientInstanceCapacity when the pool is empty', async () => {
    const t = ids(h);
    h.sim.setPoolCapacity('m5.large', 'us-west-2a', 'on-demand', 0);
    await expect(
      h.ec2.send(
        new RunInstancesCommand({
          MinCount: 1,
          MaxCount: 1,
          InstanceType: 'm5.large',
          ImageId: t.al2023,
          SubnetId: t.nodeSubnet('us-west-2a'),
          SecurityGroupIds: [t.nodeGroup],
        }),
      ),
    ).rejects.toMatchObject({
      name: 'InsufficientInstanceCapacity',
      message: expect.stringContaining('us-west-2a'),
    });
    expect(h.sim.state.instances.size).toBe(0);
  });

  it('applies an injected error to every action with *', async () => {
    const remove = h.faults.inject({
      service: 'ec2',
      action: '*',
      error: 'UnauthorizedOperation',
      message: 'denied',
    });
    await expect(h.ec2.send(new DescribeInstanceTypesCommand({}))).rejects.toMatchObject({
      name: 'UnauthorizedOperation',
      message: 'denied',
    });
    remove();
    await expect(h.ec2.send(new DescribeInstanceTypesCommand({}))).resolves.toBeDefined();
  });

  it('lets the SDK retry throttling when retries are allowed', async () => {
    const client = await startHarness({ maxAttempts: 3 });
    try {
      client.faults.inject({
        service: 'ec2',
        action: 'DescribeInstanceTypes',
        error: 'RequestLimitExceeded',
        times: 2,
      });
      const out = await client.ec2.send(new DescribeInstanceTypesCommand({}));
      expect(out.$metadata.attempts).toBe(3);
    } finally {
      await client.close();
    }
  });
});

describe('FaultInjector', () => {
  it('fires a probabilistic rule repeatably for the same seed', () => {
    const pattern = (seed: number) => {
      const faults = new FaultInjector(new SeededRandom(seed));
      faults.inject({ service: 'ec2', action: 'CreateFleet', error: 'InternalError', probability: 0.5 });
      return Array.from({ length: 20 }, () => (faults.check('ec2', 'CreateFleet') ? 1 : 0)).join('');
    };
    expect(pattern(7)).toBe(pattern(7));
    expect(pattern(7)).toMatch(/1/);
    expect(pattern(7)).toMatch(/0/);
  });

  it('matches only its service and action, and can be cleared', () => {
    const faults = new FaultInjector();
    faults.inject({ service: 'ec2', action: 'CreateFleet', latencyMs: 5 });
    expect(faults.check('ssm', 'CreateFleet')).toBeUndefined();
    expect(faults.check('ec2', 'DescribeInstances')).toBeUndefined();
    expect(faults.check('ec2', 'CreateFleet')).toEqual({ latencyMs: 5 });
    faults.clear();
    expect(faults.check('ec2', 'CreateFleet')).toBeUndefined();
  });

  it('rejects a rule that would do nothing or has a bad probability', () => {
    const faults = new FaultInjector();
    expect(() => faults.inject({ service: 'ec2', action: 'CreateFleet' })).toThrow(/error, a latencyMs/);
    expect(() => faults.inject({ service: 'ec2', action: '*', error: 'X', probability: 2 })).toThrow(
      /probability/,
    );
  });
});
