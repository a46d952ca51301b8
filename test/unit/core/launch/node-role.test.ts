import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import {
  instanceProfileTags,
  isInstanceProfilePropagationError,
  nodeClassInstanceProfileName,
  nodeRoleProblem,
  parseRoleReference,
} from '../../../../functions/core/launch/node-role.js';
import type { ClusterConfig } from '../../../../functions/core/lifecycle/cluster-config.js';
import type { CloudProvider } from '../../../../functions/core/ports/cloud-provider.js';
import { schedulingPools } from '../../../../functions/core/scheduling/prepare.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import { collectNodeClassResources } from '../../../../functions/core/sweep/nodeclass-resources.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';
import { RecordingLog } from '../provisioning/fakes.js';
import { input } from '../scheduling/fixtures.js';

const ALLOWED = ['arn:aws:iam::123456789012:role/prod-node', 'arn:aws:iam::123456789012:role/gpu/GpuNodes'];

describe('node roles of NodeClasses', () => {
  it('allows a role joiner may pass, by name, path/name or ARN', () => {
    for (const role of [
      'prod-node',
      'GpuNodes',
      'gpu/GpuNodes',
      'arn:aws:iam::123456789012:role/gpu/GpuNodes',
    ]) {
      expect(nodeRoleProblem({ name: 'a', role }, ALLOWED), role).toBeUndefined();
    }
    expect(nodeRoleProblem({ name: 'a' }, ALLOWED)).toBeUndefined();
    // Without an allow list only the form of the role is checked.
    expect(nodeRoleProblem({ name: 'a', role: 'Anything' }, undefined)).toBeUndefined();
  });

  it('names the NodeClass, the role and the context key when the role is not allowed', () => {
    expect(nodeRoleProblem({ name: 'gpu', role: 'OtherRole' }, ALLOWED)).toBe(
      'EC2NodeClass gpu: role OtherRole is not in the node roles joiner may pass (joiner:nodeRoleArns)',
    );
    // Same name, other account.
    expect(
      nodeRoleProblem({ name: 'gpu', role: 'arn:aws:iam::999999999999:role/GpuNodes' }, ALLOWED),
    ).toContain('is not in the node roles joiner may pass');
    expect(nodeRoleProblem({ name: 'gpu', role: 'OtherRole' }, [])).toContain('OtherRole is not in');
  });

  it('rejects what is not a role name or ARN, saying why', () => {
    // A name whose variable was never substituted, as in some published examples.
    const unsubstituted = ['KarpenterNodeRole-', '{CLUSTER_NAME}'].join('$');
    expect(nodeRoleProblem({ name: 'x', role: unsubstituted }, undefined)).toBe(
      `EC2NodeClass x: role '${unsubstituted}' is not an IAM role name or ARN: a role name is 1-64 of letters, digits and +=,.@_-`,
    );
    expect(() => parseRoleReference('')).toThrow('is not an IAM role name or ARN');
    expect(() => parseRoleReference('a'.repeat(65))).toThrow('is not an IAM role name or ARN');
    expect(() => parseRoleReference('bad path/Name')).toThrow('invalid IAM path');
  });

  it('names the profile of a NodeClass deterministically, per cluster, region and NodeClass', () => {
    const name = nodeClassInstanceProfileName('prod', 'us-west-2', 'gpu');
    expect(name).toBe(nodeClassInstanceProfileName('prod', 'us-west-2', 'gpu'));
    expect(name).toMatch(/^prod_[0-9a-f]{16}$/);
    expect(nodeClassInstanceProfileName('prod', 'us-east-1', 'gpu')).not.toBe(name);
    expect(nodeClassInstanceProfileName('prod', 'us-west-2', 'cpu')).not.toBe(name);
    expect(nodeClassInstanceProfileName('a'.repeat(100), 'us-west-2', 'gpu').length).toBeLessThanOrEqual(128);
  });

  it("tags the profile with joiner's ownership over the NodeClass's own tags", () => {
    const tags = instanceProfileTags('prod', 'us-west-2', {
      name: 'gpu',
      tags: { team: 'ml', 'joiner.sh/cluster': 'spoofed' },
    });
    expect(tags).toEqual({
      team: 'ml',
      'joiner.sh/cluster': 'prod',
      'kubernetes.io/cluster/prod': 'owned',
      'joiner.sh/nodeclass': 'gpu',
      'topology.kubernetes.io/region': 'us-west-2',
    });
  });

  it('recognizes the IAM propagation error of EC2 launches', () => {
    expect(
      isInstanceProfilePropagationError({
        code: 'InvalidParameterValue',
        message:
          'Value (p) for parameter iamInstanceProfile.name is invalid. Invalid IAM Instance Profile name',
      }),
    ).toBe(true);
    expect(isInstanceProfilePropagationError({ code: 'InvalidParameterValue', message: 'bad AMI' })).toBe(
      false,
    );
    expect(
      isInstanceProfilePropagationError({
        code: 'UnauthorizedOperation',
        message: 'Invalid IAM Instance Profile',
      }),
    ).toBe(false);
  });
});

