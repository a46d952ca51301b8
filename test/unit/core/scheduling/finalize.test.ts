import { describe, expect, it } from 'vitest';
import type { ResolvedInstanceType } from '../../../../functions/core/model/instance-type.js';
import type { Requirement } from '../../../../functions/core/model/requirement.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import type { InstanceTypeOption, PlannedNodeClaim } from '../../../../functions/core/scheduling/types.js';
import { nodePool } from '../../../builders/config.js';
import { pod, pods } from '../../../builders/workloads.js';
import { input, instanceType, pool, ZONES } from './fixtures.js';

const ZONE = 'topology.kubernetes.io/zone';
const CAPACITY_TYPE = 'karpenter.sh/capacity-type';
const INSTANCE_TYPE = 'node.kubernetes.io/instance-type';

/** Two types, spot and on-demand in three zones; spot is cheapest in zone-b. */
function zonedCatalog(): ResolvedInstanceType[] {
  const zonePrice = { 'zone-a': 0.05, 'zone-b': 0.04, 'zone-c': 0.06 } as Record<string, number>;
  return [instanceType('c.xlarge', 4, 8, 0.17), instanceType('m.xlarge', 4, 16, 0.192)].map((t) => ({
    ...t,
    offerings: t.offerings.map((o) =>
      o.capacityType === 'spot' ? { ...o, price: zonePrice[o.zone] * (t.name === 'c.xlarge' ? 1 : 1.2) } : o,
    ),
  }));
}

function planOne(requirements: Requirement[] = [], types = zonedCatalog(), nodeSelector = {}) {
  const plan = schedule(
    input({
      pods: [pod({ requests: { cpu: '3' }, nodeSelector })],
      pools: [pool(nodePool({ requirements }), types)],
    }),
  );
  expect(plan.unschedulable).toEqual([]);
  expect(plan.nodeClaims).toHaveLength(1);
  return plan.nodeClaims[0];
}

const key = (o: InstanceTypeOption) => `${o.capacityType} ${o.instanceType} ${o.zone} ${o.price}`;

function typesRequirement(claim: PlannedNodeClaim): readonly string[] | undefined {
  return claim.requirements.find((r) => r.key === INSTANCE_TYPE)?.values;
}

describe('nodeclaim options: every allowed offering', () => {
  it('lists spot in every zone first, cheapest first (ties by type), then on-demand in every zone', () => {
    const claim = planOne();
    expect(claim.instanceTypeOptions.map(key)).toEqual([
      'spot c.xlarge zone-b 0.04',
      'spot m.xlarge zone-b 0.048',
      'spot c.xlarge zone-a 0.05',
      'spot c.xlarge zone-c 0.06',
      'spot m.xlarge zone-a 0.06',
      'spot m.xlarge zone-c 0.072',
      'on-demand c.xlarge zone-a 0.17',
      'on-demand c.xlarge zone-b 0.17',
      'on-demand c.xlarge zone-c 0.17',
      'on-demand m.xlarge zone-a 0.192',
      'on-demand m.xlarge zone-b 0.192',
      'on-demand m.xlarge zone-c 0.192',
    ]);
    expect(typesRequirement(claim)).toEqual(['c.xlarge', 'm.xlarge']);
  });

  it('keeps the plan cost: the first option is the cheapest of the preferred capacity type', () => {
    const plan = schedule(
      input({
        pods: pods(5, 'web', { requests: { cpu: '3' } }),
        pools: [pool(nodePool(), zonedCatalog())],
      }),
    );
    for (const claim of plan.nodeClaims) {
      const spot = claim.instanceTypeOptions.filter((o) => o.capacityType === 'spot');
      expect(claim.instanceTypeOptions[0]).toEqual(spot[0]);
      expect(claim.instanceTypeOptions[0].price).toBe(Math.min(...spot.map((o) => o.price)));
    }
  });

  it('lists no spot for an on-demand-only pool, in every zone', () => {
    const claim = planOne([{ key: CAPACITY_TYPE, operator: 'In', values: ['on-demand'] }]);
    expect(claim.instanceTypeOptions.every((o) => o.capacityType === 'on-demand')).toBe(true);
    expect(claim.instanceTypeOptions).toHaveLength(6);
    expect(new Set(claim.instanceTypeOptions.map((o) => o.zone))).toEqual(new Set(ZONES));
  });

  it('lists no on-demand when the pod asks for spot', () => {
    const claim = planOne([], zonedCatalog(), { [CAPACITY_TYPE]: 'spot' });
    expect(claim.instanceTypeOptions.map((o) => o.capacityType)).toEqual(Array(6).fill('spot'));
  });

  it('starts with on-demand when no spot is offered, and still lists every zone', () => {
    const types = zonedCatalog().map((t) => ({
      ...t,
      offerings: t.offerings.filter((o) => o.capacityType === 'on-demand'),
    }));
    const claim = planOne([], types);
    expect(claim.instanceTypeOptions[0]).toMatchObject({ capacityType: 'on-demand', price: 0.17 });
    expect(claim.instanceTypeOptions).toHaveLength(6);
  });

  it('lists only the zone a node selector or the pool allows', () => {
    const bySelector = planOne([], zonedCatalog(), { [ZONE]: 'zone-c' });
    expect(new Set(bySelector.instanceTypeOptions.map((o) => o.zone))).toEqual(new Set(['zone-c']));
    expect(bySelector.instanceTypeOptions.map((o) => o.capacityType)).toEqual([
      'spot',
      'spot',
      'on-demand',
      'on-demand',
    ]);
    const byPool = planOne([{ key: ZONE, operator: 'NotIn', values: ['zone-b'] }]);
    expect(byPool.instanceTypeOptions.some((o) => o.zone === 'zone-b')).toBe(false);
    expect(byPool.instanceTypeOptions[0]).toMatchObject({ zone: 'zone-a', capacityType: 'spot' });
  });

  it('lists only the zone topology spread fixed for the claim', () => {
    const replicas = pods(3, 'web', {
      labels: { app: 'web' },
      requests: { cpu: '100m' },
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: ZONE,
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: 'web' } },
        },
      ],
    });
    const plan = schedule(input({ pods: replicas, pools: [pool(nodePool(), zonedCatalog())] }));
    expect(plan.nodeClaims.map((c) => c.labels[ZONE]).sort()).toEqual(ZONES);
    for (const claim of plan.nodeClaims) {
      const zones = new Set(claim.instanceTypeOptions.map((o) => o.zone));
      expect(zones).toEqual(new Set([claim.labels[ZONE]]));
      expect(new Set(claim.instanceTypeOptions.map((o) => o.capacityType))).toEqual(
        new Set(['spot', 'on-demand']),
      );
    }
  });
});

