/**
 * A reservation-only NodePool in the scheduler (Karpenter v1.3+): it offers only its reserved
 * offerings, opens at most as many claims as its reservations have instances left, each claim's
 * options are reservations only, and the pods beyond go to the next NodePool by weight in the same
 * plan, or stay pending with the reason naming the reservations. Reserved instances are counted
 * across the plan's claims of every pool.
 */
import { describe, expect, it } from 'vitest';
import type { ResolvedInstanceType } from '../../../../functions/core/model/instance-type.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import { nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';
import { input, instanceType, pool } from './fixtures.js';

const RESERVED = { key: 'karpenter.sh/capacity-type', operator: 'In' as const, values: ['reserved'] };

/** m.large with a reservation of `left` instances in zone-b, and m.xlarge without one. */
function catalog(left: number): ResolvedInstanceType[] {
  const large = instanceType('m.large', 2, 8, 0.096, { spot: false });
  return [
    {
      ...large,
      offerings: [
        ...large.offerings,
        {
          zone: 'zone-b',
          capacityType: 'reserved',
          price: 0.096 / 10_000_000,
          available: left > 0,
          reservationId: 'cr-1',
          reservationType: 'default',
          reservationInstances: left,
        },
      ],
    },
    instanceType('m.xlarge', 4, 16, 0.192, { spot: false }),
  ];
}

const pods = [0, 1, 2].map((i) => pod({ name: `p-${i}`, requests: { cpu: '1500m' } }));

describe('a reservation-only pool', () => {
  it('plans one claim per reservation instance, in the reservation zone, with reserved options only', () => {
    const plan = schedule(
      input({ pods, pools: [pool(nodePool({ name: 'res', requirements: [RESERVED] }), catalog(2))] }),
    );
    expect(plan.nodeClaims).toHaveLength(2);
    for (const c of plan.nodeClaims) {
      expect(
        c.instanceTypeOptions.map((o) => `${o.instanceType}/${o.zone}/${o.capacityType}/${o.reservationId}`),
      ).toEqual(['m.large/zone-b/reserved/cr-1']);
    }
    expect(plan.unschedulable).toEqual([
      {
        pod: 'default/p-2',
        reason: expect.stringContaining(
          'nodepool res: allows only capacity type reserved and its capacity reservations (cr-1) have no instances left',
        ),
      },
    ]);
  });

  it('sends the pods beyond its reservations to the next pool by weight in the same plan', () => {
    const plan = schedule(
      input({
        pods,
        pools: [
          pool(nodePool({ name: 'res', weight: 10, requirements: [RESERVED] }), catalog(2)),
          pool(nodePool({ name: 'od' }), catalog(2)),
        ],
      }),
    );
    expect(plan.unschedulable).toEqual([]);
    expect(
      plan.nodeClaims.map((c) => `${c.nodePool}:${c.instanceTypeOptions[0].capacityType}`).sort(),
    ).toEqual(['od:on-demand', 'res:reserved', 'res:reserved']);
    // The other pool may use the reservation too, but the plan counts its instances: none is left
    // for it, so its claim has no reserved option.
    const od = plan.nodeClaims.find((c) => c.nodePool === 'od')!;
    expect(od.instanceTypeOptions.every((o) => o.capacityType === 'on-demand')).toBe(true);
  });

  it('with no instance left opens no claim', () => {
    const plan = schedule(
      input({ pods, pools: [pool(nodePool({ name: 'res', requirements: [RESERVED] }), catalog(0))] }),
    );
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable).toHaveLength(3);
  });
});
