/**
 * The provisioning run and static NodePools (Karpenter v1.8 `replicas`): it launches what a static
 * pool lacks, once however often or concurrently it runs, plans pods onto the static claims and
 * makes no claim for pods in a static pool.
 */
import { describe, expect, it } from 'vitest';
import { provision } from '../../../../functions/core/provisioning/provision.js';
import { pod } from '../../../builders/workloads.js';
import { FakeCluster } from './fakes.js';
import { harness } from './harness.js';
import { asPending, configDocuments } from './seed-cluster.js';

async function staticCluster(spec: Record<string, unknown> = {}): Promise<FakeCluster> {
  const cluster = new FakeCluster();
  const docs = await configDocuments('examples/static-capacity');
  cluster.nodeClassDocs = docs.filter((d) => d.kind.endsWith('NodeClass'));
  cluster.nodePoolDocs = docs
    .filter((d) => !d.kind.endsWith('NodeClass'))
    .map((d) => ({ ...d, spec: { ...(d.spec as object), ...spec } }));
  return cluster;
}

describe('provision: static NodePools', () => {
  it('launches the replicas as empty template nodeclaims and plans pending pods onto them', async () => {
    const cluster = await staticCluster();
    cluster.pods = [1, 2, 3].map((i) =>
      asPending(pod({ name: `web-${i}`, requests: { cpu: '250m', memory: '256Mi' } })),
    );
    const h = harness(cluster);
    const result = await provision(h.deps, { hints: [] });
    expect(result.created).toHaveLength(2);
    expect(result.launched).toHaveLength(2);
    const claims = [...h.store.claims.values()];
    expect(claims.every((c) => c.static && c.pods.length === 0 && c.nodePool === 'fixed')).toBe(true);
    expect(
      claims.every((c) => c.options.every((o) => o.instanceType === 'm5.large' && o.capacityType === 'spot')),
    ).toBe(true);
    expect(result.placedOnInFlight).toBe(3);
    expect(result.unschedulable).toEqual([]);
  });

  it('a redelivered or second run launches nothing more', async () => {
    const h = harness(await staticCluster());
    await provision(h.deps, { hints: [] });
    const again = await provision(h.deps, { hints: [] });
    expect(again.created).toEqual([]);
    expect(h.store.claims.size).toBe(2);
  });

  it('concurrent runs launch the replicas once', async () => {
    const h = harness(await staticCluster({ replicas: 3 }));
    const runs = await Promise.all(
      [1, 2, 3].map(() => provision(h.deps, { hints: [], options: { leaseRetryMs: 1 } })),
    );
    expect(runs.flatMap((r) => r.created)).toHaveLength(3);
    expect(h.store.claims.size).toBe(3);
    expect(h.cloud.launches).toBe(3);
  });

  it('launches nothing while its NodeClass backs off after EC2 terminated its launches, then launches again', async () => {
    const h = harness(await staticCluster());
    await provision(h.deps, { hints: [] });
    h.clock.advance(5_000);
    const failure = { reason: 'InvalidKMSKey', message: 'EC2 terminated instance i-1 during launch (...)' };
    for (const c of [...h.store.claims.values()])
      h.store.claims.set(c.id, {
        ...c,
        state: 'Gone',
        failure,
        timestamps: { ...c.timestamps, Terminating: h.clock.now(), Gone: h.clock.now() },
      });
    h.clock.advance(10_000);
    const waiting = await provision(h.deps, { hints: [] });
    expect(waiting.created).toEqual([]);
    h.clock.advance(60_000);
    const again = await provision(h.deps, { hints: [] });
    expect(again.created).toHaveLength(2);
  });

  it('stops at limits.nodes', async () => {
    const h = harness(await staticCluster({ replicas: 4, limits: { nodes: 3 } }));
    const result = await provision(h.deps, { hints: [] });
    expect(result.created).toHaveLength(3);
    const more = await provision(h.deps, { hints: [] });
    expect(more.created).toEqual([]);
    expect(h.log.lines.some((l) => l.message.includes('node limit is reached'))).toBe(true);
  });

  it('makes no claim for pods that only a static pool could take: they wait, with the reason', async () => {
    const cluster = await staticCluster({ replicas: 0 });
    cluster.pods = [asPending(pod({ name: 'big', requests: { cpu: '1', memory: '1Gi' } }))];
    const h = harness(cluster);
    const result = await provision(h.deps, { hints: [] });
    expect(result.created).toEqual([]);
    expect(result.unschedulable.map((u) => u.pod)).toEqual(['default/big']);
  });
});
