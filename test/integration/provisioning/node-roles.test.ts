/**
 * EC2NodeClass roles through the simulated cloud, with the real handler and adapters: a role
 * joiner may pass gets the instance profile joiner makes, and the node launches with it; a role
 * it may not pass launches nothing, and the plan says why.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { nodeClassInstanceProfileName } from '../../../functions/core/launch/node-role.js';
import type { ProvisionDeps } from '../../../functions/core/provisioning/types.js';
import { createProvisionerHandler } from '../../../functions/handlers/provisioner.js';
import { type Dependencies, dependenciesFromEnv } from '../../../functions/handlers/runtime/dependencies.js';
import { type SimulatedCloud, startSimulatedCloud } from '../../../functions/simulator/cloud.js';
import { applyManifests } from '../../../functions/simulator/scenario/cluster-manifests.js';
import type { Manifest } from '../../../functions/simulator/scenario/load-scenario.js';
import { podUnschedulableEvent, provisionerContext } from '../../builders/provisioning-event.js';
import { RecordingLog } from '../../unit/core/provisioning/fakes.js';

const CLUSTER = 'joiner-sim';
const discovery = [{ tags: { 'karpenter.sh/discovery': CLUSTER } }];

function manifests(role: string): Manifest[] {
  return [
    {
      apiVersion: 'karpenter.k8s.aws/v1',
      kind: 'EC2NodeClass',
      metadata: { name: 'ml' },
      spec: {
        role,
        amiSelectorTerms: [{ alias: 'al2023@latest' }],
        subnetSelectorTerms: discovery,
        securityGroupSelectorTerms: discovery,
        tags: { team: 'ml' },
      },
    },
    {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'ml' },
      spec: {
        template: {
          spec: {
            nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'ml' },
            requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'trainer', namespace: 'default', uid: 'uid-trainer' },
      spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '2', memory: '2Gi' } } }] },
    },
  ];
}

let cloud: SimulatedCloud | undefined;

afterEach(async () => {
  await cloud?.close();
  cloud = undefined;
});

/** A simulated cloud where SomeRole exists and joiner may pass it, with `role` on the NodeClass. */
async function start(role: string, iamPropagationMs = 0) {
  cloud = await startSimulatedCloud({
    seed: 5,
    clusterName: CLUSTER,
    nodeRoles: ['SomeRole'],
    iamPropagationMs,
  });
  await applyManifests(cloud.kube.store, manifests(role));
  await cloud.kube.idle();
  await cloud.kube.scheduleNow();
  await cloud.kube.idle();
  const env = cloud.env();
  process.env.AWS_ACCESS_KEY_ID = env.AWS_ACCESS_KEY_ID;
  process.env.AWS_SECRET_ACCESS_KEY = env.AWS_SECRET_ACCESS_KEY;
  const log = new RecordingLog();
  const deps: Dependencies & ProvisionDeps = {
    ...dependenciesFromEnv(env, { clock: cloud.clock, log }),
    log,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 20))),
  };
  return { cloud, deps, log };
}

/** One PodUnschedulable message for the trainer pod, through the provisioner handler. */
async function runHandler(deps: Dependencies & ProvisionDeps) {
  return createProvisionerHandler(() => deps)(podUnschedulableEvent(['trainer']), provisionerContext());
}

const live = (c: SimulatedCloud) =>
  [...c.ec2.state.instances.values()].filter((i) => i.state !== 'terminated' && i.state !== 'shutting-down');

describe('EC2NodeClass roles in the simulated cloud', () => {
  it('launches the node with the instance profile joiner made for an allowed role', async () => {
    const { cloud, deps } = await start('SomeRole');
    const response = await runHandler(deps);
    expect(response.batchItemFailures).toEqual([]);
    const instances = live(cloud);
    expect(instances).toHaveLength(1);
    const profileName = nodeClassInstanceProfileName(CLUSTER, cloud.region, 'ml');
    const profile = cloud.iam.state.profiles.get(profileName)!;
    expect(profile.roles.map((r) => r.name)).toEqual(['SomeRole']);
    expect(profile.tags).toMatchObject({
      'joiner.sh/cluster': CLUSTER,
      'joiner.sh/nodeclass': 'ml',
      team: 'ml',
    });
    expect(instances[0].iamInstanceProfile?.name).toBe(profileName);
  });

  it('launches nothing for a role joiner may not pass, and the plan says why', async () => {
    const { cloud, deps, log } = await start('OtherRole');
    const response = await runHandler(deps);
    expect(response.batchItemFailures).toEqual([]);
    expect(live(cloud)).toEqual([]);
    expect(cloud.iam.state.listInstanceProfiles('/joiner/')).toEqual([]);
    const lines = JSON.stringify(log.lines);
    expect(lines).toContain(
      'nodepool ml: EC2NodeClass ml: role OtherRole is not in the node roles joiner may pass (joiner:nodeRoleArns)',
    );
  });

  it('retries the launch EC2 refuses while the new profile propagates, then launches with it', async () => {
    const { cloud, deps, log } = await start('SomeRole', 10_000);
    const first = await runHandler(deps);
    // The run could not launch: the message comes back, and the claim waits, Pending.
    expect(first.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['m0']);
    expect(live(cloud)).toEqual([]);
    const [claim] = await deps.store.listNodeClaims(['Pending']);
    expect(claim.lastAttempt).toBeUndefined();
    expect(JSON.stringify(log.lines)).toContain('EC2 does not know the instance profile yet');
    await cloud.clock.advance(10_000);
    const second = await runHandler(deps);
    expect(second.batchItemFailures).toEqual([]);
    const instances = live(cloud);
    expect(instances).toHaveLength(1);
    expect(instances[0].iamInstanceProfile?.name).toBe(
      nodeClassInstanceProfileName(CLUSTER, cloud.region, 'ml'),
    );
    expect((await deps.store.getNodeClaim(claim.id))?.state).toBe('Launched');
  });
});
