import { describe, expect, it } from 'vitest';
import { LAUNCH_FAILURE_REASONS } from '../../../../functions/core/launch/launch-denial.js';
import type { Node } from '../../../../functions/core/model/kube-objects.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { nodeClassStatus, readinessOf } from '../../../../functions/core/status/nodeclass-status.js';
import {
  LAUNCH_FAILURE_REPORTED_MS,
  latestLaunchFailure,
  nodePoolStatus,
} from '../../../../functions/core/status/nodepool-status.js';
import { nodePool } from '../../../builders/config.js';
import { pendingClaim } from '../lifecycle/fakes.js';

const NOW = Date.UTC(2026, 5, 1);
const node = (cpu: string, memory: string): Node =>
  ({ metadata: { name: `n-${cpu}` }, status: { capacity: { cpu, memory, pods: '29' } } }) as unknown as Node;
const resolution = {
  imageIds: ['ami-1'],
  subnetIds: ['subnet-1', 'subnet-2'],
  securityGroupIds: ['sg-1'],
  zones: ['us-west-2a'],
};

describe('nodePoolStatus', () => {
  it('sums the capacity of its nodes and counts its nodeclaims', () => {
    const status = nodePoolStatus({
      pool: nodePool(),
      claims: [pendingClaim('a', NOW), pendingClaim('b', NOW), pendingClaim('c', NOW)],
      nodes: [node('2', '4Gi'), node('4', '8Gi')],
      nodeClass: { ready: true, resolution },
      now: NOW,
    });
    expect(status.resources).toEqual({
      nodes: '3',
      cpu: '6',
      memory: '12Gi',
      pods: '58',
      'ephemeral-storage': '0',
    });
    // status.nodes: the count `kubectl scale nodepool` shows for a static pool (Karpenter v1.8).
    expect(status.nodes).toBe(3);
    expect(status.conditions.map((c) => [c.type, c.status])).toEqual([
      ['ValidationSucceeded', 'True'],
      ['NodeClassReady', 'True'],
      ['LaunchSucceeded', 'True'],
      ['Ready', 'True'],
    ]);
  });

  it('is not Ready when its NodeClass does not resolve, and says why', () => {
    const nodeClass = readinessOf(new Error('NodeClass default: subnetSelectorTerms match no subnet'));
    const status = nodePoolStatus({ pool: nodePool(), claims: [], nodes: [], nodeClass, now: NOW });
    expect(status.conditions.find((c) => c.type === 'NodeClassReady')).toMatchObject({
      status: 'False',
      reason: 'SubnetsNotFound',
      message: 'NodeClass default: subnetSelectorTerms match no subnet',
    });
    expect(status.conditions.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'NodeClassNotReady',
    });
    const missing = nodePoolStatus({
      pool: nodePool(),
      claims: [],
      nodes: [],
      nodeClass: undefined,
      now: NOW,
    });
    expect(missing.conditions.find((c) => c.type === 'NodeClassReady')?.reason).toBe('NodeClassNotFound');
  });

  it('notes the limits it reached', () => {
    const pool = { ...nodePool(), limits: { cpu: 4000 } };
    const status = nodePoolStatus({
      pool,
      claims: [],
      nodes: [node('4', '8Gi')],
      nodeClass: { ready: true, resolution },
      now: NOW,
    });
    expect(status.conditions.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'True',
      message: 'limits reached: cpu',
    });
  });
});

