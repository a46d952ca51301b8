import { describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { nodeClaimResource } from '../../../../functions/core/status/nodeclaim-resource.js';
import { pendingClaim } from '../lifecycle/fakes.js';

const T0 = Date.UTC(2026, 5, 1);
const launched = (claim: NodeClaim): NodeClaim => ({
  ...claim,
  state: 'Launched',
  timestamps: { ...claim.timestamps, Launched: T0 + 2_000 },
  instance: {
    instanceId: 'i-1',
    instanceType: 'c5.large',
    zone: 'us-west-2a',
    capacityType: 'spot',
    providerId: 'aws:///us-west-2a/i-1',
  },
});
const status = (claim: NodeClaim, type: string) =>
  nodeClaimResource(claim).status.conditions.find((c) => c.type === type);

describe('nodeClaimResource', () => {
  it("carries Karpenter's labels, spec and the owner NodePool", () => {
    const owner = { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', name: 'default', uid: 'u-1' };
    const r = nodeClaimResource(launched(pendingClaim('default-abc', T0)), owner);
    expect(r.apiVersion).toBe('joiner.sh/v1');
    expect(r.metadata.name).toBe('default-abc');
    expect(r.metadata.labels).toMatchObject({
      'karpenter.sh/nodepool': 'default',
      'node.kubernetes.io/instance-type': 'c5.large',
      'karpenter.sh/capacity-type': 'spot',
      'topology.kubernetes.io/zone': 'us-west-2a',
      team: 'telco',
    });
    expect(r.metadata.ownerReferences).toEqual([{ ...owner, blockOwnerDeletion: false }]);
    expect(r.spec).toMatchObject({
      nodeClassRef: { name: 'default' },
      taints: [{ key: 'dedicated', value: 'telco', effect: 'NoSchedule' }],
    });
    expect(r.status).toMatchObject({ providerID: 'aws:///us-west-2a/i-1', state: 'Launched' });
  });

  it("writes the NodePool's expireAfter and terminationGracePeriod the claim was made with, as Karpenter's NodeClaim spec", () => {
    const claim = {
      ...pendingClaim('default-abc', T0),
      expireAfterMs: 720 * 3_600_000,
      terminationGracePeriodMs: 5_400_000,
    };
    expect(nodeClaimResource(claim).spec).toMatchObject({
      expireAfter: '720h',
      terminationGracePeriod: '1h30m',
    });
    const never = nodeClaimResource({ ...pendingClaim('default-abc', T0), expireAfterMs: null }).spec;
    expect(never.expireAfter).toBe('Never');
    expect(never).not.toHaveProperty('terminationGracePeriod');
    // A claim recorded before joiner kept them shows neither.
    expect(nodeClaimResource(pendingClaim('default-abc', T0)).spec).not.toHaveProperty('expireAfter');
  });

  it('has no owner reference when the NodePool is unknown', () => {
    expect(nodeClaimResource(pendingClaim('a', T0)).metadata.ownerReferences).toBeUndefined();
  });

  it('turns the lifecycle into conditions: Launched, Registered, Initialized, Ready', () => {
    const pending = pendingClaim('a', T0);
    expect(status(pending, 'Launched')).toMatchObject({ status: 'Unknown' });
    expect(status(launched(pending), 'Launched')).toMatchObject({
      status: 'True',
      lastTransitionTime: '2026-06-01T00:00:02Z',
    });
    expect(status(launched(pending), 'Registered')).toMatchObject({ status: 'Unknown' });
    const initialized: NodeClaim = { ...launched(pending), state: 'Initialized', nodeName: 'n1' };
    expect(status(initialized, 'Registered')?.status).toBe('True');
    expect(status(initialized, 'Ready')?.status).toBe('True');
    expect(nodeClaimResource(initialized).status.nodeName).toBe('n1');
  });

  it('says why a launch failed, and marks drift, emptiness and disruption', () => {
    const failed: NodeClaim = {
      ...pendingClaim('a', T0),
      failure: { reason: 'LaunchFailed', message: 'InsufficientInstanceCapacity' },
    };
    expect(status(failed, 'Launched')).toMatchObject({
      status: 'False',
      reason: 'LaunchFailed',
      message: 'InsufficientInstanceCapacity',
    });
    const drifting: NodeClaim = {
      ...launched(pendingClaim('b', T0)),
      state: 'Draining',
      timers: { emptiness: T0 + 60_000 },
      disruption: {
        cause: 'drifted',
        message: 'AMI changed',
        forceful: false,
        startedAt: T0 + 10_000,
        phase: 'replacing',
        replaceBy: T0 + 100_000,
      },
    };
    expect(status(drifting, 'Drifted')).toMatchObject({ status: 'True', message: 'AMI changed' });
    expect(status(drifting, 'Empty')?.status).toBe('True');
    expect(status(drifting, 'Disrupting')).toMatchObject({ status: 'True', reason: 'drifted' });
  });
});
