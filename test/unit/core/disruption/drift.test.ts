import { describe, expect, it } from 'vitest';
import { type DriftInput, driftOf } from '../../../../functions/core/disruption/drift.js';
import {
  NODECLASS_HASH_VERSION,
  NODEPOOL_HASH_VERSION,
  nodeClassDriftHash,
  nodePoolDriftHash,
} from '../../../../functions/core/disruption/drift-hashes.js';
import type { NodeClass } from '../../../../functions/core/model/node-class.js';
import type { NodePool } from '../../../../functions/core/model/node-pool.js';
import type { Requirement } from '../../../../functions/core/model/requirement.js';
import { newNodeClaim } from '../../../../functions/core/nodeclaim/create.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { nodeClass, nodePool } from '../../../builders/config.js';

const pool = nodePool({
  labels: { team: 'web' },
  taints: [{ key: 'dedicated', value: 'web', effect: 'NoSchedule' }],
  requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'on-demand'] }],
});
const klass = nodeClass({ tags: { owner: 'platform' } });

/** An initialized claim launched from `p` and `c` (hashes of the current version) on a c5.large. */
function launchedFrom(
  p: NodePool,
  c: NodeClass,
  requirements: Requirement[] = p.requirements.slice(),
): NodeClaim {
  const claim = newNodeClaim(
    {
      id: 'default-abc',
      nodePool: p.name,
      nodeClass: c.name,
      nodePoolHash: nodePoolDriftHash(p),
      nodePoolHashVersion: NODEPOOL_HASH_VERSION,
      nodeClassHash: nodeClassDriftHash(c),
      nodeClassHashVersion: NODECLASS_HASH_VERSION,
      requirements,
      labels: { team: 'web' },
      taints: [],
      startupTaints: [],
      options: [{ instanceType: 'c5.large', zone: 'us-west-2a', capacityType: 'spot', price: 0.03 }],
      pods: [],
      requests: {},
    },
    0,
  );
  return {
    ...claim,
    state: 'Initialized',
    instance: { instanceId: 'i-0a', instanceType: 'c5.large', zone: 'us-west-2a', capacityType: 'spot' },
  };
}

const nodeLabels = {
  team: 'web',
  'karpenter.sh/capacity-type': 'spot',
  'node.kubernetes.io/instance-type': 'c5.large',
  'topology.kubernetes.io/zone': 'us-west-2a',
  'kubernetes.io/arch': 'amd64',
};

function input(overrides: Partial<DriftInput> = {}): DriftInput {
  return { claim: launchedFrom(pool, klass), nodeLabels, nodePool: pool, nodeClass: klass, ...overrides };
}

describe('drift hashes', () => {
  it('the NodePool hash covers the template, not requirements, behaviour or the document source', () => {
    const base = nodePoolDriftHash(pool);
    for (const same of [
      { ...pool, requirements: [] },
      { ...pool, weight: 50 },
      { ...pool, limits: { cpu: 1000 } },
      { ...pool, disruption: { ...pool.disruption, consolidateAfterMs: 1 } },
      { ...pool, source: { ...pool.source, file: 'other.yaml' } },
      { ...pool, taints: [...pool.taints].reverse(), annotations: {} },
    ])
      expect(nodePoolDriftHash(same)).toBe(base);
    for (const other of [
      { ...pool, labels: { team: 'api' } },
      { ...pool, taints: [] },
      { ...pool, startupTaints: [{ key: 'agent', effect: 'NoSchedule' as const }] },
      { ...pool, nodeClassRef: { ...pool.nodeClassRef, name: 'other' } },
      { ...pool, expireAfterMs: null },
      { ...pool, terminationGracePeriodMs: 60_000 },
    ])
      expect(nodePoolDriftHash(other)).not.toBe(base);
  });

  it('the NodeClass hash covers the spec but not its selector terms, name or source', () => {
    const base = nodeClassDriftHash(klass);
    for (const same of [
      { ...klass, amiSelectorTerms: [{ id: 'ami-1' }] },
      { ...klass, subnetSelectorTerms: [{ id: 'subnet-1' }] },
      { ...klass, securityGroupSelectorTerms: [{ name: 'sg' }] },
      { ...klass, capacityReservationSelectorTerms: [{ id: 'cr-1' }] },
      { ...klass, source: { ...klass.source, file: 'other.yaml' } },
      { ...klass, name: 'renamed' },
      // The family an alias implies, written down or not, is the same family.
      { ...klass, amiFamily: undefined },
    ])
      expect(nodeClassDriftHash(same)).toBe(base);
    for (const other of [
      { ...klass, tags: { owner: 'data' } },
      { ...klass, userData: '#!/bin/bash' },
      { ...klass, amiFamily: 'Bottlerocket' as const },
      { ...klass, detailedMonitoring: true },
      { ...klass, kubelet: { maxPods: 20 } },
      { ...klass, blockDeviceMappings: [{ deviceName: '/dev/xvda', ebs: { volumeSize: '50Gi' } }] },
    ])
      expect(nodeClassDriftHash(other)).not.toBe(base);
  });
});

