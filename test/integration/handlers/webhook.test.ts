import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookConfiguration } from '../../../functions/core/install/webhook-configuration.js';
import { silentLog } from '../../../functions/core/ports/log.js';
import { dependenciesFromEnv } from '../../../functions/handlers/runtime/dependencies.js';
import { createWebhookHandler } from '../../../functions/handlers/webhook.js';
import { type SimulatedCloud, startSimulatedCloud } from '../../../functions/simulator/cloud.js';
import type { FunctionHandler } from '../../../functions/simulator/runner/lambda-runner.js';
import { smallCatalog } from '../simulator/cloud/small-catalog.js';

let cloud: SimulatedCloud;
let sqs: SQSClient;

beforeAll(async () => {
  cloud = await startSimulatedCloud({ catalog: smallCatalog, seed: 11 });
  const env = cloud.env();
  cloud.runner.setHandler(
    'webhook',
    // The runner's handler type takes any trigger's event; the webhook is only ever behind the URL.
    createWebhookHandler(() =>
      dependenciesFromEnv(env, { clock: cloud.clock, log: silentLog }),
    ) as unknown as FunctionHandler,
  );
  sqs = new SQSClient({
    region: cloud.region,
    endpoint: cloud.endpoints.sqs,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
  });
}, 30_000);
afterAll(async () => {
  sqs.destroy();
  await cloud.close();
});

async function receive(queueUrl: string, tries = 10): Promise<unknown[]> {
  for (let i = 0; i < tries; i++) {
    const out = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    if (out.Messages?.length) return out.Messages.map((m) => JSON.parse(m.Body ?? 'null'));
  }
  return [];
}

describe('webhook end to end in the simulated cloud', () => {
  it('the API server calls the webhook for an unschedulable pod and PodUnschedulable reaches the provisioning queue', async () => {
    // The handler reads the secret from the simulated Secrets Manager (JOINER_WEBHOOK_SECRET_ARN).
    const secret = cloud.webhookSecret.value;
    await cloud.kube.store.create(webhookConfiguration({ url: `${cloud.webhookUrl}${secret}` }));
    await cloud.kube.store.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'big', namespace: 'default' },
      spec: {
        containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '2', memory: '1Gi' } } }],
      },
    });
    await cloud.kube.scheduleNow();
    const messages = (await receive(cloud.queueUrls.provisioning)) as {
      'detail-type': string;
      source: string;
      detail: { namespace: string; name: string; uid: string };
    }[];
    expect(messages.length).toBeGreaterThan(0);
    expect(messages[0]).toMatchObject({
      source: 'joiner',
      'detail-type': 'PodUnschedulable',
      detail: { namespace: 'default', name: 'big' },
    });
    expect(messages[0].detail.uid).toBeTruthy();
    const calls = cloud.runner.invocations().filter((i) => i.functionName === 'webhook');
    expect(calls.length).toBeGreaterThan(0);
  }, 30_000);

  it('a forged call with a wrong secret gets 401 and forwards nothing', async () => {
    const res = await fetch(`${cloud.webhookUrl}not-the-secret-at-all`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: {} }),
    });
    expect(res.status).toBe(401);
    await res.text();
    expect(await receive(cloud.queueUrls.provisioning, 2)).toEqual([]);
  }, 30_000);
});
