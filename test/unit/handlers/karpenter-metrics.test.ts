import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lambdaHandler, recordDimensionedMetric } from '../../../functions/handlers/runtime/lambda.js';
import { KARPENTER_METRICS, karpenterReason } from '../../../functions/shared/karpenter-metrics.js';

const context = { awsRequestId: 'req-1', functionName: 'joiner-test' } as Context;

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("Karpenter's metric names", () => {
  it('are published as CloudWatch metric names with Karpenter’s labels as dimensions', async () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'joiner-disruption');
    const chunks: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      chunks.push(String(chunk));
      return true;
    });
    try {
      await lambdaHandler(async () => {
        recordDimensionedMetric(KARPENTER_METRICS.nodeClaimsDisrupted, 1, 'Count', {
          nodepool: 'default',
          reason: karpenterReason('deleted nodepool'),
        });
        recordDimensionedMetric(KARPENTER_METRICS.schedulingDuration, 0.25, 'Seconds', {});
      })({}, context);
    } finally {
      spy.mockRestore();
    }
    const emf = chunks
      .join('')
      .split('\n')
      .filter((l) => l.includes('_aws'))
      .map((l) => JSON.parse(l));
    const disrupted = emf.find((e) => KARPENTER_METRICS.nodeClaimsDisrupted in e);
    expect(disrupted).toMatchObject({
      karpenter_nodeclaims_disrupted_total: 1,
      nodepool: 'default',
      reason: 'deleted_nodepool',
    });
    expect(disrupted._aws.CloudWatchMetrics[0].Namespace).toBe('joiner');
    expect(disrupted._aws.CloudWatchMetrics[0].Dimensions[0]).toEqual(
      expect.arrayContaining(['nodepool', 'reason']),
    );
    const scheduling = emf.find((e) => KARPENTER_METRICS.schedulingDuration in e);
    expect(scheduling._aws.CloudWatchMetrics[0].Metrics).toEqual([
      { Name: 'karpenter_provisioner_scheduling_duration_seconds', Unit: 'Seconds' },
    ]);
  });

  it('are the ones the mapping table documents', async () => {
    const { readFile } = await import('node:fs/promises');
    const doc = await readFile('docs/karpenter-metrics.md', 'utf8');
    for (const name of Object.values(KARPENTER_METRICS)) expect(doc).toContain(`\`${name}\``);
  });
});
