import { describe, expect, it } from 'vitest';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import type { SchedulePlan } from '../../../../functions/core/scheduling/types.js';
import { nodePool } from '../../../builders/config.js';
import { pods } from '../../../builders/workloads.js';
import { input, instanceType, pool } from './fixtures.js';

function cost(plan: SchedulePlan): number {
  return plan.nodeClaims.reduce((sum, c) => sum + c.instanceTypeOptions[0].price, 0);
}

function placedOnce(plan: SchedulePlan, count: number): void {
  const all = plan.nodeClaims.flatMap((c) => c.pods);
  expect(new Set(all).size).toBe(all.length);
  expect(all).toHaveLength(count);
}

describe('schedule: packing improvement', () => {
  // A large type that is expensive per vCPU next to small ones that are cheap per vCPU.
  const types = [
    instanceType('small.large', 2, 8, 0.1, { spot: false }),
    instanceType('mid.xlarge', 4, 16, 0.36, { spot: false }),
    instanceType('big.2xlarge', 8, 32, 1.0, { spot: false }),
  ];
  const labelled = nodePool({ labels: { team: 'web' } });
  const webPods = () =>
    pods(5, 'web', { requests: { cpu: '1500m', memory: '1Gi' }, nodeSelector: { team: 'web' } });

  it('re-packs pods with a node selector into cheaper nodes than first fit finds', () => {
    const first = schedule(input({ pods: webPods(), pools: [pool(labelled, types)], skipImprovement: true }));
    const improved = schedule(input({ pods: webPods(), pools: [pool(labelled, types)] }));
    placedOnce(improved, 5);
    expect(improved.unschedulable).toEqual([]);
    expect(cost(improved)).toBeLessThan(cost(first));
    expect(cost(improved)).toBeCloseTo(0.5, 6);
    expect(improved.nodeClaims.every((c) => c.labels.team === 'web')).toBe(true);
  });

  it('mixes node sizes when that is cheaper than one size for all', () => {
    // 3-cpu pods: two never share a mid.xlarge (3.9 allocatable) and a small one is too small.
    const mixed = [
      ...pods(3, 'a', { requests: { cpu: '3', memory: '1Gi' } }),
      ...pods(3, 'b', { requests: { cpu: '500m', memory: '1Gi' } }),
    ];
    const plan = schedule(input({ pods: mixed, pools: [pool(nodePool(), types)] }));
    placedOnce(plan, 6);
    // Three mid.xlarge hold a 3-cpu pod and a 500m pod each: 3 x 0.36.
    expect(cost(plan)).toBeCloseTo(1.08, 6);
    for (const c of plan.nodeClaims) {
      const cpu = c.requests.cpu ?? 0;
      expect(cpu).toBeLessThanOrEqual(3900);
    }
  });

  it('is deterministic', () => {
    const a = schedule(input({ pods: webPods(), pools: [pool(labelled, types)] }));
    const b = schedule(input({ pods: webPods(), pools: [pool(labelled, types)] }));
    expect(a).toEqual(b);
  });
});

describe('schedule: packing improvement limits', () => {
  // Three shapes over the small catalog: first fit leaves room the improvement can save.
  const workload = () => [
    ...pods(13, 'a', { requests: { cpu: '1500m', memory: '3Gi' } }),
    ...pods(9, 'b', { requests: { cpu: '500m', memory: '6Gi' } }),
    ...pods(7, 'c', { requests: { cpu: '3', memory: '1Gi' } }),
  ];
  const run = (extra: Partial<Parameters<typeof input>[0]> = {}) =>
    schedule(input({ pods: workload(), pools: [pool(nodePool())], ...extra }));

  it('improves on first fit by default', () => {
    const first = run({ skipImprovement: true });
    const improved = run();
    placedOnce(improved, 29);
    expect(cost(improved)).toBeLessThan(cost(first) - 1e-9);
  });

  it('keeps first fit with no effort or a deadline already passed', () => {
    const first = run({ skipImprovement: true });
    expect(run({ improvementLimits: { effort: 0 } })).toEqual(first);
    expect(run({ improvementLimits: { now: () => 10, deadline: 10 } })).toEqual(first);
  });

  it('stops at the deadline with a valid plan no dearer than first fit', () => {
    const first = run({ skipImprovement: true });
    for (const ticks of [1, 3, 10, 100]) {
      // A clock that advances one millisecond each time it is read.
      let time = 0;
      const plan = run({ improvementLimits: { now: () => time++, deadline: ticks } });
      placedOnce(plan, 29);
      expect(plan.unschedulable).toEqual([]);
      expect(cost(plan)).toBeLessThanOrEqual(cost(first) + 1e-9);
      for (const c of plan.nodeClaims) {
        expect(c.requests.cpu ?? 0).toBeLessThanOrEqual(8000);
      }
    }
  });

  it('plans validly with little effort and with much', () => {
    const first = cost(run({ skipImprovement: true }));
    for (const effort of [0.01, 0.1, 4]) {
      const plan = run({ improvementLimits: { effort } });
      placedOnce(plan, 29);
      expect(cost(plan)).toBeLessThanOrEqual(first + 1e-9);
    }
  });
});
