/**
 * Coexistence with Karpenter in the simulated cloud: a node launched by "another autoscaler"
 * (RunInstances without joiner's tags, registered by its kubelet with Karpenter's labels, with a
 * karpenter.sh NodeClaim object) is never terminated, cordoned or disrupted by joiner, even when
 * its NodePool has the name of one joiner manages; its capacity is used for pending pods. With
 * `JOINER_KARPENTER_KINDS=ignore`, Karpenter's NodePools launch nothing, and the log and the pod's
 * reason say so, while joiner.sh NodePools still launch.
 */
import { EC2Client, RunInstancesCommand } from '@aws-sdk/client-ec2';
import { afterEach, describe, expect, it } from 'vitest';
import type { Node } from '../../../functions/core/model/kube-objects.js';
import { newNodeClaim } from '../../../functions/core/nodeclaim/create.js';
import type { NodeClaim } from '../../../functions/core/nodeclaim/nodeclaim.js';
import { transition } from '../../../functions/core/nodeclaim/state-machine.js';
import { provision } from '../../../functions/core/provisioning/provision.js';
import type { ProvisionDeps } from '../../../functions/core/provisioning/types.js';
import { runSweep } from '../../../functions/core/sweep/run-sweep.js';
import { sweepDepsFrom } from '../../../functions/core/sweep/sweep-deps-from.js';
import { createProvisionerHandler } from '../../../functions/handlers/provisioner.js';
import { type Dependencies, dependenciesFromEnv } from '../../../functions/handlers/runtime/dependencies.js';
import { ENV } from '../../../functions/shared/env.js';
import { type SimulatedCloud, startSimulatedCloud } from '../../../functions/simulator/cloud.js';
import { iamOfManifests } from '../../../functions/simulator/scenario/account-iam.js';
import { applyManifests } from '../../../functions/simulator/scenario/cluster-manifests.js';
import type { Manifest } from '../../../functions/simulator/scenario/load-scenario.js';
import { podUnschedulableEvent, provisionerContext } from '../../builders/provisioning-event.js';
import { RecordingLog } from '../../unit/core/provisioning/fakes.js';

const CLUSTER = 'joiner-sim';
const discovery = [{ tags: { 'karpenter.sh/discovery': CLUSTER } }];
const nodeClassSpec = {
  role: 'KarpenterNodeRole',
  amiSelectorTerms: [{ alias: 'al2023@latest' }],
  subnetSelectorTerms: discovery,
  securityGroupSelectorTerms: discovery,
};

/** Karpenter's NodePool `default` (empty nodes go at once) and its EC2NodeClass. */
const karpenterConfig: Manifest[] = [
  {
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata: { name: 'default' },
    spec: nodeClassSpec,
  },
  {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'default' },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }],
        },
      },
      disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '0s' },
    },
  },
];

/** joiner's own NodePool `joiner` and NodeClass. */
const joinerConfig: Manifest[] = [
  { apiVersion: 'joiner.sh/v1', kind: 'NodeClass', metadata: { name: 'joiner' }, spec: nodeClassSpec },
  {
    apiVersion: 'joiner.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'joiner' },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: 'joiner.sh', kind: 'NodeClass', name: 'joiner' },
          requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }],
        },
      },
    },
  },
];

function pod(name: string, cpu: string, nodeSelector?: Record<string, string>): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: {
      ...(nodeSelector ? { nodeSelector } : {}),
      containers: [{ name: 'c', image: 'x', resources: { requests: { cpu, memory: '512Mi' } } }],
    },
  };
}

let cloud: SimulatedCloud | undefined;

afterEach(async () => {
  await cloud?.close();
  cloud = undefined;
});

/** A simulated cloud with `manifests` applied and their pods marked Unschedulable. */
async function start(manifests: Manifest[], env: Record<string, string> = {}) {
  cloud = await startSimulatedCloud({ seed: 7, clusterName: CLUSTER, ...iamOfManifests(manifests) });
  await applyManifests(cloud.kube.store, manifests);
  await cloud.kube.idle();
  await cloud.kube.scheduleNow();
  await cloud.kube.idle();
  const cloudEnv = { ...cloud.env(), ...env };
  process.env.AWS_ACCESS_KEY_ID = cloudEnv.AWS_ACCESS_KEY_ID;
  process.env.AWS_SECRET_ACCESS_KEY = cloudEnv.AWS_SECRET_ACCESS_KEY;
  const log = new RecordingLog();
  const deps: Dependencies & ProvisionDeps = {
    ...dependenciesFromEnv(cloudEnv, { clock: cloud.clock, log }),
    log,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 20))),
  };
  return { cloud, deps, log, env: cloudEnv };
}

/**
 * Launches an instance the way another autoscaler does: RunInstances with its own tags only, and
 * user data whose kubelet registers the node with Karpenter's labels for NodePool `pool`.
 */