describe('nodeclaim options: the cap', () => {
  /** 40 types (1 vCPU more each, pricier each) in three zones, spot and on-demand. */
  const many = Array.from({ length: 40 }, (_, i) =>
    instanceType(`t${i + 10}.large`, 4 + i, 64, 0.1 + i / 100),
  );

  it('keeps at most 60 options, both capacity types, and the cheapest types in every zone', () => {
    const claim = planOne([], many);
    const options = claim.instanceTypeOptions;
    expect(options).toHaveLength(60);
    const spot = options.filter((o) => o.capacityType === 'spot');
    const onDemand = options.filter((o) => o.capacityType === 'on-demand');
    expect(spot).toHaveLength(40);
    expect(onDemand).toHaveLength(20);
    expect(options.slice(0, 40)).toEqual(spot);
    const zonesOf = (list: InstanceTypeOption[], type: string) =>
      new Set(list.filter((o) => o.instanceType === type).map((o) => o.zone));
    for (const type of ['t10.large', 't11.large', 't20.large'])
      expect(zonesOf(spot, type)).toEqual(new Set(ZONES));
    for (const type of ['t10.large', 't15.large']) expect(zonesOf(onDemand, type)).toEqual(new Set(ZONES));
    expect(spot.some((o) => o.instanceType === 't24.large')).toBe(false);
    expect(options[0]).toMatchObject({ instanceType: 't10.large', capacityType: 'spot' });
    expect(typesRequirement(claim)).toEqual(Array.from({ length: 14 }, (_, i) => `t${i + 10}.large`));
  });

  it('gives the preferred capacity type what the other leaves unused', () => {
    const mostlySpot = many.map((t, i) => ({
      ...t,
      offerings: t.offerings.filter((o) => o.capacityType === 'spot' || (i === 0 && o.zone === 'zone-a')),
    }));
    const options = planOne([], mostlySpot).instanceTypeOptions;
    expect(options).toHaveLength(60);
    expect(options.filter((o) => o.capacityType === 'on-demand')).toHaveLength(1);
    expect(options[59]).toMatchObject({ instanceType: 't10.large', capacityType: 'on-demand' });
  });

  it('honours a smaller cap', () => {
    const plan = schedule(
      input({
        pods: [pod({ requests: { cpu: '3' } })],
        pools: [pool(nodePool(), many)],
        maxInstanceTypeOptions: 1,
      }),
    );
    expect(plan.nodeClaims[0].instanceTypeOptions).toHaveLength(1);
    expect(plan.nodeClaims[0].instanceTypeOptions[0]).toMatchObject({
      instanceType: 't10.large',
      zone: 'zone-a',
      capacityType: 'spot',
    });
  });
});
