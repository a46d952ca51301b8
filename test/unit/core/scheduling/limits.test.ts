import { describe, expect, it } from 'vitest';
import type { ResolvedInstanceType } from '../../../../functions/core/model/instance-type.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import type { SchedulePlan } from '../../../../functions/core/scheduling/types.js';
import { nodePool } from '../../../builders/config.js';
import { pods } from '../../../builders/workloads.js';
import { input, instanceType, pool, smallCatalog } from './fixtures.js';

const byName = new Map(smallCatalog().map((t) => [t.name, t]));

/** The cpu a plan may launch at worst: each claim as its largest option (CreateFleet may pick any). */
function worstCaseCpu(plan: SchedulePlan, types: ReadonlyMap<string, ResolvedInstanceType> = byName): number {
  return plan.nodeClaims.reduce(
    (sum, c) =>
      sum + Math.max(...c.instanceTypeOptions.map((o) => types.get(o.instanceType)?.capacity.cpu ?? 0)),
    0,
  );
}

describe('schedule: NodePool limits count the largest option of each claim', () => {
  it('no claim may launch past limits.cpu, whichever option CreateFleet picks', () => {
    // One pod per node: each claim may be c.large (2 vCPU, cheapest) or c.xlarge (4 vCPU, its ICE fallback).
    const types = [
      instanceType('c.large', 2, 4, 0.085, { pods: 1 }),
      instanceType('c.xlarge', 4, 8, 0.17, { pods: 1 }),
    ];
    const p = nodePool({ limits: { cpu: 16_000 } });
    const plan = schedule(input({ pods: pods(8, 'p', { requests: { cpu: '1' } }), pools: [pool(p, types)] }));
    expect(plan.nodeClaims.length).toBeGreaterThan(0);
    expect(worstCaseCpu(plan, new Map(types.map((t) => [t.name, t])))).toBeLessThanOrEqual(16_000);
    expect(plan.unschedulable[0]?.reason).toMatch(/cpu limit 16000/);
  });

  it('counts an in-flight claim that has not launched at its largest option', () => {
    const p = nodePool({ limits: { cpu: 8000 } });
    const plan = schedule(
      input({
        pods: pods(1, 'late', { requests: { cpu: '1' } }),
        pools: [pool(p)],
        inFlight: [
          {
            name: 'default-a',
            nodePool: 'default',
            labels: { 'karpenter.sh/nodepool': 'default' },
            requirements: [],
            taints: [{ key: 'full', effect: 'NoSchedule' }],
            allocatable: { cpu: 1900, memory: 2 ** 32, pods: 58 },
            capacity: { cpu: 8000, memory: 2 ** 35, pods: 58 },
            pods: [],
          },
        ],
      }),
    );
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable[0]?.reason).toMatch(/cpu limit 8000/);
  });
});
