import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DisruptionOutcome } from '../../../functions/core/disruption/run-disruption.js';
import { podStartupSeconds, sweepWindow } from '../../../functions/core/status/pod-startup.js';
import { runSweep } from '../../../functions/core/sweep/run-sweep.js';
import { recordDisruption } from '../../../functions/handlers/disruption.js';
import { createInterruptionHandler } from '../../../functions/handlers/interruption.js';
import { lambdaHandler, recordDimensionedMetric } from '../../../functions/handlers/runtime/lambda.js';
import {
  KARPENTER_METRICS,
  karpenterConsolidationType,
  karpenterMessageType,
  karpenterReason,
} from '../../../functions/shared/karpenter-metrics.js';
import { createLambdaContext } from '../../../functions/simulator/runner/lambda-context.js';
import { kubeletNode, markReady, podOn } from '../core/lifecycle/fakes.js';
import { harness, launchedClaim } from '../core/lifecycle/harness.js';

const context = { awsRequestId: 'req-1', functionName: 'joiner-test' } as Context;

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** The EMF lines `run` prints as a Lambda function would. */
async function emfOf(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'joiner-test');
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return chunks
    .join('')
    .split('\n')
    .filter((l) => l.includes('_aws'))
    .map((l) => JSON.parse(l));
}

const named = (emf: Record<string, unknown>[], name: string) => emf.filter((e) => name in e);

describe("Karpenter's metric names", () => {
  it('are published as CloudWatch metric names with Karpenter’s labels as dimensions', async () => {
    const emf = await emfOf(() =>
      lambdaHandler(async () => {
        recordDimensionedMetric(KARPENTER_METRICS.nodeClaimsDisrupted, 1, 'Count', {
          nodepool: 'default',
          reason: karpenterReason('deleted nodepool'),
        });
        recordDimensionedMetric(KARPENTER_METRICS.schedulingDuration, 0.25, 'Seconds', {
          controller: 'provisioner',
        });
      })({}, context),
    );
    const [disrupted] = named(emf, KARPENTER_METRICS.nodeClaimsDisrupted) as never[];
    expect(disrupted).toMatchObject({
      karpenter_nodeclaims_disrupted_total: 1,
      nodepool: 'default',
      reason: 'deleted_nodepool',
    });
    const aws = (
      disrupted as { _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] } }
    )._aws;
    expect(aws.CloudWatchMetrics[0].Namespace).toBe('joiner');
    expect(aws.CloudWatchMetrics[0].Dimensions[0]).toEqual(expect.arrayContaining(['nodepool', 'reason']));
    const [scheduling] = named(emf, KARPENTER_METRICS.schedulingDuration) as never[];
    expect(
      (scheduling as { _aws: { CloudWatchMetrics: { Metrics: unknown }[] } })._aws.CloudWatchMetrics[0]
        .Metrics,
    ).toEqual([{ Name: 'karpenter_scheduler_scheduling_duration_seconds', Unit: 'Seconds' }]);
  });

  it('are the ones the mapping table documents', async () => {
    const { readFile } = await import('node:fs/promises');
    const doc = await readFile('docs/karpenter-metrics.md', 'utf8');
    for (const name of Object.values(KARPENTER_METRICS)) expect(doc).toContain(`\`${name}\``);
  });

  it('name interruption messages and consolidation types as Karpenter labels them', () => {
    expect(karpenterMessageType('spot-interruption')).toBe('spot_interrupted');
    expect(karpenterMessageType('rebalance')).toBe('rebalance_recommendation');
    expect(karpenterMessageType('scheduled-change')).toBe('scheduled_change');
    expect(karpenterMessageType('state-change', 'stopping')).toBe('instance_stopping');
    expect(karpenterMessageType('state-change', 'terminated')).toBe('instance_terminated');
    expect(karpenterMessageType('something else')).toBe('no_op');
    expect(karpenterConsolidationType('empty', 3)).toBe('empty');
    expect(karpenterConsolidationType('underutilized', 1)).toBe('single');
    expect(karpenterConsolidationType('underutilized', 2)).toBe('multi');
    expect(karpenterConsolidationType('drifted', 1)).toBe('');
  });
});

