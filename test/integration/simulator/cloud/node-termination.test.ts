import {
  DescribeImagesCommand,
  DescribeSubnetsCommand,
  EC2Client,
  RunInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { CoreV1Api, KubeConfig, type V1Node } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimulatedCloud, startSimulatedCloud } from '../../../../functions/simulator/cloud.js';
import { nodeConfigUserData } from '../../../builders/node-config.js';
import { smallCatalog } from './small-catalog.js';

const userData = nodeConfigUserData({
  cluster: 'joiner-sim',
  endpoint: 'https://sim.example',
  flags: ['--node-labels=karpenter.sh/nodepool=default'],
});

const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
let cloud: SimulatedCloud;
let ec2: EC2Client;
let core: CoreV1Api;

beforeAll(async () => {
  cloud = await startSimulatedCloud({ seed: 5, catalog: smallCatalog });
  ec2 = new EC2Client({ region: cloud.region, endpoint: cloud.endpoints.ec2, credentials });
  const kc = new KubeConfig();
  kc.loadFromFile(cloud.kubeconfigPath);
  core = kc.makeApiClient(CoreV1Api);
});
afterAll(async () => {
  ec2?.destroy();
  await cloud?.close();
});

const advance = async (ms: number): Promise<void> => {
  for (let t = 0; t < ms; t += 1000) {
    await cloud.clock.advance(1000);
    await cloud.kube.idle();
  }
};

describe('an instance joiner terminates and whose Node it deletes', () => {
  it('ends terminated, its Node gone for good, its pods collected, without a simulator error', async () => {
    const images = await ec2.send(new DescribeImagesCommand({}));
    const subnets = await ec2.send(new DescribeSubnetsCommand({}));
    const run = await ec2.send(
      new RunInstancesCommand({
        MinCount: 1,
        MaxCount: 1,
        InstanceType: 'm5.large',
        ImageId: images.Images?.[0].ImageId,
        SubnetId: subnets.Subnets?.[0].SubnetId,
        UserData: Buffer.from(userData).toString('base64'),
      }),
    );
    const id = run.Instances?.[0].InstanceId as string;
    await advance(90_000);
    const [node] = cloud.kube.store.list<V1Node>('v1', 'Node');
    expect(node?.spec?.providerID).toContain(id);
    await cloud.kube.store.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'leftover', namespace: 'default' },
      spec: { nodeName: node.metadata?.name, containers: [{ name: 'c', image: 'x' }] },
    });
    await advance(10_000);
    expect(
      cloud.kube.store.get<{ status: { phase: string } }>('v1', 'Pod', 'leftover', 'default')?.status.phase,
    ).toBe('Running');

    await ec2.send(new TerminateInstancesCommand({ InstanceIds: [id] }));
    await core.deleteNode({ name: node.metadata?.name as string });
    await advance(120_000);
    expect(cloud.ec2.state.instances.get(id)?.state).toBe('terminated');
    expect(cloud.kube.store.list('v1', 'Node')).toEqual([]);
    expect(cloud.kube.store.get('v1', 'Pod', 'leftover', 'default')).toBeUndefined();
    expect(cloud.kube.podsLost().map((l) => l.pod)).toEqual(['default/leftover']);
    expect(cloud.kube.problems()).toEqual([]);
  });
});