describe('planning with a NodeClass whose role joiner may not pass', () => {
  it('launches nothing for it and gives its pods the reason', () => {
    const pools = schedulingPools(
      [
        nodePool({
          name: 'gpu',
          nodeClassRef: { kind: 'EC2NodeClass', name: 'gpu', group: 'karpenter.k8s.aws' },
        }),
      ],
      [nodeClass({ name: 'gpu', role: 'OtherRole' })],
      bundledCatalog,
      { allowedNodeRoles: ALLOWED },
    );
    expect(pools[0].problem).toBe(
      'EC2NodeClass gpu: role OtherRole is not in the node roles joiner may pass (joiner:nodeRoleArns)',
    );
    expect(pools[0].instanceTypes).toEqual([]);
    const plan = schedule(input({ pods: [pod({ requests: { cpu: '1' } })], pools }));
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable).toHaveLength(1);
    expect(plan.unschedulable[0].reason).toContain(
      'nodepool gpu: EC2NodeClass gpu: role OtherRole is not in the node roles joiner may pass (joiner:nodeRoleArns)',
    );
  });

  it('plans as before for an allowed role', () => {
    const pools = schedulingPools(
      [
        nodePool({
          name: 'gpu',
          nodeClassRef: { kind: 'EC2NodeClass', name: 'gpu', group: 'karpenter.k8s.aws' },
        }),
      ],
      [nodeClass({ name: 'gpu', role: 'GpuNodes' })],
      bundledCatalog,
      { allowedNodeRoles: ALLOWED },
    );
    expect(pools[0].problem).toBeUndefined();
    expect(schedule(input({ pods: [pod({ requests: { cpu: '1' } })], pools })).nodeClaims).toHaveLength(1);
  });
});

describe('garbage collection of the instance profiles of deleted NodeClasses', () => {
  const config = (names: string[]): ClusterConfig => ({
    nodePools: [],
    nodeClasses: [],
    nodePoolNames: new Set(),
    nodeClassNames: new Set(names),
  });

  it('hands the existing NodeClass names (valid or not) to the cloud and logs what it deleted', async () => {
    const seen: string[][] = [];
    const cloud = {
      collectNodeClassResources: async (names: ReadonlySet<string>) => {
        seen.push([...names]);
        return ['prod_0123'];
      },
    } as unknown as CloudProvider;
    const log = new RecordingLog();
    const deleted = await collectNodeClassResources({
      cloud,
      config: async () => config(['gpu', 'broken']),
      log,
    });
    expect(deleted).toEqual(['prod_0123']);
    expect(seen).toEqual([['gpu', 'broken']]);
    expect(log.lines).toMatchObject([
      {
        level: 'info',
        message: 'deleted instance profile of a deleted NodeClass',
        fields: { name: 'prod_0123' },
      },
    ]);
  });

  it('deletes nothing when the NodeClasses cannot be read, and leaves it to the next sweep', async () => {
    let called = false;
    const cloud = {
      collectNodeClassResources: async () => {
        called = true;
        return [];
      },
    } as unknown as CloudProvider;
    const log = new RecordingLog();
    const deleted = await collectNodeClassResources({
      cloud,
      config: async () => {
        throw new Error('API server unreachable');
      },
      log,
    });
    expect(deleted).toEqual([]);
    expect(called).toBe(false);
    expect(log.lines[0]).toMatchObject({ level: 'warn', fields: { error: 'API server unreachable' } });
  });
});
