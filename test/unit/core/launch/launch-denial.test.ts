import { describe, expect, it } from 'vitest';
import { classifyFleetErrors } from '../../../../functions/core/launch/fleet-errors.js';
import {
  isAuthorizationErrorCode,
  LAUNCH_NOT_AUTHORIZED,
  launchDenial,
} from '../../../../functions/core/launch/launch-denial.js';
import { launchNodeClaim } from '../../../../functions/core/launch/launch-nodeclaim.js';
import type { CloudProvider, FleetError } from '../../../../functions/core/ports/cloud-provider.js';
import { nodePool } from '../../../builders/config.js';
import { MemoryStore } from '../provisioning/fakes.js';
import { claim as claimOf, facts, multusNodeClass, option } from './fixtures.js';

/** EC2's UnauthorizedOperation message as it reads since EC2 names the action and resource. */
const SPOT_DENIED =
  'You are not authorized to perform this operation. User: arn:aws:sts::111111111111:assumed-role/joiner-ControllerRole/joiner-provisioner ' +
  'is not authorized to perform: ec2:CreateFleet on resource: arn:aws:ec2:us-west-2:111111111111:spot-instances-request/* ' +
  'because no identity-based policy allows the ec2:CreateFleet action. Encoded authorization failure message: AbCdEf123';

describe('reading a denied launch', () => {
  it('names the action, resource and reason of an EC2 UnauthorizedOperation', () => {
    expect(launchDenial('UnauthorizedOperation', SPOT_DENIED)).toMatchObject({
      code: 'UnauthorizedOperation',
      action: 'ec2:CreateFleet',
      resource: 'arn:aws:ec2:us-west-2:111111111111:spot-instances-request/*',
      because: 'no identity-based policy allows the ec2:CreateFleet action',
      summary: expect.stringContaining(
        'grant ec2:CreateFleet on arn:aws:ec2:us-west-2:111111111111:spot-instances-request/*',
      ),
    });
  });

  it('reads an IAM AccessDenied the same way', () => {
    const message =
      'User: arn:aws:sts::111111111111:assumed-role/r/s is not authorized to perform: iam:GetInstanceProfile on resource: instance profile joiner-abc because no identity-based policy allows the iam:GetInstanceProfile action';
    expect(launchDenial('AccessDenied', message)).toMatchObject({
      action: 'iam:GetInstanceProfile',
      resource: 'instance profile joiner-abc',
    });
  });

  it('turns the missing spot service-linked role into the permission that creates it', () => {
    const denial = launchDenial(
      'AuthFailure.ServiceLinkedRoleCreationNotPermitted',
      'The provided credentials do not have permission to create the service-linked role for EC2 Spot Instances.',
    );
    expect(denial).toMatchObject({
      action: 'iam:CreateServiceLinkedRole',
      resource: expect.stringContaining('aws-service-role/spot.amazonaws.com/AWSServiceRoleForEC2Spot'),
    });
    expect(denial?.summary).toContain('iam:AWSServiceName = spot.amazonaws.com');
  });

  it('says how to decode a message that names no action, and ignores other errors', () => {
    const denial = launchDenial(
      'UnauthorizedOperation',
      'You are not authorized to perform this operation. Encoded authorization failure message: XYZ',
    );
    expect(denial?.action).toBeUndefined();
    expect(denial?.summary).toContain('decode-authorization-message');
    expect(denial?.summary).not.toContain('XYZ');
    expect(launchDenial('InsufficientInstanceCapacity', 'no capacity')).toBeUndefined();
    expect(launchDenial('InvalidParameterValue', 'not authorized to perform: x:Y')).toBeUndefined();
    expect(
      ['UnauthorizedOperation', 'AuthFailure', 'AccessDenied', 'AccessDeniedException'].every(
        isAuthorizationErrorCode,
      ),
    ).toBe(true);
  });

  it('is never an ICE: a denial marks no offering unavailable', () => {
    const attempted = [option('c5.large', 'us-west-2a', 'spot', 0.03)];
    const classified = classifyFleetErrors(
      [{ code: 'UnauthorizedOperation', message: SPOT_DENIED, capacityType: 'spot', zone: 'us-west-2a' }],
      attempted,
    );
    expect(classified.unavailable).toEqual([]);
    expect(classified.fatal).toHaveLength(1);
  });
});

describe('a launch AWS refuses', () => {
  async function launchWith(errors: FleetError[]) {
    const store = new MemoryStore();
    const claim = claimOf([
      option('c5.large', 'us-west-2a', 'spot', 0.03),
      option('c5.large', 'us-west-2a', 'on-demand', 0.08),
    ]);
    await store.createNodeClaim(claim);
    let calls = 0;
    const cloud: CloudProvider = {
      launch: async () => {
        calls++;
        return { ok: false, errors };
      },
      terminate: async () => {},
      get: async () => undefined,
      findByNodeClaim: async () => undefined,
      list: async () => [],
    };
    const result = await launchNodeClaim(
      { cloud, store, clock: { now: () => 1000 } },
      { nodePool: nodePool({ name: 'multus' }), nodeClass: multusNodeClass(), instanceFacts: facts },
      (await store.getNodeClaim(claim.id))!,
    );
    return { result, calls, unavailable: await store.listUnavailableOfferings(1000) };
  }

  it('fails the claim once, naming the permission, and marks nothing unavailable', async () => {
    const { result, calls, unavailable } = await launchWith([
      { code: 'UnauthorizedOperation', message: SPOT_DENIED },
    ]);
    expect(calls).toBe(1);
    expect(unavailable).toEqual([]);
    expect(result).toMatchObject({ outcome: 'failed' });
    if (result.outcome !== 'failed') return;
    expect(result.claim.failure).toEqual({
      reason: LAUNCH_NOT_AUTHORIZED,
      message: expect.stringContaining(
        'ec2:CreateFleet on arn:aws:ec2:us-west-2:111111111111:spot-instances-request/*',
      ),
    });
  });

  it('keeps other non-capacity errors as LaunchFailed', async () => {
    const { result } = await launchWith([{ code: 'InvalidParameterValue', message: 'bad AMI' }]);
    expect(result.outcome === 'failed' && result.claim.failure).toEqual({
      reason: 'LaunchFailed',
      message: 'InvalidParameterValue: bad AMI',
    });
  });
});
