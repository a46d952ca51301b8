import { describe, expect, it } from 'vitest';
import {
  poolRepairable,
  repairOf,
  unhealthyCondition,
} from '../../../../functions/core/disruption/node-repair.js';
import type { Node } from '../../../../functions/core/model/kube-objects.js';
import { runSweep } from '../../../../functions/core/sweep/run-sweep.js';
import { podOn } from '../lifecycle/fakes.js';
import { harness, runningClaim } from '../lifecycle/harness.js';

const MIN = 60_000;
const T0 = Date.parse('2026-01-01T00:00:00Z');

function nodeWith(
  name: string,
  conditions: { type: string; status: string; since?: number; reason?: string }[],
): Node {
  return {
    metadata: { name, labels: { 'karpenter.sh/nodepool': 'default' } },
    status: {
      conditions: conditions.map((c) => ({
        type: c.type,
        status: c.status,
        ...(c.reason ? { reason: c.reason } : {}),
        lastTransitionTime: new Date(c.since ?? T0).toISOString(),
      })),
    },
  } as Node;
}

const healthy = (name: string) => nodeWith(name, [{ type: 'Ready', status: 'True' }]);

describe('node repair policies (Karpenter AWS provider)', () => {
  it('tolerates Ready False / Unknown for 30 minutes and AcceleratedHardwareReady False for 10', () => {
    expect(unhealthyCondition(nodeWith('a', [{ type: 'Ready', status: 'False' }]))?.repairAt).toBe(
      T0 + 30 * MIN,
    );
    expect(unhealthyCondition(nodeWith('a', [{ type: 'Ready', status: 'Unknown' }]))?.repairAt).toBe(
      T0 + 30 * MIN,
    );
    const gpu = nodeWith('g', [
      { type: 'Ready', status: 'True' },
      { type: 'AcceleratedHardwareReady', status: 'False', reason: 'NvidiaXID79' },
    ]);
    expect(unhealthyCondition(gpu)).toEqual({
      type: 'AcceleratedHardwareReady',
      status: 'False',
      reason: 'NvidiaXID79',
      repairAt: T0 + 10 * MIN,
    });
    for (const type of ['StorageReady', 'NetworkingReady', 'KernelReady', 'ContainerRuntimeReady'])
      expect(unhealthyCondition(nodeWith('a', [{ type, status: 'False' }]))?.repairAt).toBe(T0 + 30 * MIN);
    // Conditions no policy names, or healthy statuses, are not repaired.
    expect(unhealthyCondition(nodeWith('a', [{ type: 'MemoryPressure', status: 'True' }]))).toBeUndefined();
    expect(unhealthyCondition(nodeWith('a', [{ type: 'KernelReady', status: 'True' }]))).toBeUndefined();
  });

  it('takes the condition whose toleration ends first', () => {
    const node = nodeWith('a', [
      { type: 'Ready', status: 'False', since: T0 },
      { type: 'AcceleratedHardwareReady', status: 'False', since: T0 + 5 * MIN },
    ]);
    expect(unhealthyCondition(node)?.type).toBe('AcceleratedHardwareReady');
  });

  it('repairs past the toleration only, and not when more than 20% (rounded up) of the pool is unhealthy', () => {
    const sick = nodeWith('sick', [{ type: 'Ready', status: 'False' }]);
    const pool = [sick, healthy('b'), healthy('c')];
    expect(repairOf(sick, pool, T0 + 30 * MIN - 1)).toBeUndefined();
    expect(repairOf(sick, pool, T0 + 30 * MIN)).toEqual({
      repair: true,
      message: 'node condition Ready=False past its toleration',
    });
    // One of three is allowed (20% of 3 rounds up to 1); two of three are not.
    expect(poolRepairable(pool)).toBe(true);
    const two = [sick, nodeWith('sick2', [{ type: 'Ready', status: 'Unknown' }]), healthy('c')];
    expect(poolRepairable(two)).toBe(false);
    expect(repairOf(sick, two, T0 + 60 * MIN)).toEqual({
      repair: false,
      blocked: 'more than 20% nodes are unhealthy in the nodepool',
    });
    expect(repairOf(healthy('b'), pool, T0 + 60 * MIN)).toBeUndefined();
  });
});

describe('node repair in a disruption round', () => {
  function setCondition(
    h: ReturnType<typeof harness>,
    nodeName: string,
    type: string,
    status: 'True' | 'False' | 'Unknown',
    since: number,
  ) {
    const node = h.cluster.nodes.get(nodeName)!;
    const conditions = (node.status?.conditions ?? []).filter((c) => c.type !== type);
    conditions.push({ type, status, lastTransitionTime: new Date(since).toISOString() });
    node.status = { ...node.status, conditions };
  }

  it('force-replaces a node past its toleration at once, pods deleted whatever their PDBs', async () => {
    const h = harness();
    for (const [id, node] of [
      ['default-a', 'ip-a'],
      ['default-b', 'ip-b'],
      ['default-c', 'ip-c'],
      ['default-d', 'ip-d'],
      ['default-e', 'ip-e'],
    ])
      runningClaim(h, id, node, [`${id}-pod`]);
    setCondition(h, 'ip-a', 'AcceleratedHardwareReady', 'False', h.clock.now() - 9 * MIN);
    let outcome = await runSweep(h.sweep);
    expect(outcome.disruption.started).toEqual([]);

    h.clock.advance(MIN);
    outcome = await runSweep(h.sweep);
    expect(outcome.disruption.started).toEqual([
      { nodeClaim: 'default-a', nodePool: 'default', cause: 'unhealthy' },
    ]);
    const record = h.store.claims.get('default-a')?.disruption;
    expect(record).toMatchObject({ cause: 'unhealthy', forceful: true, forceAt: h.clock.now() });
  });

  it('leaves the nodes alone when more than 20% of the pool is unhealthy', async () => {
    const h = harness();
    for (const [id, node] of [
      ['default-a', 'ip-a'],
      ['default-b', 'ip-b'],
      ['default-c', 'ip-c'],
    ])
      runningClaim(h, id, node);
    h.cluster.pods.push(podOn('ip-a', 'keep'));
    setCondition(h, 'ip-a', 'Ready', 'False', h.clock.now() - 40 * MIN);
    setCondition(h, 'ip-b', 'Ready', 'Unknown', h.clock.now() - 40 * MIN);
    const outcome = await runSweep(h.sweep);
    expect(outcome.disruption.started).toEqual([]);
    expect(h.store.claims.get('default-a')?.blocked?.reason).toBe(
      'more than 20% nodes are unhealthy in the nodepool',
    );
  });
});
