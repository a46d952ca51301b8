/**
 * DescribeCapacityReservations: by `CapacityReservationId.N` (an unknown id is
 * `InvalidCapacityReservationId.NotFound`, as in EC2) and/or filters (`state`, `owner-id`,
 * `instance-type`, `availability-zone`, `instance-match-criteria`, `reservation-type`,
 * `end-date-type`, `tenancy`, `instance-platform`, `tag:<key>`, `tag-key`), paginated with
 * `MaxResults` 1-1000 (not allowed with ids), in EC2's `capacityReservationSet` shape.
 */
import {
  availableInstanceCount,
  type Ec2CapacityReservation,
  reservationState,
} from '../capacity-reservations.js';
import type { Ec2Context } from '../context.js';
import { Ec2Error } from '../ec2-error.js';
import { checkFilterNames, matchesFilters, parseFilters, tagSet } from '../filters.js';
import { paginate } from '../pagination.js';
import type { XmlObject } from '../xml-response.js';
import type { Ec2Action } from './action.js';

const FILTERS = [
  'state',
  'owner-id',
  'instance-type',
  'availability-zone',
  'instance-match-criteria',
  'reservation-type',
  'end-date-type',
  'tenancy',
  'instance-platform',
];

export const describeCapacityReservations: Ec2Action = (ctx, params) => {
  const ids = params.strings('CapacityReservationId');
  if (ids.length > 0 && params.has('MaxResults'))
    throw new Ec2Error(
      'InvalidParameterCombination',
      'The parameter MaxResults cannot be used with the parameter CapacityReservationId',
    );
  const filters = parseFilters(params);
  checkFilterNames(filters, FILTERS, 'DescribeCapacityReservations');
  for (const id of ids) {
    if (!ctx.state.capacityReservations.has(id))
      throw new Ec2Error(
        'InvalidCapacityReservationId.NotFound',
        `The capacity reservation ID '${id}' does not exist`,
      );
  }
  const all = [...ctx.state.capacityReservations.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  const selected = all.filter(
    (r) => (ids.length === 0 || ids.includes(r.id)) && matchesFilters(filters, fields(ctx, r), r.tags),
  );
  const page = paginate(selected, params, 'DescribeCapacityReservations', { min: 1, max: 1000 });
  return {
    capacityReservationSet: page.items.map((r) => capacityReservationXml(ctx, r)),
    nextToken: page.nextToken,
  };
};

function fields(ctx: Ec2Context, r: Ec2CapacityReservation) {
  return {
    state: [reservationState(ctx, r)],
    'owner-id': [r.ownerId],
    'instance-type': [r.instanceType],
    'availability-zone': [r.availabilityZone],
    'instance-match-criteria': [r.instanceMatchCriteria],
    'reservation-type': [r.reservationType],
    'end-date-type': [r.endDate === undefined ? 'unlimited' : 'limited'],
    tenancy: ['default'],
    'instance-platform': ['Linux/UNIX'],
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** `CapacityReservation`. */
export function capacityReservationXml(ctx: Ec2Context, r: Ec2CapacityReservation): XmlObject {
  return {
    capacityReservationId: r.id,
    ownerId: r.ownerId,
    capacityReservationArn: `arn:aws:ec2:${ctx.region}:${r.ownerId}:capacity-reservation/${r.id}`,
    availabilityZoneId: ctx.state.zoneId(r.availabilityZone),
    instanceType: r.instanceType,
    instancePlatform: 'Linux/UNIX',
    availabilityZone: r.availabilityZone,
    tenancy: 'default',
    totalInstanceCount: r.totalInstanceCount,
    availableInstanceCount: availableInstanceCount(ctx, r),
    ebsOptimized: true,
    ephemeralStorage: false,
    state: reservationState(ctx, r),
    startDate: iso(r.startDate),
    endDate: r.endDate === undefined ? undefined : iso(r.endDate),
    endDateType: r.endDate === undefined ? 'unlimited' : 'limited',
    instanceMatchCriteria: r.instanceMatchCriteria,
    createDate: iso(r.startDate),
    tagSet: tagSet(r.tags),
    reservationType: r.reservationType,
    deliveryPreference: r.reservationType === 'capacity-block' ? 'fixed' : undefined,
  };
}
