import {
  DescribeInstancesCommand,
  DescribeNetworkInterfacesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import type { Node } from '../../functions/core/model/kube-objects.js';
import type { SimulatedCloud } from '../../functions/simulator/cloud.js';
import { SIMULATOR_CREDENTIALS } from '../../functions/simulator/sqs/sqs-simulator.js';
import { explain, runShippedScenario } from './scenario-runner.js';

const STARTUP_TAINT = 'multus/not-ready';

async function multusEnisByInstance(cloud: SimulatedCloud) {
  const ec2 = new EC2Client({
    region: cloud.region,
    endpoint: cloud.endpoints.ec2,
    credentials: SIMULATOR_CREDENTIALS,
  });
  try {
    const reservations = (await ec2.send(new DescribeInstancesCommand({}))).Reservations ?? [];
    const instances = reservations
      .flatMap((r) => r.Instances ?? [])
      .filter((i) => i.State?.Name === 'running' || i.State?.Name === 'pending');
    const enis = (await ec2.send(new DescribeNetworkInterfacesCommand({}))).NetworkInterfaces ?? [];
    const subnets = (await ec2.send(new DescribeSubnetsCommand({}))).Subnets ?? [];
    const groups = (await ec2.send(new DescribeSecurityGroupsCommand({}))).SecurityGroups ?? [];
    const subnetName = (id?: string) =>
      subnets.find((s) => s.SubnetId === id)?.Tags?.find((t) => t.Key === 'Name')?.Value;
    const groupName = (id?: string) => groups.find((g) => g.GroupId === id)?.GroupName;
    return instances.map((instance) => ({
      instanceId: instance.InstanceId,
      zone: instance.Placement?.AvailabilityZone,
      multus: (instance.NetworkInterfaces ?? [])
        .filter((ni) => (ni.Attachment?.DeviceIndex ?? 0) > 0)
        .map((ni) => {
          const described = enis.find((e) => e.NetworkInterfaceId === ni.NetworkInterfaceId);
          return {
            deviceIndex: ni.Attachment?.DeviceIndex,
            deleteOnTermination: ni.Attachment?.DeleteOnTermination,
            subnet: subnetName(ni.SubnetId),
            groups: (ni.Groups ?? []).map((g) => groupName(g.GroupId)),
            noManage: described?.TagSet?.find((t) => t.Key === 'node.k8s.amazonaws.com/no_manage')?.Value,
          };
        })
        .sort((a, b) => (a.deviceIndex ?? 0) - (b.deviceIndex ?? 0)),
    }));
  } finally {
    ec2.destroy();
  }
}

describe('seed 000: Karpenter nodes with Multus, run by joiner', () => {
  it('scales the multitool deployments 1 -> 5 -> 1 -> 10 per AZ on nodes with their per-AZ Multus ENIs', async () => {
    let described: Awaited<ReturnType<typeof multusEnisByInstance>> = [];
    let nodes: Node[] = [];
    const result = await runShippedScenario('seed-000-multus', {
      inspect: async (cloud) => {
        described = await multusEnisByInstance(cloud);
        nodes = cloud.kube.store.list<Node>('v1', 'Node');
      },
    });
    expect(result.failures, explain(result)).toEqual([]);
    expect(result.summary.pods).toEqual({ total: 20, running: 20, pending: 0 });
    expect(result.summary.orphanedInstances).toBe(0);

    // Through the real EC2 client: two Multus ENIs per instance, in that zone's Multus subnets.
    expect(described).toHaveLength(2);
    for (const instance of described) {
      const az = instance.zone === 'us-west-2a' ? 1 : 2;
      expect(instance.multus).toEqual([
        {
          deviceIndex: 1,
          deleteOnTermination: true,
          subnet: `Multus1Az${az}-karpenterwithmultus`,
          groups: ['Vpc1SecurityGroup'],
          noManage: 'true',
        },
        {
          deviceIndex: 2,
          deleteOnTermination: true,
          subnet: `Multus2Az${az}-karpenterwithmultus`,
          groups: ['Vpc1SecurityGroup'],
          noManage: 'true',
        },
      ]);
    }
    // Max pods reduced by the two Multus ENIs: (4 - 2) x (15 - 1) + 2 for c6i.2xlarge; startup taint gone.
    for (const node of nodes) {
      expect(node.status?.capacity?.pods).toBe('30');
      expect((node.spec?.taints ?? []).map((t) => t.key)).not.toContain(STARTUP_TAINT);
    }
  }, 90_000);
});
