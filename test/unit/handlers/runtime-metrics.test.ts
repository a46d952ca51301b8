import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lambdaHandler, recordMetrics } from '../../../functions/handlers/runtime/lambda.js';

const context = { awsRequestId: 'req-1', functionName: 'joiner-test' } as Context;

function captureStdout(): { lines: () => string[]; restore: () => void } {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  return { lines: () => chunks.join('').split('\n').filter(Boolean), restore: () => spy.mockRestore() };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('handler metrics', () => {
  it('publishes what the handler recorded as one EMF line when running in Lambda', async () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'joiner-provisioner');
    const handler = lambdaHandler(async () => {
      recordMetrics({ NodeClaimsLaunched: 3 }, { SchedulingTime: 42 });
      return 'done';
    });
    const out = captureStdout();
    try {
      expect(await handler({}, context)).toBe('done');
    } finally {
      out.restore();
    }
    const emf = out
      .lines()
      .map((l) => JSON.parse(l))
      .find((l) => l._aws);
    expect(emf).toMatchObject({ NodeClaimsLaunched: 3, SchedulingTime: 42 });
    expect(emf._aws.CloudWatchMetrics[0].Metrics).toEqual(
      expect.arrayContaining([
        { Name: 'NodeClaimsLaunched', Unit: 'Count' },
        { Name: 'SchedulingTime', Unit: 'Milliseconds' },
      ]),
    );
  });

  it('prints nothing for an invocation that recorded nothing, and drops metrics outside Lambda', async () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', '');
    const quiet = lambdaHandler(async () => 'quiet');
    const recording = lambdaHandler(async () => {
      recordMetrics({ PendingPods: 5 });
      return 'recorded';
    });
    const out = captureStdout();
    const warn = vi.spyOn(console, 'warn');
    try {
      await quiet({}, context);
      await recording({}, context);
    } finally {
      out.restore();
    }
    expect(
      out.lines().filter((l) => l.includes('PendingPods') || l.includes('No application metrics')),
    ).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });
});
