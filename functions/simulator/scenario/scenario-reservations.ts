/** A scenario's capacity reservation as the simulated EC2 takes it. */
import { durationToMs } from '../../core/model/config/duration.js';
import type { CapacityReservationSpec } from '../ec2/capacity-reservations.js';
import type { CapacityReservationDecl } from './reservation-schema.js';

/** The EC2 spec of a declared reservation; `now` (virtual epoch ms) is when it is declared. */
export function reservationSpec(r: CapacityReservationDecl, now: number): CapacityReservationSpec {
  return {
    id: r.id,
    instanceType: r.instanceType,
    availabilityZone: r.availabilityZone,
    count: r.count,
    reservationType: r.type,
    instanceMatchCriteria: r.instanceMatchCriteria,
    startDate: now,
    ...(r.endsAfter === undefined ? {} : { endDate: now + (durationToMs(r.endsAfter) ?? 0) }),
    tags: r.tags,
    ...(r.ownerId === undefined ? {} : { ownerId: r.ownerId }),
  };
}
