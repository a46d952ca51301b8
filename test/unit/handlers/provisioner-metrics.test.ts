import { afterEach, describe, expect, it, vi } from 'vitest';
import { oldestPendingAgeMs } from '../../../functions/core/provisioning/oldest-pending-age.js';
import { createProvisionerHandler } from '../../../functions/handlers/provisioner.js';
import { METRIC_NAMES, METRICS_NAMESPACE, METRICS_SERVICE } from '../../../functions/shared/metrics.js';
import { createLambdaContext } from '../../../functions/simulator/runner/lambda-context.js';
import { harness, START } from '../core/provisioning/harness.js';
import { seedCluster } from '../core/provisioning/seed-cluster.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const context = () =>
  createLambdaContext(
    { region: 'us-west-2', account: '111111111111', functionPrefix: 'joiner' },
    'provisioner',
    60_000,
  );

describe('provisioner metrics the alarms read', () => {
  it('publishes the oldest pending pod age, ICE errors, launches and failures in the alarms namespace and dimension', async () => {
    const h = harness(await seedCluster('examples/seed-004'));
    h.cloud.exhausted.add('c5.2xlarge/us-west-2b/spot');
    const created = new Date(START - 7 * 60_000).toISOString();
    h.cluster.pods = h.cluster.pods.map((p, i) => ({
      ...p,
      metadata: { ...p.metadata, creationTimestamp: i === 0 ? created : new Date(START).toISOString() },
    }));
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'joiner-provisioner');
    const chunks: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      chunks.push(String(chunk));
      return true;
    });
    const handler = createProvisionerHandler(() => h.deps);
    const body = JSON.stringify({
      id: 'e1',
      'detail-type': 'PodUnschedulable',
      source: 'joiner',
      time: '2025-01-01T00:00:00Z',
      detail: { namespace: 'default', name: 'x', uid: 'u' },
    });
    await handler({ Records: [{ messageId: 'm1', body } as never] }, context());
    const emf = chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((l) => l._aws && l[METRIC_NAMES.oldestPendingPodAge] !== undefined);
    expect(emf).toBeDefined();
    expect(emf._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      Dimensions: [['service']],
    });
    expect(emf.service).toBe(METRICS_SERVICE);
    expect(emf[METRIC_NAMES.oldestPendingPodAge]).toBe(7 * 60_000);
    expect(emf[METRIC_NAMES.insufficientCapacityErrors]).toBe(1);
    expect(emf[METRIC_NAMES.nodeClaimsLaunched]).toBeGreaterThan(0);
    expect(emf[METRIC_NAMES.nodeClaimsFailed]).toBe(0);
    expect(emf._aws.CloudWatchMetrics[0].Metrics).toContainEqual({
      Name: METRIC_NAMES.oldestPendingPodAge,
      Unit: 'Milliseconds',
    });
  });

  it('a batch absorbed by the run holding the lease is done (no retry) and reports no pending pod age', async () => {
    const h = harness(await seedCluster('examples/seed-004'));
    await h.store.acquireLease('provisioner', 'run-in-progress', Date.now(), 60_000);
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'joiner-provisioner');
    const chunks: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      chunks.push(String(chunk));
      return true;
    });
    const handler = createProvisionerHandler(() => h.deps);
    const body = JSON.stringify({
      id: 'e1',
      'detail-type': 'PodUnschedulable',
      source: 'joiner',
      time: '2025-01-01T00:00:00Z',
      detail: { namespace: 'default', name: 'x', uid: 'u' },
    });
    const out = await handler({ Records: [{ messageId: 'm1', body } as never] }, context());
    expect(out).toEqual({ batchItemFailures: [] });
    expect(h.log.messages()).toContain('provisioning absorbed by the run in progress');
    expect(h.store.leases.get('provisioner')).toMatchObject({ holder: 'run-in-progress', requests: 1 });
    expect(h.cloud.launches).toBe(0);
    const emf = chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((l) => l._aws);
    expect(emf.length).toBeGreaterThan(0);
    expect(emf.some((l) => l[METRIC_NAMES.oldestPendingPodAge] !== undefined)).toBe(false);
  });

  it('the oldest pending pod age: 0 without pods, unreadable creation times count as new', () => {
    const pod = (creationTimestamp?: string) =>
      ({ metadata: { name: 'p', creationTimestamp }, spec: {} }) as never;
    const now = Date.UTC(2025, 0, 1, 1);
    expect(oldestPendingAgeMs([], now)).toBe(0);
    expect(oldestPendingAgeMs([pod(), pod('not a time')], now)).toBe(0);
    expect(oldestPendingAgeMs([pod('2025-01-01T00:30:00Z'), pod('2025-01-01T00:00:00Z')], now)).toBe(
      3_600_000,
    );
  });
});
