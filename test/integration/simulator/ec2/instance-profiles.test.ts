import { CreateFleetCommand, RunInstancesCommand } from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './ec2-harness.js';
import { createMultusTemplates, ids, multusConfigs } from './multus-fixtures.js';

const KNOWN = new Set(['joiner-node', 'arn:aws:iam::123456789012:instance-profile/joiner-node']);

describe('launches naming an instance profile IAM does not have', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ instanceProfileExists: (ref) => KNOWN.has(ref.arn ?? ref.name ?? '') });
  });
  afterEach(() => h.close());

  const run = (profile: { Name?: string; Arn?: string }) => {
    const t = ids(h);
    return h.ec2.send(
      new RunInstancesCommand({
        MinCount: 1,
        MaxCount: 1,
        InstanceType: 'm5.large',
        ImageId: t.al2023,
        SubnetId: t.nodeSubnet('us-west-2a'),
        SecurityGroupIds: [t.nodeGroup],
        IamInstanceProfile: profile,
      }),
    );
  };

  it('RunInstances refuses them with InvalidParameterValue, as EC2 words it', async () => {
    await expect(run({ Name: 'ghost' })).rejects.toMatchObject({
      name: 'InvalidParameterValue',
      message:
        'Value (ghost) for parameter iamInstanceProfile.name is invalid. Invalid IAM Instance Profile name',
    });
    await expect(run({ Arn: 'arn:aws:iam::123456789012:instance-profile/ghost' })).rejects.toMatchObject({
      name: 'InvalidParameterValue',
      message: expect.stringContaining('Invalid IAM Instance Profile ARN'),
    });
    expect(h.sim.state.instances.size).toBe(0);
    const ok = await run({ Name: 'joiner-node' });
    expect(ok.Instances).toHaveLength(1);
  });

  it('CreateFleet reports them per override and launches nothing', async () => {
    await createMultusTemplates(h);
    const configs = multusConfigs(h, ['c6i.2xlarge']);
    // The templates name no profile: make every version name one IAM does not have.
    for (const template of h.sim.state.launchTemplates.values())
      for (const [n, data] of template.versions)
        template.versions.set(n, { ...data, iamInstanceProfile: { name: 'ghost' } });
    const out = await h.ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
        LaunchTemplateConfigs: configs,
      }),
    );
    expect(out.Instances ?? []).toEqual([]);
    expect(out.Errors?.[0]).toMatchObject({
      ErrorCode: 'InvalidParameterValue',
      ErrorMessage: expect.stringContaining('Invalid IAM Instance Profile name'),
    });
  });
});