describe('driftOf', () => {
  it('finds nothing for a node launched from the NodePool and NodeClass as they are', () => {
    expect(driftOf(input())).toBeUndefined();
    expect(
      driftOf(
        input({
          instance: { imageId: 'ami-1', subnetId: 'subnet-a', securityGroupIds: ['sg-2', 'sg-1'] },
          resolved: {
            imageIds: ['ami-1', 'ami-9'],
            subnetIds: ['subnet-a'],
            securityGroupIds: ['sg-1', 'sg-2'],
          },
        }),
      ),
    ).toBeUndefined();
  });

  it('reports a changed NodePool template, naming the hashes', () => {
    const changed = { ...pool, labels: { team: 'api' } };
    const drift = driftOf(input({ nodePool: changed }));
    expect(drift).toEqual({
      reason: 'NodePoolDrifted',
      message: `NodePool "default" changed since the node was launched (hash ${nodePoolDriftHash(pool)} → ${nodePoolDriftHash(changed)})`,
    });
  });

  it('compares no hash stamped by another hash version (or by none)', () => {
    const changedPool = { ...pool, labels: { team: 'api' } };
    const changedClass = { ...klass, tags: {} };
    const claim = launchedFrom(pool, klass);
    for (const stamped of [
      { ...claim, nodePoolHashVersion: 'joiner-v0', nodeClassHashVersion: 'joiner-v0' },
      { ...claim, nodePoolHashVersion: undefined, nodeClassHashVersion: undefined },
    ])
      expect(
        driftOf(input({ claim: stamped, nodePool: changedPool, nodeClass: changedClass })),
      ).toBeUndefined();
  });

  it('reports a changed NodeClass spec, but not a changed selector alone', () => {
    expect(driftOf(input({ nodeClass: { ...klass, tags: {} } }))?.reason).toBe('NodeClassDrifted');
    expect(driftOf(input({ nodeClass: { ...klass, amiSelectorTerms: [{ id: 'ami-2' }] } }))).toBeUndefined();
  });

  it('checks the NodePool hash, then requirements, then the NodeClass hash, then the cloud', () => {
    const everything: DriftInput = {
      ...input(),
      nodePool: { ...pool, labels: { team: 'api' }, requirements: [req('team', 'In', 'api')] },
      nodeClass: { ...klass, tags: {} },
      instance: { imageId: 'ami-1' },
      resolved: { imageIds: ['ami-2'], subnetIds: [], securityGroupIds: [] },
    };
    expect(driftOf(everything)?.reason).toBe('NodePoolDrifted');
    expect(
      driftOf({ ...everything, nodePool: { ...pool, requirements: [req('team', 'In', 'api')] } })?.reason,
    ).toBe('RequirementsDrifted');
    expect(driftOf({ ...everything, nodePool: pool })?.reason).toBe('NodeClassDrifted');
    expect(driftOf({ ...everything, nodePool: pool, nodeClass: klass })?.reason).toBe('AMIDrifted');
  });
});

function req(key: string, operator: Requirement['operator'], ...values: string[]): Requirement {
  return { key, operator, values };
}

