import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../functions/core/model/kube-objects.js';
import { podRequests } from '../../../../functions/core/scheduling/pod-requests.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import { tolerates } from '../../../../functions/core/scheduling/tolerations.js';
import type { ScheduleInput } from '../../../../functions/core/scheduling/types.js';
import { nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';
import { existing, input, instanceType, pool, smallCatalog, ZONES } from './fixtures.js';

const ZONE = 'topology.kubernetes.io/zone';
const HOSTNAME = 'kubernetes.io/hostname';
const TAINT = { key: 'team', value: 'x', effect: 'NoSchedule' as const };
const TYPES = [...smallCatalog(), instanceType('m6g.xlarge', 4, 16, 0.154, { arch: 'arm64' })];

const podArb = fc.record({
  cpu: fc.constantFrom(100, 250, 500, 1000, 1500, 3000),
  memMi: fc.constantFrom(128, 512, 1024, 4096, 12288),
  arch: fc.constantFrom(undefined, 'amd64', 'arm64'),
  tolerates: fc.boolean(),
  app: fc.constantFrom('a', 'b', 'c'),
  anti: fc.boolean(),
});

const scenarioArb = fc.record({
  pods: fc.array(podArb, { minLength: 1, maxLength: 40 }),
  spreadApps: fc.subarray(['a', 'b', 'c']),
  taintedPool: fc.boolean(),
  armPool: fc.boolean(),
  cpuLimit: fc.constantFrom(undefined, 8000, 16000, 40000),
  nodes: fc.array(
    fc.record({
      cpu: fc.constantFrom(1000, 2000, 4000),
      zone: fc.constantFrom(...ZONES),
      tainted: fc.boolean(),
    }),
    { maxLength: 3 },
  ),
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function build(s: Scenario): ScheduleInput {
  const pods: Pod[] = s.pods.map((p, i) =>
    pod({
      name: `p-${i}`,
      labels: { app: p.app, ...(p.anti ? { anti: 'yes' } : {}) },
      requests: { cpu: `${p.cpu}m`, memory: `${p.memMi}Mi` },
      ...(p.arch ? { nodeSelector: { 'kubernetes.io/arch': p.arch } } : {}),
      ...(p.tolerates ? { tolerations: [{ key: 'team', operator: 'Exists' as const }] } : {}),
      ...(s.spreadApps.includes(p.app)
        ? {
            topologySpreadConstraints: [
              {
                maxSkew: 1,
                topologyKey: ZONE,
                whenUnsatisfiable: 'DoNotSchedule' as const,
                labelSelector: { matchLabels: { app: p.app } },
                // Every pod of an app counts every node, so the skew holds across all of them
                // (with the default Honor, pods with another nodeSelector count other nodes).
                nodeAffinityPolicy: 'Ignore' as const,
              },
            ],
          }
        : {}),
      ...(p.anti
        ? {
            affinity: {
              podAntiAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: [
                  { topologyKey: HOSTNAME, labelSelector: { matchLabels: { anti: 'yes' } } },
                ],
              },
            },
          }
        : {}),
    }),
  );
  const pools = [
    pool(
      nodePool({
        name: 'main',
        limits: s.cpuLimit ? { cpu: s.cpuLimit } : {},
        ...(s.taintedPool ? { taints: [TAINT] } : {}),
      }),
      TYPES,
    ),
    ...(s.armPool
      ? [
          pool(
            nodePool({
              name: 'arm',
              weight: 5,
              requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] }],
            }),
            TYPES,
          ),
        ]
      : []),
  ];
  const nodes = s.nodes.map((n, i) =>
    existing(`node-${i}`, {
      labels: { [ZONE]: n.zone, 'kubernetes.io/arch': 'amd64' },
      allocatable: { cpu: n.cpu, memory: 2 ** 34, pods: 110 },
      taints: n.tainted ? [TAINT] : [],
    }),
  );
  return input({ pods, pools, nodes });
}

