/**
 * Unconstrained pods taken off claims that first-fit-decreasing grew for them: a pod that upgrades
 * a constrained claim's type by more than a node of its own costs gets a node of its own; where
 * sharing is cheaper the pods stay together. The plan never costs more than first-fit-decreasing,
 * and every node is the cheapest type that holds exactly its pods.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../functions/core/model/kube-objects.js';
import { podRequests } from '../../../../functions/core/scheduling/pod-requests.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import type { SchedulePlan } from '../../../../functions/core/scheduling/types.js';
import { nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';
import { input, instanceType, pool } from './fixtures.js';

const HOSTNAME = 'kubernetes.io/hostname';
/** m5-like on-demand prices: large 2 vCPU, xlarge 4, 2xlarge 8, 4xlarge 16. */
const M5 = [
  instanceType('m5.large', 2, 8, 0.096, { spot: false }),
  instanceType('m5.xlarge', 4, 16, 0.192, { spot: false }),
  instanceType('m5.2xlarge', 8, 32, 0.384, { spot: false }),
  instanceType('m5.4xlarge', 16, 64, 0.768, { spot: false }),
];

const cost = (plan: SchedulePlan) =>
  Number(plan.nodeClaims.reduce((s, c) => s + c.instanceTypeOptions[0].price, 0).toFixed(4));

function antiAffine(name: string, cpu: string, app = 'web'): Pod {
  return pod({
    name,
    labels: { app },
    requests: { cpu, memory: '1Gi' },
    affinity: {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: HOSTNAME, labelSelector: { matchLabels: { app } } },
        ],
      },
    },
  });
}

/** Per node: `type: pods`, sorted. */
const layout = (plan: SchedulePlan) =>
  plan.nodeClaims
    .map((c) => `${c.instanceTypeOptions[0].instanceType}: ${[...c.pods].sort().join(',')}`)
    .sort();

describe('unconstrained pods off constrained claims', () => {
  const pods = [
    ...[0, 1, 2].map((i) => antiAffine(`web-${i}`, '1')),
    pod({ name: 'batch', requests: { cpu: '3', memory: '2Gi' } }),
  ];

  it('three anti-affine 1-CPU replicas and a 3-CPU pod: 3 × large + xlarge, not 2xlarge + 2 × large', () => {
    const data = input({ pods, pools: [pool(nodePool(), M5)] });
    // First-fit-decreasing alone puts a replica beside the big pod and upgrades that node.
    expect(cost(schedule({ ...data, skipImprovement: true }))).toBe(0.576);
    const plan = schedule(data);
    expect(plan.unschedulable).toEqual([]);
    expect(cost(plan)).toBe(0.48);
    expect(layout(plan)).toEqual([
      'm5.large: default/web-0',
      'm5.large: default/web-1',
      'm5.large: default/web-2',
      'm5.xlarge: default/batch',
    ]);
  });

  it('keeps a pod beside a replica when sharing the larger node is cheaper than a node of its own', () => {
    // A 4-vCPU type barely dearer than a 2-vCPU one: replica + 2-CPU pod on one x.xlarge ($0.12)
    // beats x.large + x.xlarge ($0.22).
    const types = [
      instanceType('x.large', 2, 8, 0.1, { spot: false }),
      instanceType('x.xlarge', 4, 16, 0.12, { spot: false }),
    ];
    const plan = schedule(
      input({
        pods: [antiAffine('web-0', '1'), pod({ name: 'job', requests: { cpu: '2', memory: '1Gi' } })],
        pools: [pool(nodePool(), types)],
      }),
    );
    expect(layout(plan)).toEqual(['x.xlarge: default/job,default/web-0']);
  });

  it('fills the room a replica leaves without a new node', () => {
    const plan = schedule(
      input({
        pods: [
          ...[0, 1].map((i) => antiAffine(`web-${i}`, '1')),
          ...[0, 1].map((i) => pod({ name: `small-${i}`, requests: { cpu: '500m', memory: '1Gi' } })),
        ],
        pools: [pool(nodePool(), M5)],
      }),
    );
    expect(cost(plan)).toBe(0.192);
    expect(plan.nodeClaims).toHaveLength(2);
  });

  it('leaves pools with limits as first-fit-decreasing placed them', () => {
    const data = input({ pods, pools: [pool(nodePool({ limits: { cpu: 64_000 } }), M5)] });
    expect(layout(schedule(data))).toEqual(layout(schedule({ ...data, skipImprovement: true })));
  });

  it('never costs more than first-fit-decreasing, and each node is the cheapest type for its pods', () => {
    const podArb = fc.record({
      cpu: fc.constantFrom(250, 500, 1000, 1500, 3000, 5000),
      app: fc.constantFrom(undefined, 'a', 'b'),
    });
    fc.assert(
      fc.property(fc.array(podArb, { minLength: 1, maxLength: 24 }), (specs) => {
        const list = specs.map((s, i) =>
          s.app
            ? antiAffine(`p-${i}`, `${s.cpu}m`, s.app)
            : pod({ name: `p-${i}`, requests: { cpu: `${s.cpu}m`, memory: '1Gi' } }),
        );
        const data = input({ pods: list, pools: [pool(nodePool(), M5)] });
        const plan = schedule(data);
        expect(plan.unschedulable).toEqual([]);
        expect(cost(plan)).toBeLessThanOrEqual(cost(schedule({ ...data, skipImprovement: true })));
        const byId = new Map(list.map((p) => [`default/${p.metadata.name}`, p]));
        for (const c of plan.nodeClaims) {
          const podsOn = c.pods.map((id) => byId.get(id)!);
          const apps = podsOn.map((p) => p.metadata.labels?.app).filter((a) => a !== undefined);
          expect(new Set(apps).size).toBe(apps.length);
          const need = (res: string) => podsOn.reduce((t, p) => t + (podRequests(p)[res] ?? 0), 0);
          const cheapest = Math.min(
            ...M5.filter((t) => ['cpu', 'memory', 'pods'].every((r) => need(r) <= t.allocatable[r])).map(
              (t) => t.offerings[0].price,
            ),
          );
          expect(c.instanceTypeOptions[0].price).toBe(cheapest);
        }
      }),
      { numRuns: 60, seed: 27 },
    );
  });
});
