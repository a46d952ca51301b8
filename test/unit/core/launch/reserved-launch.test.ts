import { describe, expect, it } from 'vitest';
import { withReservedOfferings } from '../../../../functions/core/catalog/reserved-offerings.js';
import { classifyFleetErrors } from '../../../../functions/core/launch/fleet-errors.js';
import { planLaunch } from '../../../../functions/core/launch/fleet-request.js';
import { nextAttemptOptions } from '../../../../functions/core/launch/launch-options.js';
import { reservationState } from '../../../../functions/core/model/capacity-reservation.js';
import type { ResolvedInstanceType } from '../../../../functions/core/model/instance-type.js';
import type { NodeClaimOption } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { limitReservedOptions } from '../../../../functions/core/provisioning/reserved-capacity.js';
import type { PlannedNodeClaim } from '../../../../functions/core/scheduling/types.js';
import { claim, facts, multusNodeClass, option, resolved } from './fixtures.js';

const ODCR = 'cr-0123456789abcdef0';
const BLOCK = 'cr-0fedcba9876543210';
const reserved = (type: string, zone: string, id: string, kind: 'default' | 'capacity-block' = 'default') =>
  ({
    instanceType: type,
    zone,
    capacityType: 'reserved',
    price: 0.0000000096,
    reservationId: id,
    reservationType: kind,
  }) satisfies NodeClaimOption;

function type(name: string): ResolvedInstanceType {
  return {
    name,
    labels: {},
    capacity: {},
    allocatable: {},
    offerings: [
      { zone: 'us-west-2a', capacityType: 'on-demand', price: 0.096, available: true },
      { zone: 'us-west-2a', capacityType: 'spot', price: 0.04, available: true },
    ],
  };
}

