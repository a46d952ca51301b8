/**
 * The packing improvement on mixed pods: pods whose requirements differ only on labels instance
 * types carry share a node of a type both allow, and a type stays a candidate for the pods limited
 * to it even when a cheaper type of another architecture is as large.
 */
import { describe, expect, it } from 'vitest';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import type { SchedulePlan } from '../../../../functions/core/scheduling/types.js';
import { nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';
import { input, instanceType, pool } from './fixtures.js';

const ZONE = 'topology.kubernetes.io/zone';
// Arm64 types are cheaper than the amd64 types of the same size (the amd64 ones are "dominated").
const TYPES = [
  instanceType('a.xlarge', 4, 16, 0.1, { arch: 'arm64', family: 'a', spot: false }),
  instanceType('a.2xlarge', 8, 32, 0.2, { arch: 'arm64', family: 'a', spot: false }),
  instanceType('x.xlarge', 4, 16, 0.12, { family: 'x', spot: false }),
  instanceType('x.2xlarge', 8, 32, 0.24, { family: 'x', spot: false }),
  instanceType('x.4xlarge', 16, 64, 0.48, { family: 'x', spot: false }),
];

const cost = (plan: SchedulePlan) =>
  Number(plan.nodeClaims.reduce((s, c) => s + c.instanceTypeOptions[0].price, 0).toFixed(4));

describe('packing mixed pods', () => {
  // 3 amd64-only pods of 1.5 cpu and 2 multi-arch pods of 2.5 cpu: the optimum is an x.2xlarge
  // with the three amd64 pods and one multi-arch pod, and an a.xlarge with the other ($0.34).
  const pods = [
    ...[0, 1, 2].map((i) =>
      pod({
        name: `amd-${i}`,
        requests: { cpu: '1500m', memory: '1Gi' },
        nodeSelector: { 'kubernetes.io/arch': 'amd64' },
      }),
    ),
    ...[0, 1].map((i) => pod({ name: `multi-${i}`, requests: { cpu: '2500m', memory: '1Gi' } })),
  ];

  it('lets amd64-only and multi-arch pods share an amd64 node, and keeps amd64 types despite cheaper arm64 ones', () => {
    const data = input({ pods, pools: [pool(nodePool(), TYPES)] });
    expect(cost(schedule({ ...data, skipImprovement: true }))).toBe(0.48);
    const plan = schedule(data);
    expect(plan.unschedulable).toEqual([]);
    expect(cost(plan)).toBe(0.34);
    const shared = plan.nodeClaims.find((c) => c.instanceTypeOptions[0].instanceType === 'x.2xlarge');
    expect(shared?.pods.filter((p) => p.includes('amd-'))).toHaveLength(3);
    expect(shared?.pods.filter((p) => p.includes('multi-'))).toHaveLength(1);
  });

  it('never puts pods that need different zones on one node', () => {
    const zonal = [0, 1, 2, 3].map((i) =>
      pod({
        name: `z-${i}`,
        requests: { cpu: '500m', memory: '1Gi' },
        nodeSelector: { [ZONE]: i % 2 === 0 ? 'zone-a' : 'zone-b' },
      }),
    );
    const plan = schedule(input({ pods: zonal, pools: [pool(nodePool(), TYPES)] }));
    expect(plan.unschedulable).toEqual([]);
    for (const c of plan.nodeClaims) {
      const zones = new Set(c.pods.map((p) => (Number(p.split('-')[1]) % 2 === 0 ? 'zone-a' : 'zone-b')));
      expect(zones.size).toBe(1);
      expect(c.labels[ZONE]).toBe([...zones][0]);
    }
  });
});