describe('pod startup duration', () => {
  const T = Date.UTC(2026, 0, 1, 12);
  const pod = (created: number | undefined, readyAt: number | undefined, phase = 'Running') => {
    const p = podOn(
      'ip-a',
      `p-${created}-${readyAt}`,
      created === undefined ? {} : { creationTimestamp: new Date(created).toISOString() },
    );
    return {
      ...p,
      status: {
        phase,
        conditions: [
          {
            type: 'Ready',
            status: 'True' as const,
            ...(readyAt === undefined ? {} : { lastTransitionTime: new Date(readyAt).toISOString() }),
          },
        ],
      },
    };
  };

  it('measures creation to Ready for the pods that turned Ready in the window, each window once', () => {
    const window = sweepWindow(T, 60_000);
    const pods = [
      pod(T - 90_000, T - 30_000), // in the window: 60 s
      pod(T - 70_000, T - 60_000), // at the window's start (inclusive): 10 s
      pod(T - 10_000, T), // at its end (exclusive): the next window's
      pod(T - 200_000, T - 120_000), // an earlier window's
      pod(undefined, T - 30_000), // no creation time
      pod(T - 50_000, undefined), // no transition time
      pod(T - 50_000, T - 20_000, 'Pending'),
    ];
    expect(podStartupSeconds(pods, window)).toEqual([60, 10]);
    expect(podStartupSeconds(pods, sweepWindow(T + 60_000, 60_000))).toEqual([10]);
  });

  it('the sweep measures the window it is given, and nothing without one', async () => {
    const h = harness();
    const now = h.clock.now();
    h.cluster.pods.push(pod(now - 40_000, now - 5_000));
    const outcome = await runSweep(h.sweep, sweepWindow(now, 60_000));
    expect(outcome.podStartups).toEqual([35]);
    expect((await runSweep(h.sweep)).podStartups).toEqual([]);
  });
});

describe('disruption and interruption metrics', () => {
  it('publish voluntary decisions with decision, reason and consolidation type (none for drift)', async () => {
    const outcome: DisruptionOutcome = {
      steps: 0,
      terminated: [],
      evictionsRefused: 0,
      started: [],
      decisions: [
        { decision: 'delete', reason: 'empty', nodes: 2 },
        { decision: 'replace', reason: 'underutilized', nodes: 3 },
        { decision: 'replace', reason: 'drifted', nodes: 1 },
      ],
      blocked: 0,
      armed: 0,
      disarmed: 0,
      decided: true,
    };
    const emf = await emfOf(() => lambdaHandler(async () => recordDisruption(outcome))({}, context));
    const decisions = named(emf, KARPENTER_METRICS.disruptionDecisions).map(
      ({ decision, reason, consolidation_type }) => ({ decision, reason, consolidation_type }),
    );
    expect(decisions).toEqual([
      { decision: 'delete', reason: 'empty', consolidation_type: 'empty' },
      { decision: 'replace', reason: 'underutilized', consolidation_type: 'multi' },
      { decision: 'replace', reason: 'drifted', consolidation_type: undefined },
    ]);
  });

  it('count interruption messages by type and whether joiner acted on them', async () => {
    const h = harness();
    const claim = launchedClaim(h, 'default-abc', 'i-0a');
    h.store.put({ ...claim, state: 'Initialized', nodeName: 'ip-1', timers: {} });
    const node = kubeletNode('ip-1', 'i-0a');
    markReady(node);
    h.cluster.nodes.set('ip-1', node);
    const origin = { account: '123456789012', region: 'us-west-2', resources: [] };
    const message = (id: string, detailType: string, instance: string) =>
      JSON.stringify({
        id,
        'detail-type': detailType,
        source: 'aws.ec2',
        ...origin,
        detail: { 'instance-id': instance },
      });
    const handler = createInterruptionHandler(() => h.interruption as never);
    const lambdaContext = createLambdaContext(
      { region: 'us-west-2', account: '123456789012', functionPrefix: 'joiner' },
      'interruption',
      5_000,
    );
    const emf = await emfOf(() =>
      handler(
        {
          Records: [
            message('e1', 'EC2 Spot Instance Interruption Warning', 'i-0a'),
            message('e2', 'EC2 Instance Rebalance Recommendation', 'i-0a'),
            message('e3', 'EC2 Spot Instance Interruption Warning', 'i-unknown'),
          ].map(
            (body, i) =>
              ({ messageId: `m-${i}`, body, attributes: { ApproximateReceiveCount: '1' } }) as never,
          ),
        },
        lambdaContext,
      ),
    );
    const counted = named(emf, KARPENTER_METRICS.interruptionMessages)
      .map(({ message_type, actionable }) => `${message_type}/${actionable}`)
      .sort();
    expect(counted).toEqual([
      'rebalance_recommendation/false',
      'spot_interrupted/false',
      'spot_interrupted/true',
    ]);
  });
});
