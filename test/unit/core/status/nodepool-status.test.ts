import { describe, expect, it } from 'vitest';
import type { Node } from '../../../../functions/core/model/kube-objects.js';
import { nodeClassStatus, readinessOf } from '../../../../functions/core/status/nodeclass-status.js';
import { nodePoolStatus } from '../../../../functions/core/status/nodepool-status.js';
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
    expect(status.conditions.map((c) => [c.type, c.status])).toEqual([
      ['ValidationSucceeded', 'True'],
      ['NodeClassReady', 'True'],
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

describe('nodeClassStatus', () => {
  it('lists what the selectors resolve to', () => {
    const status = nodeClassStatus({ ready: true, resolution }, NOW);
    expect(status).toMatchObject({
      subnets: [{ id: 'subnet-1' }, { id: 'subnet-2' }],
      securityGroups: [{ id: 'sg-1' }],
      amis: [{ id: 'ami-1' }],
    });
    expect((status.conditions as { type: string; status: string }[]).every((c) => c.status === 'True')).toBe(
      true,
    );
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
      expect(status).not.toHaveProperty('subnets');
    }
  });
});