async function launchByAnotherAutoscaler(
  c: SimulatedCloud,
  env: Record<string, string>,
  pool: string,
  tags: Record<string, string>,
): Promise<string> {
  const ec2 = new EC2Client({
    endpoint: c.endpoints.ec2,
    region: c.region,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
  });
  const image = [...c.ec2.state.images.values()].find(
    (i) => i.architecture === 'x86_64' && i.name.startsWith('amazon-eks-node-1.30'),
  );
  const subnet = [...c.ec2.state.subnets.values()]
    .map((s) => s.spec)
    .find((s) => s.tags?.['karpenter.sh/discovery'] === CLUSTER);
  const labels = `karpenter.sh/nodepool=${pool},karpenter.sh/registered=true,karpenter.sh/initialized=true,karpenter.sh/capacity-type=on-demand`;
  const userData = `#!/bin/bash\n/etc/eks/bootstrap.sh ${CLUSTER} --kubelet-extra-args '--node-labels=${labels}'\n`;
  const out = await ec2.send(
    new RunInstancesCommand({
      MinCount: 1,
      MaxCount: 1,
      ImageId: image?.imageId,
      InstanceType: 'm5.large',
      SubnetId: subnet?.subnetId,
      UserData: Buffer.from(userData).toString('base64'),
      TagSpecifications: [
        { ResourceType: 'instance', Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })) },
      ],
    }),
  );
  ec2.destroy();
  const id = out.Instances?.[0]?.InstanceId;
  if (!id) throw new Error('RunInstances returned no instance');
  return id;
}

/** Karpenter's tags on an instance it launched (no joiner.sh tag). */
const karpenterTags = (pool: string) => ({
  'karpenter.sh/nodepool': pool,
  'karpenter.sh/nodeclaim': `${pool}-abcde`,
  'karpenter.k8s.aws/ec2nodeclass': 'default',
  [`kubernetes.io/cluster/${CLUSTER}`]: 'owned',
  'eks:eks-cluster-name': CLUSTER,
});

const live = (c: SimulatedCloud) =>
  [...c.ec2.state.instances.values()].filter((i) => i.state !== 'terminated' && i.state !== 'shutting-down');

/** Advances virtual time until the instance's node is registered and Ready. */
async function nodeOf(c: SimulatedCloud, deps: Dependencies, instanceId: string): Promise<Node> {
  for (let i = 0; i < 60; i++) {
    await c.clock.advance(2_000);
    await c.kube.idle();
    const node = (await deps.cluster.listNodes()).find((n) => n.spec?.providerID?.endsWith(`/${instanceId}`));
    if (node?.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True')) return node;
  }
  throw new Error(`instance ${instanceId} never became a Ready node`);
}

/** The record of a claim retired (Gone) at `now` before its launch answered. */
function retiredClaim(id: string, now: number): NodeClaim {
  const pending = newNodeClaim(
    {
      id,
      nodePool: 'default',
      nodeClass: 'default',
      nodePoolHash: 'p',
      nodeClassHash: 'c',
      requirements: [],
      labels: {},
      taints: [],
      startupTaints: [],
      options: [{ instanceType: 'm5.large', zone: 'us-west-2a', capacityType: 'on-demand', price: 0.096 }],
      pods: [],
      requests: {},
    },
    now,
  );
  return transition(pending, 'Gone', now);
}

/** Karpenter's NodeClaim object for the node (joiner's claims live in its table, not here). */
function karpenterNodeClaim(pool: string, node: Node, instanceId: string): Manifest {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name: `${pool}-abcde`, labels: { 'karpenter.sh/nodepool': pool } },
    spec: {
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
      requirements: [],
    },
    status: { nodeName: node.metadata.name, providerID: `aws:///${instanceId}` },
  } as Manifest;
}

async function runProvisionerHandler(deps: Dependencies & ProvisionDeps, pods: string[]) {
  return createProvisionerHandler(() => deps)(podUnschedulableEvent(pods), provisionerContext());
}

