import { existsSync } from 'node:fs';
import {
  DescribeImagesCommand,
  DescribeSubnetsCommand,
  EC2Client,
  RunInstancesCommand,
} from '@aws-sdk/client-ec2';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../../../functions/shared/env.js';
import {
  DETAIL_TYPES,
  JOINER_BUS_NAME,
  JOINER_EVENT_SOURCE,
} from '../../../../functions/shared/event-rules.js';
import { type SimulatedCloud, startSimulatedCloud } from '../../../../functions/simulator/cloud.js';

const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
let cloud: SimulatedCloud;
let startMs: number;
const provisioned: unknown[] = [];
const interruptions: unknown[] = [];
const countHandles = () => {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
};
const handlesBefore = countHandles();

const bodies = (event: SQSEvent) => event.Records.map((r) => JSON.parse(r.body));

beforeAll(async () => {
  const started = Date.now();
  cloud = await startSimulatedCloud({
    seed: 7,
    handlers: {
      provisioner: async (event: SQSEvent) => void provisioned.push(...bodies(event)),
      interruption: async (event: SQSEvent) => void interruptions.push(...bodies(event)),
    },
  });
  startMs = Date.now() - started;
});

afterAll(async () => {
  await cloud?.close();
});

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('startSimulatedCloud', () => {
  it('starts every service on loopback with the bundled catalog in under 3 s and describes how to reach them', () => {
    expect(startMs).toBeLessThan(3000);
    expect(cloud.region).toBe('us-west-2');
    for (const url of Object.values(cloud.endpoints)) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(existsSync(cloud.kubeconfigPath)).toBe(true);
    const env = cloud.env();
    expect(env[ENV.clusterName]).toBe('joiner-sim');
    expect(env[ENV.kubeconfig]).toBe(cloud.controllerKubeconfigPath);
    expect(env[ENV.busName]).toBe(JOINER_BUS_NAME);
    expect(env[ENV.timersQueueUrl]).toBe(cloud.queueUrls.timers);
    expect(env[ENV.dynamoDbEndpoint]).toBe(cloud.endpoints.dynamodb);
    expect(env[ENV.tableName]).toBe(cloud.tableName);
    expect(Object.keys(cloud.dlqUrls).sort()).toEqual([
      'interruption',
      'lifecycle',
      'provisioning',
      'timers',
    ]);
  });

  it('serves the Kubernetes API through the kubeconfig file', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(cloud.kubeconfigPath);
    const namespaces = await kc.makeApiClient(CoreV1Api).listNamespace();
    expect(namespaces.items.map((n) => n.metadata?.name)).toContain('kube-system');
  });

  it('routes a joiner event from PutEvents through the rule and queue to the provisioner', async () => {
    const client = new EventBridgeClient({
      region: cloud.region,
      endpoint: cloud.endpoints.eventbridge,
      credentials,
    });
    const out = await client.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: JOINER_BUS_NAME,
            Source: JOINER_EVENT_SOURCE,
            DetailType: DETAIL_TYPES.podUnschedulable,
            Detail: JSON.stringify({ namespace: 'default', name: 'web-0' }),
          },
        ],
      }),
    );
    client.destroy();
    expect(out.FailedEntryCount).toBe(0);
    await until(() => provisioned.length === 1);
    expect(provisioned[0]).toMatchObject({ 'detail-type': 'PodUnschedulable', detail: { name: 'web-0' } });
  });

  it('delivers EC2 spot interruption events from the simulated EC2 to the interruption handler', async () => {
    const ec2 = new EC2Client({ region: cloud.region, endpoint: cloud.endpoints.ec2, credentials });
    const images = await ec2.send(new DescribeImagesCommand({}));
    const subnets = await ec2.send(new DescribeSubnetsCommand({}));
    const run = await ec2.send(
      new RunInstancesCommand({
        MinCount: 1,
        MaxCount: 1,
        InstanceType: 'm5.large',
        ImageId: images.Images?.[0].ImageId,
        SubnetId: subnets.Subnets?.[0].SubnetId,
        InstanceMarketOptions: { MarketType: 'spot' },
      }),
    );
    ec2.destroy();
    const id = run.Instances?.[0].InstanceId as string;
    await cloud.clock.advance(15_000);
    cloud.ec2.interruptSpot(id);
    await until(() => interruptions.length >= 1);
    expect(interruptions[0]).toMatchObject({
      source: 'aws.ec2',
      'detail-type': 'EC2 Spot Instance Interruption Warning',
      account: '111122223333',
      detail: { 'instance-id': id },
    });
  });

  it('closes every server, timer and temp file', async () => {
    const path = cloud.kubeconfigPath;
    await cloud.close();
    expect(existsSync(path)).toBe(false);
    // Node's HTTP date cache keeps a 1 s timer after the last response; anything else is a leak.
    const leaked = () => [...countHandles()].filter(([kind, n]) => n > (handlesBefore.get(kind) ?? 0));
    const deadline = Date.now() + 1500;
    while (leaked().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(leaked()).toEqual([]);
  });
});
