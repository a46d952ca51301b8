/**
 * A karpenter.sh NodeClaim created by hand, where Karpenter's CRDs are installed but Karpenter is
 * not running and joiner manages Karpenter's kinds: Karpenter would launch it; joiner refuses it
 * loudly (Launched=False / Ready=False with the reason, one Warning event, one log line), launches
 * nothing for it, and stays quiet on later, duplicate and concurrent sweeps. A NodeClaim a previous
 * Karpenter launched is left alone, and with `karpenterKinds: ignore` joiner touches none.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runSweep } from '../../../functions/core/sweep/run-sweep.js';
import { sweepDepsFrom } from '../../../functions/core/sweep/sweep-deps-from.js';
import { createProvisionerHandler } from '../../../functions/handlers/provisioner.js';
import { dependenciesFromEnv } from '../../../functions/handlers/runtime/dependencies.js';
import { DETAIL_TYPES, JOINER_EVENT_SOURCE } from '../../../functions/shared/event-rules.js';
import { type SimulatedCloud, startSimulatedCloud } from '../../../functions/simulator/cloud.js';
import { applyManifests } from '../../../functions/simulator/scenario/cluster-manifests.js';
import type { Manifest } from '../../../functions/simulator/scenario/load-scenario.js';
import { provisionerContext, provisioningRecord } from '../../builders/provisioning-event.js';
import { RecordingLog } from '../../unit/core/provisioning/fakes.js';

/** Karpenter's NodeClaim CRD, as a Karpenter installation leaves it behind. */
const NODECLAIM_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'nodeclaims.karpenter.sh' },
  spec: {
    group: 'karpenter.sh',
    scope: 'Cluster',
    names: { plural: 'nodeclaims', singular: 'nodeclaim', kind: 'NodeClaim', categories: ['karpenter'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
} as Manifest;

const spec = {
  nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
  requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m5.large'] }],
  resources: { requests: { cpu: '1' } },
  expireAfter: '720h',
};

const handMade = {
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodeClaim',
  metadata: { name: 'by-hand' },
  spec,
} as Manifest;
/** A NodeClaim a Karpenter that ran before launched (a provider ID, Launched=True). */
const launchedBefore = {
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodeClaim',
  metadata: { name: 'default-old' },
  spec,
  status: {
    providerID: 'aws:///us-west-2a/i-0123456789abcdef0',
    conditions: [
      {
        type: 'Launched',
        status: 'True',
        reason: 'Launched',
        message: '',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
    ],
  },
} as Manifest;

let cloud: SimulatedCloud | undefined;
afterEach(async () => {
  await cloud?.close();
  cloud = undefined;
});

async function start(env: Record<string, string> = {}) {
  cloud = await startSimulatedCloud({ seed: 7, clusterName: 'joiner-sim' });
  await applyManifests(cloud.kube.store, [NODECLAIM_CRD]);
  await cloud.kube.idle();
  await applyManifests(cloud.kube.store, [handMade, launchedBefore]);
  const cloudEnv = { ...cloud.env(), ...env };
  const log = new RecordingLog();
  const deps = sweepDepsFrom(dependenciesFromEnv(cloudEnv, { clock: cloud.clock, log }));
  return { c: cloud, deps, log };
}

function objects(c: SimulatedCloud, apiVersion: string, kind: string): Record<string, unknown>[] {
  const api = c.kube.store.api;
  const type = api.registry.byKind(apiVersion, kind);
  if (!type) throw new Error(`${apiVersion} ${kind} is not served`);
  return api.view(type) as unknown as Record<string, unknown>[];
}

function nodeClaim(c: SimulatedCloud, name: string) {
  return objects(c, 'karpenter.sh/v1', 'NodeClaim').find(
    (o) => (o.metadata as { name: string }).name === name,
  ) as
    | { status?: { conditions?: { type: string; status: string; reason: string; message: string }[] } }
    | undefined;
}

const warningsAbout = (c: SimulatedCloud, name: string) =>
  objects(c, 'v1', 'Event').filter(
    (e) => (e.involvedObject as { name: string }).name === name && e.type === 'Warning',
  ) as { reason: string; message: string; involvedObject: { kind: string; apiVersion: string } }[];

describe('a karpenter.sh NodeClaim created by hand', () => {
  it('is refused loudly: conditions, one Warning event and one log line; nothing is launched', async () => {
    const { c, deps, log } = await start();
    const outcome = await runSweep(deps);
    expect(outcome.handMadeNodeClaims).toEqual(['by-hand']);

    const conditions = nodeClaim(c, 'by-hand')?.status?.conditions ?? [];
    for (const type of ['Launched', 'Ready'])
      expect(conditions.find((x) => x.type === type)).toMatchObject({
        status: 'False',
        reason: 'NotSupported',
        message: expect.stringContaining('joiner does not launch NodeClaims created by hand'),
      });
    const events = warningsAbout(c, 'by-hand');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      reason: 'NotSupported',
      involvedObject: { kind: 'NodeClaim', apiVersion: 'karpenter.sh/v1' },
    });
    expect(log.lines.filter((l) => l.message.startsWith('refusing NodeClaim by-hand'))).toHaveLength(1);
    expect([...c.ec2.state.instances.values()]).toEqual([]);

    // Left alone: the NodeClaim a previous Karpenter launched.
    expect(nodeClaim(c, 'default-old')?.status?.conditions?.map((x) => x.type)).toEqual(['Launched']);
    expect(warningsAbout(c, 'default-old')).toEqual([]);
  });

  it('duplicate and concurrent sweeps refuse it once', async () => {
    const { c, deps, log } = await start();
    await Promise.all([runSweep(deps), runSweep(deps)]);
    await runSweep(deps);
    const again = await runSweep(deps);
    expect(again.handMadeNodeClaims).toBeUndefined();
    // Two sweeps at once may both see it unrefused; at most those two report, later ones stay quiet.
    const reports = log.lines.filter((l) => l.message.startsWith('refusing NodeClaim by-hand')).length;
    expect(reports).toBeGreaterThanOrEqual(1);
    expect(reports).toBeLessThanOrEqual(2);
    expect(warningsAbout(c, 'by-hand').length).toBe(reports);
  });

  it("the webhook's event for its creation has the provisioner refuse it at once; a duplicate delivery reports nothing more", async () => {
    const c = (await start()).c;
    const log = new RecordingLog();
    process.env.AWS_ACCESS_KEY_ID = c.env().AWS_ACCESS_KEY_ID;
    process.env.AWS_SECRET_ACCESS_KEY = c.env().AWS_SECRET_ACCESS_KEY;
    const deps = {
      ...dependenciesFromEnv(c.env(), { clock: c.clock, log }),
      log,
      sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 20))),
    };
    const body = JSON.stringify({
      id: 'evt-claim',
      'detail-type': DETAIL_TYPES.configurationChanged,
      source: JOINER_EVENT_SOURCE,
      time: '2025-01-01T00:00:00Z',
      detail: { group: 'karpenter.sh', kind: 'NodeClaim', name: 'by-hand' },
    });
    const handler = createProvisionerHandler(() => deps);
    const event = { Records: [provisioningRecord('m0', body), provisioningRecord('m1', body)] };
    await handler(event, provisionerContext());
    await handler(event, provisionerContext());
    expect(nodeClaim(c, 'by-hand')?.status?.conditions?.find((x) => x.type === 'Launched')?.reason).toBe(
      'NotSupported',
    );
    expect(warningsAbout(c, 'by-hand')).toHaveLength(1);
    expect(log.lines.filter((l) => l.message.startsWith('refusing NodeClaim by-hand'))).toHaveLength(1);
  });

  it('with karpenterKinds=ignore (a running Karpenter owns it) joiner leaves it alone', async () => {
    const { c, deps } = await start({ JOINER_KARPENTER_KINDS: 'ignore' });
    const outcome = await runSweep({ ...deps, karpenterKinds: 'ignore' });
    expect(outcome.handMadeNodeClaims).toBeUndefined();
    expect(nodeClaim(c, 'by-hand')?.status).toBeUndefined();
    expect(warningsAbout(c, 'by-hand')).toEqual([]);
  });
});
