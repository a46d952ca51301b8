import { DescribeInstanceTypesCommand } from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './ec2-harness.js';

async function post(h: Harness, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(h.sim.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body,
  });
  return { status: res.status, text: await res.text() };
}

function code(text: string): string | undefined {
  return /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
}

describe('EC2 Query protocol edges', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ maxAttempts: 1 });
  });
  afterAll(() => h.close());

  it('answers in the 2016-11-15 namespace with a request id', async () => {
    const { status, text } = await post(h, 'Action=DescribeAvailabilityZones&Version=2016-11-15');
    expect(status).toBe(200);
    expect(text).toContain(
      '<DescribeAvailabilityZonesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">',
    );
    expect(text).toMatch(/<requestId>[0-9a-f-]{36}<\/requestId>/);
  });

  it('uses the error envelope for an unknown action, a missing action and a bad list index', async () => {
    const unknown = await post(h, 'Action=LaunchRockets&Version=2016-11-15');
    expect([unknown.status, code(unknown.text)]).toEqual([400, 'InvalidAction']);
    expect(unknown.text).toMatch(
      /<Response><Errors><Error><Code>InvalidAction<\/Code><Message>.*LaunchRockets/,
    );
    const missing = await post(h, 'Version=2016-11-15');
    expect(code(missing.text)).toBe('MissingAction');
    const badIndex = await post(h, 'Action=DescribeInstances&Version=2016-11-15&InstanceId.x=i-1');
    expect(code(badIndex.text)).toBe('InvalidParameterValue');
    expect(badIndex.text).toContain('InstanceId.x');
  });

  it('names the missing parameter', async () => {
    const { text } = await post(h, 'Action=CreateLaunchTemplate&Version=2016-11-15&LaunchTemplateName=abc');
    expect(code(text)).toBe('MissingParameter');
    expect(text).toContain('LaunchTemplateData');
  });

  it('rejects a NextToken from another action', async () => {
    const first = await h.ec2.send(new DescribeInstanceTypesCommand({ MaxResults: 5 }));
    const { text } = await post(
      h,
      `Action=DescribeSubnets&Version=2016-11-15&NextToken=${encodeURIComponent(first.NextToken!)}`,
    );
    expect(code(text)).toBe('InvalidNextToken');
  });

  it('delays an answer by an injected latency', async () => {
    h.faults.inject({ service: 'ec2', action: 'DescribeInstanceTypes', latencyMs: 80, times: 1 });
    const start = performance.now();
    await h.ec2.send(new DescribeInstanceTypesCommand({}));
    expect(performance.now() - start).toBeGreaterThanOrEqual(75);
  });
});