describe('driftOf: requirements', () => {
  const withRequirements = (...requirements: Requirement[]) =>
    driftOf(input({ nodePool: { ...pool, requirements } }));

  it('drifts a node whose label no longer satisfies a requirement', () => {
    expect(withRequirements(req('karpenter.sh/capacity-type', 'In', 'on-demand'))).toEqual({
      reason: 'RequirementsDrifted',
      message:
        'node label karpenter.sh/capacity-type=spot does not satisfy NodePool "default" requirement karpenter.sh/capacity-type In [on-demand]',
    });
    expect(withRequirements(req('karpenter.sh/capacity-type', 'NotIn', 'spot'))?.reason).toBe(
      'RequirementsDrifted',
    );
    expect(withRequirements(req('team', 'DoesNotExist'))?.reason).toBe('RequirementsDrifted');
  });

  it('keeps a node whose labels still satisfy widened or unrelated requirements', () => {
    expect(withRequirements(req('karpenter.sh/capacity-type', 'In', 'spot', 'on-demand'))).toBeUndefined();
    expect(
      withRequirements(req('team', 'Exists'), req('kubernetes.io/arch', 'NotIn', 'arm64')),
    ).toBeUndefined();
    expect(withRequirements(req('gpu', 'NotIn', 'true'), req('gpu', 'DoesNotExist'))).toBeUndefined();
  });

  it('reads family, category, generation and size from the instance type, with numeric operators', () => {
    expect(withRequirements(req('karpenter.k8s.aws/instance-category', 'In', 'c', 'm'))).toBeUndefined();
    expect(withRequirements(req('karpenter.k8s.aws/instance-family', 'In', 'c5'))).toBeUndefined();
    expect(withRequirements(req('karpenter.k8s.aws/instance-generation', 'Gt', '4'))).toBeUndefined();
    expect(withRequirements(req('karpenter.k8s.aws/instance-generation', 'Gte', '5'))).toBeUndefined();
    expect(withRequirements(req('karpenter.k8s.aws/instance-generation', 'Lte', '5'))).toBeUndefined();
    expect(withRequirements(req('karpenter.k8s.aws/instance-generation', 'Gt', '5'))?.reason).toBe(
      'RequirementsDrifted',
    );
    expect(withRequirements(req('karpenter.k8s.aws/instance-category', 'In', 'r'))?.message).toContain(
      'karpenter.k8s.aws/instance-category=c',
    );
  });

  it('drifts a node lacking a label the NodePool now requires (any operator but NotIn / DoesNotExist)', () => {
    expect(withRequirements(req('zone-group', 'In', 'a'))).toEqual({
      reason: 'RequirementsDrifted',
      message: 'node has no label zone-group, which NodePool "default" requires (zone-group In [a])',
    });
    expect(withRequirements(req('zone-group', 'Exists'))?.reason).toBe('RequirementsDrifted');
    expect(withRequirements(req('rank', 'Lt', '3'))?.reason).toBe('RequirementsDrifted');
  });

  it('judges a lacking label the claim was launched under by the claim requirement', () => {
    const launchedUnder = [req('zone-group', 'In', 'a', 'b')];
    const claim = launchedFrom(pool, klass, launchedUnder);
    const judge = (...requirements: Requirement[]) =>
      driftOf(input({ claim, nodePool: { ...pool, requirements } }));
    expect(judge(req('zone-group', 'In', 'b', 'c'))).toBeUndefined();
    expect(judge(req('zone-group', 'In', 'c'))).toEqual({
      reason: 'RequirementsDrifted',
      message:
        'node was launched under zone-group In [a b], which NodePool "default" no longer allows (zone-group In [c])',
    });
  });

  it('leaves instance facts joiner does not label unjudged when absent', () => {
    expect(withRequirements(req('karpenter.k8s.aws/instance-cpu', 'Gt', '1'))).toBeUndefined();
    expect(withRequirements(req('karpenter.k8s.aws/instance-hypervisor', 'In', 'nitro'))).toBeUndefined();
  });
});