function sum(pods: readonly Pod[], res: string): number {
  return pods.reduce((t, p) => t + (podRequests(p)[res] ?? 0), 0);
}

describe('schedule properties', () => {
  it('places every pod once or explains it, and every placement respects capacity, selectors, taints, spreads, anti-affinity and limits', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const inp = build(s);
        const plan = schedule(inp);
        const byId = new Map(inp.pods.map((p) => [`default/${p.metadata.name}`, p]));
        const seen = [
          ...plan.nodeClaims.flatMap((c) => c.pods),
          ...plan.existingPlacements.flatMap((e) => e.pods),
          ...plan.unschedulable.map((u) => u.pod),
        ];
        expect([...seen].sort()).toEqual([...byId.keys()].sort());
        for (const u of plan.unschedulable) expect(u.reason.length).toBeGreaterThan(5);
        const zoneCounts = new Map<string, Map<string, number>>();
        const count = (app: string, zone: string) => {
          const m = zoneCounts.get(app) ?? new Map<string, number>();
          m.set(zone, (m.get(zone) ?? 0) + 1);
          zoneCounts.set(app, m);
        };
        let limitUse = 0;
        for (const c of plan.nodeClaims) {
          const pods = c.pods.map((id) => byId.get(id)!);
          const sp = inp.pools.find((p) => p.pool.name === c.nodePool)!;
          expect(c.instanceTypeOptions.length).toBeGreaterThan(0);
          for (const o of c.instanceTypeOptions) {
            const t = sp.instanceTypes.find((x) => x.name === o.instanceType)!;
            for (const res of ['cpu', 'memory', 'pods'])
              expect(sum(pods, res)).toBeLessThanOrEqual(t.allocatable[res]);
            for (const p of pods) {
              const arch = p.spec.nodeSelector?.['kubernetes.io/arch'];
              if (arch) expect(t.labels['kubernetes.io/arch']).toBe(arch);
            }
          }
          for (const p of pods) expect(tolerates(p.spec.tolerations, c.taints)).toBe(true);
          expect(pods.filter((p) => p.metadata.labels?.anti).length).toBeLessThanOrEqual(1);
          for (const p of pods)
            if (s.spreadApps.includes(p.metadata.labels!.app)) count(p.metadata.labels!.app, c.labels[ZONE]);
          if (c.nodePool === 'main')
            limitUse += sp.instanceTypes.find((x) => x.name === c.instanceTypeOptions[0].instanceType)!
              .capacity.cpu;
        }
        if (s.cpuLimit) expect(limitUse).toBeLessThanOrEqual(s.cpuLimit);
        for (const e of plan.existingPlacements) {
          const n = inp.nodes.find((x) => x.name === e.node)!;
          const pods = e.pods.map((id) => byId.get(id)!);
          expect(sum(pods, 'cpu')).toBeLessThanOrEqual(n.allocatable.cpu);
          for (const p of pods) {
            expect(tolerates(p.spec.tolerations, n.taints)).toBe(true);
            const arch = p.spec.nodeSelector?.['kubernetes.io/arch'];
            if (arch) expect(n.labels['kubernetes.io/arch']).toBe(arch);
            if (s.spreadApps.includes(p.metadata.labels!.app)) count(p.metadata.labels!.app, n.labels[ZONE]);
          }
          expect(pods.filter((p) => p.metadata.labels?.anti).length).toBeLessThanOrEqual(1);
        }
        for (const counts of zoneCounts.values()) {
          expect([...counts.keys()].every((z) => z !== undefined)).toBe(true);
          const values = ZONES.map((z) => counts.get(z) ?? 0);
          expect(Math.max(...values) - Math.min(...values)).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 150, seed: 7 },
    );
  });

  it('is deterministic for any input', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        expect(schedule(build(s))).toEqual(schedule(build(s)));
      }),
      { numRuns: 40, seed: 11 },
    );
  });
});