describe('coexistence with Karpenter in the simulated cloud', () => {
  it("never terminates, cordons or disrupts another autoscaler's node, even of a NodePool joiner manages", async () => {
    const { cloud: c, deps, env } = await start(karpenterConfig);
    const theirs = await launchByAnotherAutoscaler(c, env, 'default', karpenterTags('default'));
    // This joiner's instance whose claim was retired while its launch was in flight: an orphan the
    // GC must take (control). Another joiner's (another table's) instance for the cluster is not.
    const table = env[ENV.tableName];
    await deps.store.createNodeClaim(retiredClaim('default-lost', c.clock.now()));
    const orphan = await launchByAnotherAutoscaler(c, env, 'default', {
      'joiner.sh/cluster': CLUSTER,
      'joiner.sh/owner': table,
      'joiner.sh/nodeclaim': 'default-lost',
    });
    const otherTable = await launchByAnotherAutoscaler(c, env, 'default', {
      'joiner.sh/cluster': CLUSTER,
      'joiner.sh/owner': `${table}-previous`,
      'joiner.sh/nodeclaim': 'default-elsewhere',
    });
    const node = await nodeOf(c, deps, theirs);
    await applyManifests(c.kube.store, [karpenterNodeClaim('default', node, theirs)]);
    expect(node.metadata.labels?.['karpenter.sh/nodepool']).toBe('default');

    const sweepDeps = sweepDepsFrom(dependenciesFromEnv(env, { clock: c.clock, log: new RecordingLog() }));
    // Well past the orphan grace and the NodePool's consolidateAfter: the node is empty all along.
    for (let minute = 0; minute < 20; minute++) {
      await c.clock.advance(60_000);
      await c.kube.idle();
      await runSweep(sweepDeps);
    }

    expect(live(c).map((i) => i.instanceId)).toEqual([theirs, otherTable]);
    expect(c.ec2.state.instances.get(orphan)?.state).toMatch(/shutting-down|terminated/);
    const after = (await deps.cluster.listNodes()).find((n) => n.metadata.name === node.metadata.name);
    expect(after).toBeDefined();
    expect(after?.spec?.unschedulable).toBeFalsy();
    expect((after?.spec?.taints ?? []).map((t) => t.key)).not.toContain('karpenter.sh/disrupted');
    expect(await deps.store.listNodeClaims(['Pending', 'Launched', 'Registered', 'Initialized'])).toEqual([]);
  });

  it("places a pending pod on another autoscaler's node and launches nothing for it", async () => {
    const { cloud: c, deps, env, log } = await start(karpenterConfig);
    const theirs = await launchByAnotherAutoscaler(c, env, 'default', karpenterTags('default'));
    const node = await nodeOf(c, deps, theirs);
    // A pending pod the simulated kube-scheduler leaves to joiner (it binds only its own
    // schedulerName's pods): joiner alone decides where it goes.
    const web = pod('web', '500m');
    await c.kube.store.create({ ...web, spec: { ...(web.spec as object), schedulerName: 'held' } });
    await c.kube.store.patch(
      'v1',
      'Pod',
      'web',
      'default',
      {
        status: {
          phase: 'Pending',
          conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
        },
      },
      'status',
    );
    const result = await provision(deps, { hints: [] });
    expect(result.pendingPods).toBe(1);
    expect(result.placedOnExisting).toBe(1);
    expect(result.created).toEqual([]);
    expect(live(c).map((i) => i.instanceId)).toEqual([theirs]);
    expect(JSON.stringify(log.lines)).toContain(node.metadata.name);
  });

  it("with JOINER_KARPENTER_KINDS=ignore leaves Karpenter's NodePools alone, says why, and still launches for joiner.sh NodePools", async () => {
    const manifests = [
      ...karpenterConfig,
      ...joinerConfig,
      pod('for-karpenter', '1', { 'karpenter.sh/nodepool': 'default' }),
      pod('for-joiner', '1', { 'karpenter.sh/nodepool': 'joiner' }),
    ];
    const { cloud: c, deps, log } = await start(manifests, { [ENV.karpenterKinds]: 'ignore' });
    const response = await runProvisionerHandler(deps, ['for-karpenter', 'for-joiner']);
    expect(response.batchItemFailures).toEqual([]);

    const instances = live(c);
    expect(instances).toHaveLength(1);
    expect(instances[0].tags).toMatchObject({
      'joiner.sh/cluster': CLUSTER,
      'karpenter.sh/nodepool': 'joiner',
    });
    const claims = await deps.store.listNodeClaims();
    expect(claims.map((cl) => cl.nodePool)).toEqual(['joiner']);

    const skipped = log.lines.filter((l) =>
      l.message.startsWith('leaving 1 NodePool(s) to another autoscaler'),
    );
    expect(skipped).toHaveLength(1);
    expect(skipped[0].fields?.nodepools).toEqual(['NodePool/default']);
    const lines = JSON.stringify(log.lines);
    expect(lines).toContain(
      "joiner does not manage NodePool(s) default (Karpenter's kinds are ignored: joiner:karpenterKinds=ignore)",
    );
    // No instance profile was made for Karpenter's EC2NodeClass: only joiner's NodeClass got one.
    const profiles = c.iam.state.listInstanceProfiles('/joiner/').map((p) => p.tags['joiner.sh/nodeclass']);
    expect(profiles).toEqual(['joiner']);
  });

  it('rejects a JOINER_KARPENTER_KINDS value it does not know, naming the variable', async () => {
    const { deps } = await start(karpenterConfig, { [ENV.karpenterKinds]: 'sometimes' });
    await expect(runProvisionerHandler(deps, ['nothing'])).rejects.toThrow(
      "environment variable JOINER_KARPENTER_KINDS must be one of manage, ignore (got 'sometimes')",
    );
  });
});
