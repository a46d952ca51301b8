import {
  CreateFleetCommand,
  DescribeSpotInstanceRequestsCommand,
  DescribeVolumesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './ec2-harness.js';
import { createMultusTemplates, multusConfigs } from './multus-fixtures.js';

const tag = (Key: string, Value: string) => [{ Key, Value }];

/** A spot fleet of one instance whose request tags its volumes and spot request. */
async function spotLaunch(h: Harness, claim: string): Promise<string> {
  const out = await h.ec2.send(
    new CreateFleetCommand({
      Type: 'instant',
      TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'spot' },
      SpotOptions: { AllocationStrategy: 'price-capacity-optimized' },
      LaunchTemplateConfigs: multusConfigs(h, ['c6i.2xlarge']),
      TagSpecifications: [
        { ResourceType: 'instance', Tags: tag('karpenter.sh/nodeclaim', claim) },
        { ResourceType: 'volume', Tags: tag('karpenter.sh/nodeclaim', claim) },
        { ResourceType: 'spot-instances-request', Tags: tag('karpenter.sh/nodeclaim', claim) },
      ],
    }),
  );
  expect(out.Errors).toEqual([]);
  return out.Instances?.[0].InstanceIds?.[0] ?? '';
}

describe('DescribeVolumes and DescribeSpotInstanceRequests show what CreateFleet created, with its tags', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
    await createMultusTemplates(h);
  });
  afterEach(() => h.close());

  it('DescribeVolumes: a tag filter finds the launch’s volumes, attached to its instance and tagged as the request asked', async () => {
    const a = await spotLaunch(h, 'claim-a');
    await spotLaunch(h, 'claim-b');
    const out = await h.ec2.send(
      new DescribeVolumesCommand({ Filters: [{ Name: 'tag:karpenter.sh/nodeclaim', Values: ['claim-a'] }] }),
    );
    expect(out.Volumes?.length).toBeGreaterThan(0);
    for (const volume of out.Volumes ?? []) {
      expect(volume.VolumeId).toMatch(/^vol-/);
      expect(volume.State).toBe('in-use');
      expect(volume.Attachments).toEqual([
        expect.objectContaining({ InstanceId: a, State: 'attached', DeleteOnTermination: true }),
      ]);
      expect(volume.Tags).toContainEqual({ Key: 'karpenter.sh/nodeclaim', Value: 'claim-a' });
      expect(volume.AvailabilityZone).toMatch(/^us-west-2[a-c]$/);
      expect(volume.Size).toBeGreaterThan(0);
    }
    const byInstance = await h.ec2.send(
      new DescribeVolumesCommand({ Filters: [{ Name: 'attachment.instance-id', Values: [a] }] }),
    );
    expect(byInstance.Volumes?.map((v) => v.VolumeId).sort()).toEqual(
      out.Volumes?.map((v) => v.VolumeId).sort(),
    );
  });

  it('DescribeSpotInstanceRequests: the request is active/fulfilled with its tags, then closed once the instance is terminated', async () => {
    const id = await spotLaunch(h, 'claim-a');
    const filter = { Filters: [{ Name: 'tag:karpenter.sh/nodeclaim', Values: ['claim-a'] }] };
    const [request] =
      (await h.ec2.send(new DescribeSpotInstanceRequestsCommand(filter))).SpotInstanceRequests ?? [];
    expect(request).toMatchObject({
      InstanceId: id,
      State: 'active',
      Status: { Code: 'fulfilled' },
      Type: 'one-time',
      Tags: [{ Key: 'karpenter.sh/nodeclaim', Value: 'claim-a' }],
    });
    expect(request.SpotInstanceRequestId).toMatch(/^sir-/);
    await h.ec2.send(new TerminateInstancesCommand({ InstanceIds: [id] }));
    const after = await h.ec2.send(
      new DescribeSpotInstanceRequestsCommand({ SpotInstanceRequestIds: [request.SpotInstanceRequestId!] }),
    );
    expect(after.SpotInstanceRequests?.[0]).toMatchObject({
      State: 'closed',
      Status: { Code: 'instance-terminated-by-user' },
    });
    // The instance's volumes (DeleteOnTermination) are gone with it once it is terminated.
    await h.clock.advance(120_000);
    const volumes = await h.ec2.send(
      new DescribeVolumesCommand({ Filters: [{ Name: 'attachment.instance-id', Values: [id] }] }),
    );
    expect(volumes.Volumes).toEqual([]);
  });

  it('bad input: unknown ids and filter names get EC2’s errors', async () => {
    await expect(
      h.ec2.send(new DescribeVolumesCommand({ VolumeIds: ['vol-0123456789abcdef0'] })),
    ).rejects.toMatchObject({
      name: 'InvalidVolume.NotFound',
    });
    await expect(
      h.ec2.send(new DescribeSpotInstanceRequestsCommand({ SpotInstanceRequestIds: ['sir-00000000'] })),
    ).rejects.toMatchObject({ name: 'InvalidSpotInstanceRequestID.NotFound' });
    await expect(
      h.ec2.send(new DescribeVolumesCommand({ Filters: [{ Name: 'no-such-filter', Values: ['x'] }] })),
    ).rejects.toMatchObject({ name: 'InvalidParameterValue' });
  });
});