describe('a NodePool whose launches fail', () => {
  const denied =
    'UnauthorizedOperation: the controller role may not ec2:CreateFleet on arn:aws:ec2:us-west-2:111111111111:spot-instances-request/*';
  const gone = (id: string, at: number, reason: string, message = denied): NodeClaim => ({
    ...pendingClaim(id, at - 1000),
    state: 'Gone',
    timestamps: { Pending: at - 1000, Gone: at },
    failure: { reason, message },
  });
  const launched = (id: string, at: number): NodeClaim => ({
    ...pendingClaim(id, at - 1000),
    state: 'Launched',
    timestamps: { Pending: at - 1000, Launched: at },
  });

  it('reports LaunchSucceeded False naming the permission, and is not Ready', () => {
    const launchFailure = latestLaunchFailure(
      [gone('a', NOW - 5000, 'LaunchNotAuthorized')],
      LAUNCH_FAILURE_REASONS,
      NOW,
    );
    const status = nodePoolStatus({
      pool: nodePool(),
      claims: [],
      nodes: [],
      nodeClass: { ready: true, resolution },
      launchFailure,
      now: NOW,
    });
    expect(status.conditions.find((c) => c.type === 'LaunchSucceeded')).toMatchObject({
      status: 'False',
      reason: 'LaunchNotAuthorized',
      message: denied,
    });
    expect(status.conditions.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'LaunchNotAuthorized',
      message: `Launch: ${denied}`,
    });
  });

  it('reports the latest failure only until a launch of the pool succeeds after it, or it is old', () => {
    const failed = gone('a', NOW - 5000, 'LaunchFailed', 'InvalidParameterValue: bad AMI');
    expect(latestLaunchFailure([failed], LAUNCH_FAILURE_REASONS, NOW)?.message).toBe(
      'InvalidParameterValue: bad AMI',
    );
    expect(
      latestLaunchFailure([failed, gone('b', NOW - 1000, 'LaunchNotAuthorized')], LAUNCH_FAILURE_REASONS, NOW)
        ?.reason,
    ).toBe('LaunchNotAuthorized');
    expect(latestLaunchFailure([failed, launched('c', NOW - 1000)], LAUNCH_FAILURE_REASONS, NOW)).toBe(
      undefined,
    );
    expect(
      latestLaunchFailure([failed], LAUNCH_FAILURE_REASONS, NOW + LAUNCH_FAILURE_REPORTED_MS),
    ).toBeUndefined();
  });

  it('does not report capacity outcomes, which other offerings fix', () => {
    expect(
      latestLaunchFailure(
        [gone('a', NOW, 'NoCapacity', 'every option of the claim is unavailable')],
        LAUNCH_FAILURE_REASONS,
        NOW,
      ),
    ).toBeUndefined();
  });
});

describe('nodeClassStatus', () => {
  it('lists what the selectors resolve to', () => {
    const status = nodeClassStatus({ ready: true, resolution }, NOW);
    expect(status).toMatchObject({
      subnets: [{ id: 'subnet-1' }, { id: 'subnet-2' }],
      securityGroups: [{ id: 'sg-1' }],
      amis: [{ id: 'ami-1' }],
    });
    const conditions = status.conditions as { type: string; status: string }[];
    expect(conditions.every((c) => c.status === 'True')).toBe(true);
    expect(conditions.map((c) => c.type)).toEqual([
      'ValidationSucceeded',
      'SubnetsReady',
      'SecurityGroupsReady',
      'AMIsReady',
      'Ready',
    ]);
  });

  it('names the selector that matches nothing', () => {
    for (const [message, reason, type] of [
      ['securityGroupSelectorTerms match no security group', 'SecurityGroupsNotFound', 'SecurityGroupsReady'],
      ['amiSelectorTerms match no image', 'AMINotFound', 'AMIsReady'],
    ]) {
      const status = nodeClassStatus(readinessOf(new Error(message)), NOW);
      const conditions = status.conditions as { type: string; status: string; reason: string }[];
      expect(conditions.find((c) => c.type === type)).toMatchObject({ status: 'False', reason });
      expect(conditions.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason });
      // The object itself is valid: only its resolution failed.
      expect(conditions.find((c) => c.type === 'ValidationSucceeded')).toMatchObject({ status: 'True' });
      expect(status).not.toHaveProperty('subnets');
    }
  });
});