describe('reserved capacity (Karpenter v1.3+)', () => {
  const r = {
    id: ODCR,
    instanceType: 'm5.large',
    zone: 'us-west-2a',
    ownerId: '111111111111',
    instanceMatchCriteria: 'targeted' as const,
    reservationType: 'default' as const,
    availableInstanceCount: 1,
  };

  it('adds a reserved offering priced at the on-demand price / 10,000,000, unavailable when full or marked', () => {
    const [m5, c6i] = withReservedOfferings([type('m5.large'), type('c6i.large')], [r], { now: 0 });
    expect(c6i.offerings).toHaveLength(2);
    expect(m5.offerings[2]).toEqual({
      zone: 'us-west-2a',
      capacityType: 'reserved',
      price: 0.096 / 10_000_000,
      reservationId: ODCR,
      reservationType: 'default',
      reservationInstances: 1,
      available: true,
    });
    const [full] = withReservedOfferings([type('m5.large')], [{ ...r, availableInstanceCount: 0 }], {
      now: 0,
    });
    expect(full.offerings[2].available).toBe(false);
    const [marked] = withReservedOfferings([type('m5.large')], [r], {
      now: 0,
      isUnavailable: (_t, _z, ct) => ct === 'reserved',
    });
    expect(marked.offerings[2].available).toBe(false);
    // A reservation in a zone the NodeClass cannot launch in offers nothing.
    const [elsewhere] = withReservedOfferings([type('m5.large')], [{ ...r, zone: 'us-west-2c' }], { now: 0 });
    expect(elsewhere.offerings).toHaveLength(2);
  });

  it('a Capacity Block is expiring (no offering) from 40 minutes before its end', () => {
    const block = { reservationType: 'capacity-block' as const, endTime: 100 * 60_000 };
    expect(reservationState(block, 59 * 60_000)).toBe('active');
    expect(reservationState(block, 60 * 60_000)).toBe('expiring');
    const [m5] = withReservedOfferings([type('m5.large')], [{ ...r, ...block }], { now: 60 * 60_000 });
    expect(m5.offerings[2].available).toBe(false);
  });

  it('tries reserved first, then spot, then on-demand; ReservationCapacityExceeded moves it on', () => {
    const options = [
      reserved('m5.large', 'us-west-2a', ODCR),
      option('c6i.large', 'us-west-2a', 'spot', 0.03),
      option('c6i.large', 'us-west-2a', 'on-demand', 0.085),
    ];
    expect(nextAttemptOptions(options, [])?.capacityType).toBe('reserved');
    const marks = classifyFleetErrors(
      [
        {
          code: 'ReservationCapacityExceeded',
          message: 'full',
          instanceType: 'm5.large',
          zone: 'us-west-2a',
          capacityType: 'reserved',
        },
      ],
      options.slice(0, 1),
    ).unavailable.map((u) => u.offering);
    expect(marks).toEqual([{ instanceType: 'm5.large', zone: 'us-west-2a', capacityType: 'reserved' }]);
    expect(nextAttemptOptions(options, marks)?.capacityType).toBe('spot');
  });

  it('an attempt never mixes ODCRs and Capacity Blocks (a block wins a price tie)', () => {
    const options = [
      reserved('m5.large', 'us-west-2a', ODCR),
      reserved('m5.large', 'us-west-2b', BLOCK, 'capacity-block'),
    ];
    expect(nextAttemptOptions(options, [])?.options.map((o) => o.reservationId)).toEqual([BLOCK]);
  });

  it('launches into the reservation: a launch template per reservation, targeted, labelled', () => {
    const options = [reserved('m5.large', 'us-west-2a', ODCR)];
    const { request, templates } = planLaunch({
      claim: claim(options),
      nodeClass: multusNodeClass(),
      family: 'AL2023',
      resolved: resolved(),
      options,
      capacityType: 'reserved',
      clientToken: 'tok',
      instanceFacts: facts,
    });
    expect(request.TargetCapacitySpecification.DefaultTargetCapacityType).toBe('on-demand');
    expect(request.OnDemandOptions).toEqual({ AllocationStrategy: 'lowest-price' });
    expect(templates).toHaveLength(1);
    expect(templates[0].data.CapacityReservationSpecification).toEqual({
      CapacityReservationPreference: 'capacity-reservations-only',
      CapacityReservationTarget: { CapacityReservationId: ODCR },
    });
    expect(templates[0].data.InstanceMarketOptions).toBeUndefined();
    expect(templates[0].userData).toContain('karpenter.sh/capacity-type=reserved');

    const blockOptions = [reserved('m5.large', 'us-west-2a', BLOCK, 'capacity-block')];
    const block = planLaunch({
      claim: claim(blockOptions),
      nodeClass: multusNodeClass(),
      family: 'AL2023',
      resolved: resolved(),
      options: blockOptions,
      capacityType: 'reserved',
      clientToken: 'tok',
      instanceFacts: facts,
    });
    expect(block.request.TargetCapacitySpecification.DefaultTargetCapacityType).toBe('capacity-block');
    expect(block.request.OnDemandOptions).toBeUndefined();
    expect(block.templates[0].data.InstanceMarketOptions).toEqual({ MarketType: 'capacity-block' });
  });

  it('offers a reservation to no more claims than it has instances left (pending claims count)', () => {
    const planned = (name: string): PlannedNodeClaim => ({
      name,
      nodePool: 'p',
      pods: [],
      requirements: [],
      labels: {},
      taints: [],
      startupTaints: [],
      requests: {},
      instanceTypeOptions: [
        reserved('m5.large', 'us-west-2a', ODCR),
        option('m5.large', 'us-west-2a', 'on-demand', 0.096),
      ],
    });
    const limited = limitReservedOptions(
      [planned('a'), planned('b')],
      [{ ...r, availableInstanceCount: 1 }],
      [],
    );
    expect(limited.map((p) => p.instanceTypeOptions[0].capacityType)).toEqual(['reserved', 'on-demand']);
    const pending = { ...claim([reserved('m5.large', 'us-west-2a', ODCR)]), state: 'Pending' as const };
    const none = limitReservedOptions([planned('a')], [{ ...r, availableInstanceCount: 1 }], [pending]);
    expect(none[0].instanceTypeOptions.map((o) => o.capacityType)).toEqual(['on-demand']);
  });
});
