/**
 * The capacity reservation a launch targets, as a resource of the launch's authorization: a
 * RunInstances or CreateFleet whose launch template names a `CapacityReservationTarget` is also
 * authorized against that reservation's ARN (in its owner's account, which may be another one
 * when the reservation is shared), with the reservation's tags as resource tags.
 */
import type { Ec2Context } from '../context.js';
import type { LaunchData } from '../launch-template-data.js';
import type { Ec2Check } from './ec2-caller.js';
import { resourceTagContext } from './ec2-caller.js';

/** The launch's `capacity-reservation` resource and its context, or nothing when it targets none. */
export function reservationResource(
  ctx: Ec2Context,
  data: LaunchData,
): Pick<Ec2Check, 'resource' | 'context'> | undefined {
  const id = data.capacityReservation?.capacityReservationId;
  if (!id) return undefined;
  const reservation = ctx.state.capacityReservations.get(id);
  const where = { region: ctx.region, account: reservation?.ownerId ?? ctx.state.topology.accountId };
  const resource = ctx.caller
    ? ctx.caller.reference.arn('ec2', 'capacity-reservation', where, id)
    : `arn:aws:ec2:${where.region}:${where.account}:capacity-reservation/${id}`;
  return {
    resource,
    context: resourceTagContext(reservation?.tags ?? {}),
  };
}