describe('driftOf: cloud', () => {
  const resolved = {
    imageIds: ['ami-2', 'ami-3'],
    subnetIds: ['subnet-a', 'subnet-b'],
    securityGroupIds: ['sg-1'],
  };

  it('drifts an instance whose image is no longer selected (falling back to the claim image)', () => {
    expect(driftOf(input({ instance: { imageId: 'ami-1' }, resolved }))).toEqual({
      reason: 'AMIDrifted',
      message: 'AMI ami-1 is no longer selected by EC2NodeClass "default" (now ami-2, ami-3)',
    });
    const claim = launchedFrom(pool, klass);
    const withImage = { ...claim, instance: { ...claim.instance!, imageId: 'ami-1' } };
    expect(driftOf(input({ claim: withImage, resolved }))?.reason).toBe('AMIDrifted');
    expect(driftOf(input({ claim: withImage, instance: { imageId: 'ami-3' }, resolved }))).toBeUndefined();
  });

  it('compares a node with the image of its own AMI variant when the alias resolved variants', () => {
    const images = {
      images: { amd64: 'ami-std-2' },
      variantImages: { 'amd64/nvidia': 'ami-nvidia-2' },
    };
    const variants = { ...resolved, imageIds: ['ami-nvidia-2', 'ami-std-2'], images };
    const gpuLabels = { ...nodeLabels, 'karpenter.k8s.aws/instance-gpu-count': '4' };
    // A GPU node on the previous nvidia image drifts once the alias names a new one.
    expect(
      driftOf(input({ nodeLabels: gpuLabels, instance: { imageId: 'ami-nvidia-1' }, resolved: variants })),
    ).toEqual({
      reason: 'AMIDrifted',
      message: 'AMI ami-nvidia-1 is no longer selected by EC2NodeClass "default" (now ami-nvidia-2)',
    });
    // A GPU node on the standard image is drifted too: that image is not compatible with it.
    expect(
      driftOf(input({ nodeLabels: gpuLabels, instance: { imageId: 'ami-std-2' }, resolved: variants }))
        ?.reason,
    ).toBe('AMIDrifted');
    expect(
      driftOf(input({ nodeLabels: gpuLabels, instance: { imageId: 'ami-nvidia-2' }, resolved: variants })),
    ).toBeUndefined();
    expect(driftOf(input({ instance: { imageId: 'ami-std-2' }, resolved: variants }))).toBeUndefined();
    // No variant image published for it any more: drifted, saying so.
    const none = { ...variants, images: { images: { amd64: 'ami-std-2' }, variantImages: {} } };
    expect(
      driftOf(input({ nodeLabels: gpuLabels, instance: { imageId: 'ami-nvidia-2' }, resolved: none }))
        ?.message,
    ).toMatch(/selects no image for this node's architecture and accelerators/);
  });

  it('drifts an instance whose security groups differ as a set from the selected ones', () => {
    expect(driftOf(input({ instance: { securityGroupIds: ['sg-1', 'sg-2'] }, resolved }))).toEqual({
      reason: 'SecurityGroupDrifted',
      message: 'security groups sg-1, sg-2 differ from those EC2NodeClass "default" selects (now sg-1)',
    });
    expect(driftOf(input({ instance: { securityGroupIds: ['sg-1', 'sg-1'] }, resolved }))).toBeUndefined();
  });

  it('drifts an instance whose subnet is no longer selected', () => {
    expect(driftOf(input({ instance: { subnetId: 'subnet-z' }, resolved }))).toEqual({
      reason: 'SubnetDrifted',
      message: 'subnet subnet-z is no longer selected by EC2NodeClass "default" (now subnet-a, subnet-b)',
    });
  });

  it('checks the AMI before security groups and subnet, and decides nothing on what is unknown', () => {
    const instance = { imageId: 'ami-1', subnetId: 'subnet-z', securityGroupIds: ['sg-9'] };
    expect(driftOf(input({ instance, resolved }))?.reason).toBe('AMIDrifted');
    expect(driftOf(input({ instance: { ...instance, imageId: 'ami-2' }, resolved }))?.reason).toBe(
      'SecurityGroupDrifted',
    );
    expect(driftOf(input({ instance }))).toBeUndefined();
    expect(
      driftOf(input({ instance, resolved: { imageIds: [], subnetIds: [], securityGroupIds: [] } })),
    ).toBeUndefined();
  });
});
