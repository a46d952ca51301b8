import { CreateFleetCommand, DescribeInstancesCommand, RunInstancesCommand } from '@aws-sdk/client-ec2';
import { afterEach, describe, expect, it } from 'vitest';
import { spotServiceLinkedRoleArn } from '../../../../functions/simulator/ec2/authorization/spot-service-linked-role.js';
import { type Harness, startHarness } from './ec2-harness.js';
import { createNodeTemplate, NODE_ROLE_ARN, nodeConfig, PROFILE_ARN } from './iam-fixtures.js';
import { ids } from './multus-fixtures.js';
import { ACCESS_KEY, ACCOUNT, RecordingAuthorizer } from './recording-authorizer.js';

const KEY_ARN = `arn:aws:kms:us-west-2:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;

describe('a fresh account', () => {
  let h: Harness;
  let iam: RecordingAuthorizer;
  const start = async (options: { slr?: boolean; kms?: string } = {}) => {
    iam = new RecordingAuthorizer();
    h = await startHarness({
      iam,
      accessKeyId: ACCESS_KEY,
      spotServiceLinkedRole: options.slr,
      defaultEbsKmsKeyArn: options.kms,
      instanceProfileOf: (ref) =>
        ref.arn === PROFILE_ARN ? { arn: PROFILE_ARN, roleArn: NODE_ROLE_ARN } : undefined,
    });
    await createNodeTemplate(h, 'node', { spotRequestTags: true });
  };
  afterEach(() => h.close());

  const spotFleet = () =>
    h.ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'spot' },
        LaunchTemplateConfigs: nodeConfig(h, 'node'),
      }),
    );

  describe('spot service-linked role', () => {
    it('is absent by default; the first spot launch creates it when the caller may, then launches', async () => {
      await start();
      expect(h.sim.spotServiceLinkedRoleExists()).toBe(false);
      const out = await spotFleet();
      expect(out.Errors ?? []).toEqual([]);
      expect(out.Instances?.[0].InstanceIds).toHaveLength(1);
      expect(h.sim.spotServiceLinkedRoleExists()).toBe(true);
      expect(iam.of('iam:CreateServiceLinkedRole')).toEqual([
        {
          principal: expect.any(String),
          action: 'iam:CreateServiceLinkedRole',
          resource: spotServiceLinkedRoleArn(ACCOUNT),
          context: { 'iam:AWSServiceName': 'spot.amazonaws.com' },
        },
      ]);
      expect(spotServiceLinkedRoleArn(ACCOUNT)).toBe(
        `arn:aws:iam::${ACCOUNT}:role/aws-service-role/spot.amazonaws.com/AWSServiceRoleForEC2Spot`,
      );
      // Created once: later spot launches do not ask again.
      await spotFleet();
      expect(iam.of('iam:CreateServiceLinkedRole')).toHaveLength(1);
    });

    it('when the caller may not create it, spot fails with AuthFailure.ServiceLinkedRoleCreationNotPermitted in the fleet Errors; on-demand still launches', async () => {
      await start();
      iam.deny = (r) => r.action === 'iam:CreateServiceLinkedRole';
      const out = await spotFleet();
      expect(out.Instances ?? []).toEqual([]);
      expect(out.Errors).toEqual([
        expect.objectContaining({
          ErrorCode: 'AuthFailure.ServiceLinkedRoleCreationNotPermitted',
          ErrorMessage:
            'The provided credentials do not have permission to create the service-linked role for EC2 Spot Instances.',
          Lifecycle: 'spot',
        }),
      ]);
      expect(h.sim.spotServiceLinkedRoleExists()).toBe(false);
      const onDemand = await h.ec2.send(
        new CreateFleetCommand({
          Type: 'instant',
          TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
          LaunchTemplateConfigs: nodeConfig(h, 'node'),
        }),
      );
      expect(onDemand.Instances?.[0].InstanceIds).toHaveLength(1);
    });

    it('RunInstances of a spot instance fails with the same code as the call error', async () => {
      await start();
      iam.deny = (r) => r.action === 'iam:CreateServiceLinkedRole';
      await expect(
        h.ec2.send(
          new RunInstancesCommand({
            MinCount: 1,
            MaxCount: 1,
            InstanceType: 'm5.large',
            LaunchTemplate: { LaunchTemplateName: 'node' },
            SubnetId: ids(h).nodeSubnet('us-west-2a'),
            InstanceMarketOptions: { MarketType: 'spot' },
          }),
        ),
      ).rejects.toMatchObject({ name: 'AuthFailure.ServiceLinkedRoleCreationNotPermitted' });
    });

    it('present from the start: nothing is asked', async () => {
      await start({ slr: true });
      await spotFleet();
      expect(iam.of('iam:CreateServiceLinkedRole')).toEqual([]);
    });
  });

  describe('default EBS encryption with a customer-managed key', () => {
    it('asks the key grants EC2 uses as the caller; allowed, the instance runs', async () => {
      await start({ slr: true, kms: KEY_ARN });
      const out = await spotFleet();
      const id = out.Instances![0].InstanceIds![0];
      expect(iam.requests.filter((r) => r.action.startsWith('kms:'))).toEqual(
        ['kms:DescribeKey', 'kms:CreateGrant', 'kms:GenerateDataKeyWithoutPlaintext', 'kms:Decrypt'].map(
          (action) => ({
            principal: expect.any(String),
            action,
            resource: KEY_ARN,
            context: {
              'kms:ViaService': 'ec2.us-west-2.amazonaws.com',
              'kms:CallerAccount': ACCOUNT,
              ...(action === 'kms:CreateGrant' ? { 'kms:GrantIsForAWSResource': 'true' } : {}),
            },
          }),
        ),
      );
      const volume = iam.of('ec2:RunInstances').find((r) => r.resource.includes(':volume/'));
      expect(volume?.context['ec2:Encrypted']).toBe('true');
      await h.clock.advance(60_000);
      expect(h.sim.state.instances.get(id)?.state).toBe('running');
    });

    it('denied, the launch call succeeds but the instance terminates moments later with Client.InternalError', async () => {
      await start({ slr: true, kms: KEY_ARN });
      iam.deny = (r) => r.action === 'kms:GenerateDataKeyWithoutPlaintext';
      const out = await spotFleet();
      expect(out.Errors ?? []).toEqual([]);
      const id = out.Instances![0].InstanceIds![0];
      await h.clock.advance(60_000);
      const described = await h.ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }));
      const instance = described.Reservations?.[0].Instances?.[0];
      expect(instance?.State?.Name).toBe('terminated');
      expect(instance?.StateReason).toEqual({
        Code: 'Client.InternalError',
        Message: 'Client.InternalError: Client error on launch',
      });
      expect(h.running).toEqual([]);
    });

    it('a key that is not a KMS key ARN is refused at start, naming the option', async () => {
      await expect(startHarness({ defaultEbsKmsKeyArn: 'alias/aws/ebs' })).rejects.toThrow(
        /defaultEbsKmsKeyArn/,
      );
      await start();
    });
  });
});
