import {
  CreateFleetCommand,
  CreateTagsCommand,
  DescribeInstancesCommand,
  DescribeLaunchTemplatesCommand,
  DescribeNetworkInterfacesCommand,
} from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SeededRandom, VirtualClock } from '../../../../functions/simulator/clock.js';
import { EventualConsistency } from '../../../../functions/simulator/ec2/consistency/eventual-consistency.js';
import { type Harness, startHarness } from './ec2-harness.js';
import { createNodeTemplate, nodeConfig } from './iam-fixtures.js';

const WINDOW_MS = 5_000;

describe('eventual consistency of Describe*', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ eventualConsistency: { windowMs: WINDOW_MS }, maxAttempts: 1 });
  });
  afterEach(() => h.close());

  const launch = async () => {
    const out = await h.ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
        LaunchTemplateConfigs: nodeConfig(h, 'node'),
      }),
    );
    return out.Instances![0].InstanceIds![0];
  };

  it('misses a just-created launch template by name, id and filter, then finds it after the window', async () => {
    const id = await createNodeTemplate(h, 'node');
    await expect(
      h.ec2.send(new DescribeLaunchTemplatesCommand({ LaunchTemplateNames: ['node'] })),
    ).rejects.toMatchObject({
      name: 'InvalidLaunchTemplateName.NotFoundException',
      message: "At least one of the launch templates specified in the request does not exist: 'node'.",
    });
    await expect(
      h.ec2.send(new DescribeLaunchTemplatesCommand({ LaunchTemplateIds: [id] })),
    ).rejects.toMatchObject({
      name: 'InvalidLaunchTemplateId.NotFound',
    });
    const listed = await h.ec2.send(
      new DescribeLaunchTemplatesCommand({ Filters: [{ Name: 'launch-template-name', Values: ['node'] }] }),
    );
    expect(listed.LaunchTemplates ?? []).toEqual([]);
    await h.clock.advance(WINDOW_MS);
    const found = await h.ec2.send(new DescribeLaunchTemplatesCommand({ LaunchTemplateNames: ['node'] }));
    expect(found.LaunchTemplates?.[0].LaunchTemplateId).toBe(id);
  });

  it('misses a just-launched instance by id (InvalidInstanceID.NotFound) and by filter, and its interfaces, until the window ends', async () => {
    await createNodeTemplate(h, 'node');
    await h.clock.advance(WINDOW_MS);
    const id = await launch();
    await expect(h.ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }))).rejects.toMatchObject({
      name: 'InvalidInstanceID.NotFound',
      message: `The instance IDs '${id}' do not exist`,
    });
    const filtered = await h.ec2.send(
      new DescribeInstancesCommand({ Filters: [{ Name: 'instance-id', Values: [id] }] }),
    );
    expect(filtered.Reservations ?? []).toEqual([]);
    const enis = await h.ec2.send(
      new DescribeNetworkInterfacesCommand({ Filters: [{ Name: 'attachment.instance-id', Values: [id] }] }),
    );
    expect(enis.NetworkInterfaces ?? []).toEqual([]);
    await h.clock.advance(WINDOW_MS);
    const described = await h.ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }));
    expect(described.Reservations?.[0].Instances?.[0].InstanceId).toBe(id);
    const later = await h.ec2.send(
      new DescribeNetworkInterfacesCommand({ Filters: [{ Name: 'attachment.instance-id', Values: [id] }] }),
    );
    expect(later.NetworkInterfaces).toHaveLength(1);
  });

  it('leaves just-written tags out of describe results and tag filters, then shows them', async () => {
    await createNodeTemplate(h, 'node');
    await h.clock.advance(WINDOW_MS);
    const id = await launch();
    await h.clock.advance(WINDOW_MS);
    await h.ec2.send(
      new CreateTagsCommand({ Resources: [id], Tags: [{ Key: 'karpenter.sh/nodeclaim', Value: 'n1' }] }),
    );
    const tagsOf = async () =>
      (await h.ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }))).Reservations?.[0].Instances?.[0]
        .Tags ?? [];
    expect((await tagsOf()).some((t) => t.Key === 'karpenter.sh/nodeclaim')).toBe(false);
    expect((await tagsOf()).some((t) => t.Key === 'joiner.sh/cluster')).toBe(true);
    const byTag = await h.ec2.send(
      new DescribeInstancesCommand({ Filters: [{ Name: 'tag:karpenter.sh/nodeclaim', Values: ['n1'] }] }),
    );
    expect(byTag.Reservations ?? []).toEqual([]);
    await h.clock.advance(WINDOW_MS);
    expect(await tagsOf()).toContainEqual({ Key: 'karpenter.sh/nodeclaim', Value: 'n1' });
  });
});

describe('EventualConsistency delays', () => {
  const delays = (seed: number) => {
    const clock = new VirtualClock();
    const model = new EventualConsistency(clock, new SeededRandom(seed), 1_000);
    const ids = Array.from({ length: 20 }, (_, i) => `i-${i}`);
    for (const id of ids) model.created(id);
    const visibleAt: number[] = [];
    return (async () => {
      for (let t = 0; t <= 1_000; t += 50) {
        for (const id of ids)
          if (!visibleAt[Number(id.slice(2))] && model.visible(id)) visibleAt[Number(id.slice(2))] = t;
        await clock.advance(50);
      }
      return visibleAt;
    })();
  };

  it('are drawn from the seeded random source (same seed, same delays) within the window', async () => {
    const a = await delays(7);
    expect(await delays(7)).toEqual(a);
    expect(a.every((t) => t > 0 && t <= 1_000)).toBe(true);
    expect(new Set(a).size).toBeGreaterThan(1);
  });

  it('refuse a window that is not a non-negative number', () => {
    expect(() => new EventualConsistency(new VirtualClock(), new SeededRandom(1), -1)).toThrow(/windowMs/);
  });
});
