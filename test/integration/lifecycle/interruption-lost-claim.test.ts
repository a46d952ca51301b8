/**
 * A spot interruption warning for an instance whose nodeclaim record was deleted (lost state):
 * the interruption function adopts the instance at once and drains its node through the PDBs,
 * delivered twice at once and once again, and no pod is lost.
 */
import { DeleteItemCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { handleLifecycleEvent } from '../../../functions/core/lifecycle/handle-lifecycle-event.js';
import { provision } from '../../../functions/core/provisioning/provision.js';
import { runSweep } from '../../../functions/core/sweep/run-sweep.js';
import { sweepDepsFrom } from '../../../functions/core/sweep/sweep-deps-from.js';
import { createInterruptionHandler } from '../../../functions/handlers/interruption.js';
import { dependenciesFromEnv } from '../../../functions/handlers/runtime/dependencies.js';
import { createLambdaContext } from '../../../functions/simulator/runner/lambda-context.js';
import { applyManifests } from '../../../functions/simulator/scenario/cluster-manifests.js';
import { SIMULATOR_CREDENTIALS } from '../../../functions/simulator/sqs/sqs-simulator.js';
import { type SimProvisioning, startWithSeed } from '../provisioning/sim-harness.js';

let sim: SimProvisioning | undefined;

afterEach(async () => {
  await sim?.cloud.close();
  sim = undefined;
});

const lambdaEnv = { region: 'us-west-2', account: '123456789012', functionPrefix: 'joiner' };

function spotWarning(instanceId: string): SQSEvent {
  const body = JSON.stringify({
    id: `spot-${instanceId}`,
    'detail-type': 'EC2 Spot Instance Interruption Warning',
    source: 'aws.ec2',
    account: lambdaEnv.account,
    region: lambdaEnv.region,
    time: new Date(0).toISOString(),
    detail: { 'instance-id': instanceId, 'instance-action': 'terminate' },
  });
  return {
    Records: [
      {
        messageId: 'm-0',
        receiptHandle: 'r-0',
        body,
        attributes: {} as SQSEvent['Records'][number]['attributes'],
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:us-west-2:123456789012:q',
        awsRegion: 'us-west-2',
      },
    ],
  };
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 800; i++) {
    if (await check()) return;
    await sim?.cloud.runner.idle();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('a spot interruption for an instance whose claim record is lost', () => {
  it('adopts the instance once and drains its node through the PDBs: nothing lost, delivered twice', async () => {
    const s = await startWithSeed('examples/seed-004');
    sim = s;
    const ports = dependenciesFromEnv(s.cloud.env(), { clock: s.cloud.clock, log: s.log });
    const deps = sweepDepsFrom(ports);
    await provision(ports, { hints: [] });
    const ready = async () => {
      for (const step of [50_000, 20_000]) {
        await s.cloud.clock.advance(step);
        await s.cloud.kube.idle();
        for (const n of await ports.cluster.listNodes())
          await handleLifecycleEvent(deps, {
            detailType: 'NodeReady',
            detail: { nodeName: n.metadata.name },
          });
      }
    };
    await ready();
    const claim = (await ports.store.listNodeClaims(['Initialized'])).find(
      (c) => c.instance?.capacityType === 'spot',
    );
    if (!claim?.instance || !claim.nodeName) throw new Error('no initialized spot claim');
    const { instanceId } = claim.instance;
    const nodeName = claim.nodeName;
    const podsOn = async (node: string) =>
      (await ports.cluster.listPodsOnNode(node)).filter(
        (p) => !p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet'),
      );
    const workloads = async () =>
      (await Promise.all((await ports.cluster.listNodes()).map((n) => podsOn(n.metadata.name)))).flat();
    const onNode = () => podsOn(nodeName);
    const before = await onNode();
    expect(before.length).toBeGreaterThan(0);
    const total = (await workloads()).length;
    // Every app on the node behind a PDB allowing one pod down at a time.
    const apps = [
      ...new Set(before.map((p) => p.metadata.labels?.app).filter((a): a is string => typeof a === 'string')),
    ];
    await applyManifests(
      s.cloud.kube.store,
      apps.map((app) => ({
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: app, namespace: 'default' },
        spec: { maxUnavailable: 1, selector: { matchLabels: { app } } },
      })),
    );

    // Lost state: the claim record is deleted from the table.
    const dynamo = new DynamoDBClient({
      region: s.cloud.region,
      endpoint: s.cloud.endpoints.dynamodb,
      credentials: SIMULATOR_CREDENTIALS,
    });
    await dynamo.send(
      new DeleteItemCommand({
        TableName: s.cloud.tableName,
        Key: { pk: { S: 'nodeclaim' }, sk: { S: claim.id } },
      }),
    );
    dynamo.destroy();
    expect(await ports.store.getNodeClaim(claim.id)).toBeUndefined();

    // The warning, delivered twice at once and then once again.
    const handler = createInterruptionHandler(() => ports);
    const context = () => createLambdaContext(lambdaEnv, 'interruption', 30_000);
    const results = await Promise.all([
      handler(spotWarning(instanceId), context()),
      handler(spotWarning(instanceId), context()),
    ]);
    results.push(await handler(spotWarning(instanceId), context()));
    for (const r of results) expect(r.batchItemFailures).toEqual([]);
    const adopted = await ports.store.getNodeClaim(claim.id);
    expect(adopted?.state).toBe('Draining');
    expect(adopted?.instance?.instanceId).toBe(instanceId);
    expect(adopted?.disruption?.forceful).toBe(true);
    expect(
      s.log.lines.filter((l) => l.message.startsWith('interruption for an instance whose nodeclaim record')),
    ).toHaveLength(1);
    await waitFor(
      async () =>
        ((await ports.cluster.getNode(nodeName))?.spec?.taints ?? []).some(
          (t) => t.key === 'karpenter.sh/disrupted',
        ),
      'the node to carry the disrupted taint',
    );

    // The drain runs: replacement, evictions through the PDBs, the instance terminated.
    for (let i = 0; i < 60 && (await ports.store.getNodeClaim(claim.id))?.state !== 'Gone'; i++) {
      await runSweep(deps);
      await s.cloud.clock.advance(5_000);
      await s.cloud.kube.idle();
      for (const n of await ports.cluster.listNodes())
        await handleLifecycleEvent(deps, { detailType: 'NodeReady', detail: { nodeName: n.metadata.name } });
    }
    await runSweep(deps);
    await s.cloud.kube.scheduleNow();
    await s.cloud.kube.idle();
    const gone = await ports.store.getNodeClaim(claim.id);
    expect(gone?.state).toBe('Gone');
    expect(gone?.failure?.reason).toBe('SpotInterrupted');
    const after = await workloads();
    expect(after).toHaveLength(total);
    expect(await onNode()).toEqual([]);
    expect(await ports.cluster.listPendingPods()).toEqual([]);
    // Every pod on the node left through the Eviction API (its PDB consulted), none was deleted at the deadline.
    const evicted = s.log.lines
      .filter((l) => l.message === 'evicted pod(s)' && l.fields?.node === nodeName)
      .reduce((n, l) => n + Number(l.fields?.pods ?? 0), 0);
    expect(evicted).toBe(before.length);
    expect(s.log.messages()).toContain('disruption budgets refused eviction(s), retrying at the next step');
    expect(s.log.messages()).not.toContain('deleting pod(s) at the end of the termination grace period');
  }, 120_000);
});
