import {
  CreateFleetCommand,
  CreateTagsCommand,
  DeleteLaunchTemplateCommand,
  DescribeInstancesCommand,
  DescribeSubnetsCommand,
  ModifyNetworkInterfaceAttributeCommand,
  RunInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeAuthorizationFailureMessage } from '../../../../functions/simulator/ec2/authorization/unauthorized-operation.js';
import { type Harness, startHarness } from './ec2-harness.js';
import {
  arn,
  CLUSTER_TAG,
  createNodeTemplate,
  NODE_ROLE_ARN,
  nodeConfig,
  PROFILE_ARN,
  REGION,
} from './iam-fixtures.js';
import { ids } from './multus-fixtures.js';
import { ACCESS_KEY, RecordingAuthorizer, ROLE } from './recording-authorizer.js';

const TAGGED = { [`aws:RequestTag/${CLUSTER_TAG}`]: 'demo', 'aws:TagKeys': [CLUSTER_TAG] };

describe('the simulated EC2 authorizes each call as IAM would, per resource', () => {
  let h: Harness;
  let iam: RecordingAuthorizer;
  beforeEach(async () => {
    iam = new RecordingAuthorizer();
    h = await startHarness({
      iam,
      accessKeyId: ACCESS_KEY,
      spotServiceLinkedRole: true,
      instanceProfileOf: (ref) =>
        ref.arn === PROFILE_ARN ? { arn: PROFILE_ARN, roleArn: NODE_ROLE_ARN } : undefined,
    });
  });
  afterEach(() => h.close());

  it('CreateLaunchTemplate: the template with its request tags, and CreateTags with ec2:CreateAction', async () => {
    await createNodeTemplate(h, 'node-a');
    expect(iam.requests).toEqual([
      {
        principal: ROLE,
        action: 'ec2:CreateLaunchTemplate',
        resource: arn('launch-template', '*'),
        context: { 'ec2:Region': REGION, ...TAGGED },
      },
      {
        principal: ROLE,
        action: 'ec2:CreateTags',
        resource: arn('launch-template', '*'),
        context: { 'ec2:Region': REGION, 'ec2:CreateAction': 'CreateLaunchTemplate', ...TAGGED },
      },
    ]);
  });

  it('CreateFleet: ec2:CreateFleet on the fleet and template, then ec2:RunInstances on every resource of the launch, CreateTags on creation and PassRole', async () => {
    const ltId = await createNodeTemplate(h, 'node-a');
    const from = iam.requests.length;
    const out = await h.ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
        LaunchTemplateConfigs: nodeConfig(h, 'node-a'),
        TagSpecifications: [
          { ResourceType: 'fleet', Tags: [{ Key: CLUSTER_TAG, Value: 'demo' }] },
          { ResourceType: 'instance', Tags: [{ Key: CLUSTER_TAG, Value: 'demo' }] },
        ],
      }),
    );
    expect(out.Errors ?? []).toEqual([]);
    expect(out.Instances?.[0].InstanceIds).toHaveLength(1);
    const t = ids(h);
    const fleet = iam.of('ec2:CreateFleet', from);
    expect(fleet.map((r) => r.resource)).toEqual([
      arn('fleet', '*'),
      arn('launch-template', ltId),
      arn('instance', '*'),
      arn('volume', '*'),
      arn('image', t.al2023),
      arn('subnet', t.nodeSubnet('us-west-2a')),
    ]);
    expect(fleet[0].context).toEqual({ 'ec2:Region': REGION, ...TAGGED });
    expect(fleet[1].context).toEqual({
      'ec2:Region': REGION,
      [`aws:ResourceTag/${CLUSTER_TAG}`]: 'demo',
      [`ec2:ResourceTag/${CLUSTER_TAG}`]: 'demo',
    });

    const run = iam.of('ec2:RunInstances', from);
    expect(run.map((r) => r.resource).sort()).toEqual(
      [
        arn('image', t.al2023),
        arn('snapshot', t.al2023.replace('ami-', 'snap-')),
        arn('launch-template', ltId),
        arn('instance', '*'),
        arn('network-interface', '*'),
        arn('security-group', t.nodeGroup),
        arn('subnet', t.nodeSubnet('us-west-2a')),
        arn('volume', '*'),
      ].sort(),
    );
    const instance = run.find((r) => r.resource === arn('instance', '*'))!;
    expect(instance.context).toMatchObject({
      ...TAGGED,
      'ec2:Region': REGION,
      'ec2:InstanceType': 'm5.large',
      'ec2:InstanceMarketType': 'on-demand',
      'ec2:InstanceProfile': PROFILE_ARN,
      'ec2:LaunchTemplate': arn('launch-template', ltId),
      'ec2:MetadataHttpTokens': 'required',
    });
    const eni = run.find((r) => r.resource === arn('network-interface', '*'))!;
    expect(eni.context).toMatchObject({ ...TAGGED, 'ec2:Subnet': arn('subnet', t.nodeSubnet('us-west-2a')) });
    const volume = run.find((r) => r.resource === arn('volume', '*'))!;
    expect(volume.context).toMatchObject({ ...TAGGED, 'ec2:VolumeSize': '20', 'ec2:VolumeType': 'gp3' });
    // Existing resources carry their own tags, never request tags.
    const template = run.find((r) => r.resource === arn('launch-template', ltId))!;
    expect(template.context[`aws:ResourceTag/${CLUSTER_TAG}`]).toBe('demo');
    expect(template.context['aws:TagKeys']).toBeUndefined();
    // No spot request for on-demand.
    expect(run.some((r) => r.resource.includes('spot-instances-request'))).toBe(false);

    const tagging = iam.of('ec2:CreateTags', from);
    expect(tagging.map((r) => [r.resource, r.context['ec2:CreateAction']])).toEqual([
      [arn('fleet', '*'), 'CreateFleet'],
      [arn('instance', '*'), 'RunInstances'],
      [arn('volume', '*'), 'RunInstances'],
      [arn('network-interface', '*'), 'RunInstances'],
    ]);
    expect(iam.of('iam:PassRole', from)).toEqual([
      {
        principal: ROLE,
        action: 'iam:PassRole',
        resource: NODE_ROLE_ARN,
        context: {
          'iam:PassedToService': 'ec2.amazonaws.com',
          'iam:AssociatedResourceArn': arn('instance', '*'),
        },
      },
    ]);
  });

  it('a spot launch is also authorized on the spot-instances-request with the tags for that type', async () => {
    await createNodeTemplate(h, 'spot-tagged', { spotRequestTags: true });
    const from = iam.requests.length;
    const out = await h.ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'spot' },
        LaunchTemplateConfigs: nodeConfig(h, 'spot-tagged'),
      }),
    );
    expect(out.Errors ?? []).toEqual([]);
    const sir = iam
      .of('ec2:RunInstances', from)
      .find((r) => r.resource === arn('spot-instances-request', '*'));
    expect(sir?.context).toEqual({ 'ec2:Region': REGION, ...TAGGED });
    expect(
      iam.of('ec2:CreateTags', from).some((r) => r.resource === arn('spot-instances-request', '*')),
    ).toBe(true);
  });

  it('a launch denied on one resource is an Errors entry of the instant fleet with the real code and a decodable message', async () => {
    await createNodeTemplate(h, 'untagged-spot');
    // The stack's rule: every created resource must carry the cluster request tag.
    iam.deny = (r) =>
      r.action === 'ec2:RunInstances' &&
      r.resource.endsWith('/*') &&
      !r.context[`aws:RequestTag/${CLUSTER_TAG}`];
    const out = await h.ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'spot' },
        LaunchTemplateConfigs: nodeConfig(h, 'untagged-spot'),
      }),
    );
    expect(out.Instances ?? []).toEqual([]);
    expect(h.sim.state.instances.size).toBe(0);
    const error = out.Errors?.[0];
    expect(error).toMatchObject({ ErrorCode: 'UnauthorizedOperation', Lifecycle: 'spot' });
    expect(error?.ErrorMessage).toContain(
      `You are not authorized to perform this operation. User: ${ROLE} is not authorized to perform: ec2:RunInstances on resource: ${arn('spot-instances-request', '*')} because no identity-based policy allows the ec2:RunInstances action. Encoded authorization failure message: `,
    );
    const decoded = decodeAuthorizationFailureMessage(error!.ErrorMessage!);
    expect(decoded).toMatchObject({
      allowed: false,
      explicitDeny: false,
      context: {
        principal: { arn: ROLE },
        action: 'ec2:RunInstances',
        resource: arn('spot-instances-request', '*'),
        conditions: { items: [{ key: 'ec2:Region', values: { items: [{ value: REGION }] } }] },
      },
    });
  });

  it('ec2:CreateFleet itself denied fails the call with UnauthorizedOperation (403), as the SDK reports it', async () => {
    const ltId = await createNodeTemplate(h, 'node-a');
    iam.explicit = true;
    iam.deny = (r) => r.action === 'ec2:CreateFleet' && r.resource.includes(':launch-template/');
    const error = await h.ec2
      .send(
        new CreateFleetCommand({
          Type: 'instant',
          TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
          LaunchTemplateConfigs: nodeConfig(h, 'node-a'),
        }),
      )
      .then(
        () => undefined,
        (e: unknown) => e as { name: string; message: string; $metadata: { httpStatusCode?: number } },
      );
    if (!error) throw new Error('CreateFleet was not refused');
    expect(error).toMatchObject({ name: 'UnauthorizedOperation', $metadata: { httpStatusCode: 403 } });
    expect(error.message).toContain(
      `is not authorized to perform: ec2:CreateFleet on resource: ${arn('launch-template', ltId)} with an explicit deny in an identity-based policy.`,
    );
    expect(decodeAuthorizationFailureMessage(error.message)).toMatchObject({
      explicitDeny: true,
      matchedStatements: { items: [{ statementId: 'test/Deny' }] },
    });
    expect(h.sim.state.instances.size).toBe(0);
    expect(h.sim.state.fleets.size).toBe(0);
  });

  it('RunInstances without a template: its own TagSpecifications as request tags, its subnet and security groups, asked once per call', async () => {
    const t = ids(h);
    const launched = await h.ec2.send(
      new RunInstancesCommand({
        MinCount: 2,
        MaxCount: 2,
        InstanceType: 'm5.large',
        ImageId: t.al2023,
        SubnetId: t.nodeSubnet('us-west-2b'),
        SecurityGroupIds: [t.nodeGroup],
        KeyName: 'ops',
        TagSpecifications: [{ ResourceType: 'instance', Tags: [{ Key: CLUSTER_TAG, Value: 'demo' }] }],
      }),
    );
    expect(launched.Instances).toHaveLength(2);
    const run = iam.of('ec2:RunInstances');
    expect(run.map((r) => r.resource).sort()).toEqual(
      [
        arn('image', t.al2023),
        arn('snapshot', t.al2023.replace('ami-', 'snap-')),
        arn('instance', '*'),
        arn('network-interface', '*'),
        arn('security-group', t.nodeGroup),
        arn('subnet', t.nodeSubnet('us-west-2b')),
        arn('volume', '*'),
        arn('key-pair', 'ops'),
      ].sort(),
    );
    expect(run.find((r) => r.resource === arn('instance', '*'))?.context).toMatchObject(TAGGED);
    expect(run.find((r) => r.resource === arn('volume', '*'))?.context['aws:TagKeys']).toBeUndefined();
    expect(run.find((r) => r.resource === arn('subnet', t.nodeSubnet('us-west-2b')))?.context).toMatchObject({
      'ec2:Vpc': `arn:aws:ec2:${REGION}:${h.sim.state.topology.accountId}:vpc/${h.sim.state.topology.vpcId}`,
      'ec2:AvailabilityZone': 'us-west-2b',
    });
    expect(iam.of('ec2:CreateTags').map((r) => [r.resource, r.context['ec2:CreateAction']])).toEqual([
      [arn('instance', '*'), 'RunInstances'],
    ]);
    expect(iam.of('iam:PassRole')).toEqual([]);
  });

  it('RunInstances denied iam:PassRole on the profile role fails the call and launches nothing', async () => {
    await createNodeTemplate(h, 'node-a');
    iam.deny = (r) => r.action === 'iam:PassRole';
    await expect(
      h.ec2.send(
        new RunInstancesCommand({
          MinCount: 1,
          MaxCount: 1,
          InstanceType: 'm5.large',
          LaunchTemplate: { LaunchTemplateName: 'node-a' },
          SubnetId: ids(h).nodeSubnet('us-west-2a'),
        }),
      ),
    ).rejects.toMatchObject({
      name: 'UnauthorizedOperation',
      message: expect.stringContaining(
        `is not authorized to perform: iam:PassRole on resource: ${NODE_ROLE_ARN}`,
      ),
    });
    expect(h.sim.state.instances.size).toBe(0);
  });

  it('CreateTags, TerminateInstances, ModifyNetworkInterfaceAttribute and DeleteLaunchTemplate: each resource with its own tags', async () => {
    const ltId = await createNodeTemplate(h, 'node-a');
    const out = await h.ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
        LaunchTemplateConfigs: nodeConfig(h, 'node-a'),
      }),
    );
    const instanceId = out.Instances![0].InstanceIds![0];
    const instance = h.sim.state.instances.get(instanceId)!;
    const volumeId = instance.blockDevices[0].volumeId;
    const eniId = instance.networkInterfaces[0].networkInterfaceId;
    const from = iam.requests.length;
    await h.ec2.send(
      new CreateTagsCommand({
        Resources: [volumeId, eniId],
        Tags: [{ Key: 'karpenter.sh/nodeclaim', Value: 'n1' }],
      }),
    );
    const tagging = iam.of('ec2:CreateTags', from);
    expect(tagging.map((r) => r.resource)).toEqual([
      arn('volume', volumeId),
      arn('network-interface', eniId),
    ]);
    expect(tagging[0].context).toEqual({
      'ec2:Region': REGION,
      [`aws:ResourceTag/${CLUSTER_TAG}`]: 'demo',
      [`ec2:ResourceTag/${CLUSTER_TAG}`]: 'demo',
      'aws:RequestTag/karpenter.sh/nodeclaim': 'n1',
      'aws:TagKeys': ['karpenter.sh/nodeclaim'],
    });
    expect(h.sim.state.instances.get(instanceId)!.blockDevices[0].tags['karpenter.sh/nodeclaim']).toBe('n1');

    await h.ec2.send(
      new ModifyNetworkInterfaceAttributeCommand({
        NetworkInterfaceId: eniId,
        SourceDestCheck: { Value: false },
      }),
    );
    expect(iam.of('ec2:ModifyNetworkInterfaceAttribute', from)[0]).toMatchObject({
      resource: arn('network-interface', eniId),
      context: { [`aws:ResourceTag/${CLUSTER_TAG}`]: 'demo', 'aws:ResourceTag/karpenter.sh/nodeclaim': 'n1' },
    });
    await h.ec2.send(new TerminateInstancesCommand({ InstanceIds: [instanceId] }));
    expect(iam.of('ec2:TerminateInstances', from)[0]).toMatchObject({
      resource: arn('instance', instanceId),
      context: { [`aws:ResourceTag/${CLUSTER_TAG}`]: 'demo', 'ec2:InstanceType': 'm5.large' },
    });
    await h.ec2.send(new DeleteLaunchTemplateCommand({ LaunchTemplateId: ltId }));
    expect(iam.of('ec2:DeleteLaunchTemplate', from)[0]).toMatchObject({
      resource: arn('launch-template', ltId),
      context: { [`aws:ResourceTag/${CLUSTER_TAG}`]: 'demo' },
    });
  });

  it('a denied CreateTags changes no tags', async () => {
    await createNodeTemplate(h, 'node-a');
    const out = await h.ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
        LaunchTemplateConfigs: nodeConfig(h, 'node-a'),
      }),
    );
    const instance = h.sim.state.instances.get(out.Instances![0].InstanceIds![0])!;
    const volumeId = instance.blockDevices[0].volumeId;
    iam.deny = (r) => r.action === 'ec2:CreateTags' && r.resource.includes(':volume/');
    await expect(
      h.ec2.send(
        new CreateTagsCommand({
          Resources: [instance.instanceId, volumeId],
          Tags: [{ Key: 'karpenter.sh/nodeclaim', Value: 'n1' }],
        }),
      ),
    ).rejects.toMatchObject({ name: 'UnauthorizedOperation' });
    expect(instance.tags['karpenter.sh/nodeclaim']).toBeUndefined();
  });

  it('Describe* calls are authorized on *', async () => {
    await h.ec2.send(new DescribeSubnetsCommand({}));
    await h.ec2.send(new DescribeInstancesCommand({}));
    expect(iam.requests.map((r) => [r.action, r.resource, r.context])).toEqual([
      ['ec2:DescribeSubnets', '*', { 'ec2:Region': REGION }],
      ['ec2:DescribeInstances', '*', { 'ec2:Region': REGION }],
    ]);
    iam.deny = (r) => r.action === 'ec2:DescribeInstances';
    await expect(h.ec2.send(new DescribeInstancesCommand({}))).rejects.toMatchObject({
      name: 'UnauthorizedOperation',
    });
  });
});

describe('credentials the account does not know', () => {
  it('answer AuthFailure (401) as EC2 does, before anything is authorized', async () => {
    const iam = new RecordingAuthorizer();
    const h = await startHarness({ iam, accessKeyId: 'AKIAUNKNOWN', maxAttempts: 1 });
    try {
      const error = await h.ec2
        .send(new DescribeInstancesCommand({}))
        .catch(
          (e: unknown) => e as { name: string; message: string; $metadata: { httpStatusCode?: number } },
        );
      expect(error).toMatchObject({
        name: 'AuthFailure',
        message: 'AWS was not able to validate the provided access credentials',
        $metadata: { httpStatusCode: 401 },
      });
      expect(iam.requests).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
