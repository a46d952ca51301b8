/**
 * The spot service-linked role (`AWSServiceRoleForEC2Spot`) of a fresh account: absent until the
 * first spot request, which creates it only when the caller may `iam:CreateServiceLinkedRole` for
 * `spot.amazonaws.com`; otherwise the spot launch fails with
 * `AuthFailure.ServiceLinkedRoleCreationNotPermitted` (for an instant fleet, an entry of its
 * Errors; for RunInstances, the call's error).
 */
import type { Ec2Context } from '../context.js';
import { Ec2Error } from '../ec2-error.js';
import { firstDenial } from './ec2-caller.js';

/** The SLR's service principal. */
export const SPOT_SERVICE = 'spot.amazonaws.com';

/** ARN of the spot service-linked role in an account. */
export function spotServiceLinkedRoleArn(accountId: string): string {
  return `arn:aws:iam::${accountId}:role/aws-service-role/${SPOT_SERVICE}/AWSServiceRoleForEC2Spot`;
}

/** Makes sure the spot SLR exists before a spot launch, creating it as the caller; throws EC2's error when it may not. */
export function ensureSpotServiceLinkedRole(ctx: Ec2Context): void {
  if (ctx.state.spotServiceLinkedRole) return;
  const denial = firstDenial(ctx, [
    {
      action: 'iam:CreateServiceLinkedRole',
      resourceType: 'role',
      resource: spotServiceLinkedRoleArn(ctx.state.topology.accountId),
      context: { 'iam:AWSServiceName': SPOT_SERVICE },
    },
  ]);
  if (denial) {
    throw new Ec2Error(
      'AuthFailure.ServiceLinkedRoleCreationNotPermitted',
      'The provided credentials do not have permission to create the service-linked role for EC2 Spot Instances.',
      403,
    );
  }
  ctx.state.spotServiceLinkedRole = true;
  ctx.state.spotServiceLinkedRoleCreatedAt = ctx.clock.now();
}
