import { describe, expect, it } from 'vitest';
import type { CapacityReservation } from '../../../../functions/core/model/capacity-reservation.js';
import { capacityReservationStatus } from '../../../../functions/core/status/capacity-reservation-status.js';
import { nodeClassStatus } from '../../../../functions/core/status/nodeclass-status.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const MIN = 60_000;

const odcr: CapacityReservation = {
  id: 'cr-0b00000000000000a',
  instanceType: 'm5.large',
  zone: 'us-west-2a',
  ownerId: '111122223333',
  instanceMatchCriteria: 'targeted',
  reservationType: 'default',
  availableInstanceCount: 2,
};
const block: CapacityReservation = {
  id: 'cr-0a00000000000000b',
  instanceType: 'p5.48xlarge',
  zone: 'us-west-2b',
  ownerId: '444455556666',
  instanceMatchCriteria: 'targeted',
  reservationType: 'capacity-block',
  endTime: NOW + 39 * MIN,
  availableInstanceCount: 0,
};

describe('EC2NodeClass status: capacity reservations', () => {
  it('lists the reservations by id with Karpenter’s fields; a block within 40 minutes of its end is expiring', () => {
    const status = capacityReservationStatus([odcr, block], NOW);
    expect(status.capacityReservations).toEqual([
      {
        availabilityZone: 'us-west-2b',
        endTime: '2026-03-01T12:39:00Z',
        id: 'cr-0a00000000000000b',
        instanceMatchCriteria: 'targeted',
        instanceType: 'p5.48xlarge',
        ownerID: '444455556666',
        reservationType: 'capacity-block',
        interruptible: false,
        state: 'expiring',
      },
      {
        availabilityZone: 'us-west-2a',
        id: 'cr-0b00000000000000a',
        instanceMatchCriteria: 'targeted',
        instanceType: 'm5.large',
        ownerID: '111122223333',
        reservationType: 'default',
        interruptible: false,
        state: 'active',
      },
    ]);
    expect(status.condition).toMatchObject({ type: 'CapacityReservationsReady', status: 'True' });
    expect(
      capacityReservationStatus([{ ...block, endTime: NOW + 41 * MIN }], NOW).capacityReservations?.[0].state,
    ).toBe('active');
  });

  it('nothing selected: no list, and the condition is True (as Karpenter sets it)', () => {
    expect(capacityReservationStatus([], NOW)).toEqual({
      condition: expect.objectContaining({ type: 'CapacityReservationsReady', status: 'True' }),
    });
  });

  it('a failed DescribeCapacityReservations leaves the condition Unknown with the error', () => {
    const status = capacityReservationStatus(new Error('RequestLimitExceeded: slow down'), NOW);
    expect(status.capacityReservations).toBeUndefined();
    expect(status.condition).toMatchObject({
      status: 'Unknown',
      reason: 'DescribeFailed',
      message: 'RequestLimitExceeded: slow down',
    });
  });

  it('the NodeClass status carries them, the condition placed before Ready', () => {
    const resolution = {
      subnetIds: ['subnet-1'],
      securityGroupIds: ['sg-1'],
      imageIds: ['ami-1'],
      zones: ['us-west-2a'],
    };
    const status = nodeClassStatus({ ready: true, resolution } as never, NOW, [odcr]);
    expect((status.capacityReservations as { id: string }[]).map((r) => r.id)).toEqual([odcr.id]);
    expect((status.conditions as { type: string }[]).map((c) => c.type)).toEqual([
      'ValidationSucceeded',
      'SubnetsReady',
      'SecurityGroupsReady',
      'AMIsReady',
      'CapacityReservationsReady',
      'Ready',
    ]);
    expect(nodeClassStatus({ ready: true, resolution } as never, NOW)).not.toHaveProperty(
      'capacityReservations',
    );
  });
});
