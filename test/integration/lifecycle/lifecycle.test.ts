/**
 * The nodeclaim lifecycle in the simulated cloud with the real adapters: instances the real
 * provisioner launched register as nodes (simulated kubelets on the virtual clock), and the
 * lifecycle core is fed the hints the webhook would send.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { handleLifecycleEvent } from '../../../functions/core/lifecycle/handle-lifecycle-event.js';
import { isMultusPod } from '../../../functions/core/lifecycle/reconcile-node.js';
import type { Node } from '../../../functions/core/model/kube-objects.js';
import { provision } from '../../../functions/core/provisioning/provision.js';
import { runSweep } from '../../../functions/core/sweep/run-sweep.js';
import type { SweepDeps } from '../../../functions/core/sweep/sweep-deps.js';
import { sweepDepsFrom } from '../../../functions/core/sweep/sweep-deps-from.js';
import { dependenciesFromEnv } from '../../../functions/handlers/runtime/dependencies.js';
import { type SimProvisioning, startWithSeed } from '../provisioning/sim-harness.js';

const MULTUS_TAINT_KEY = 'multus/not-ready';
let sim: SimProvisioning | undefined;

afterEach(async () => {
  await sim?.cloud.close();
  sim = undefined;
});

async function advance(s: SimProvisioning, ms: number): Promise<void> {
  await s.cloud.clock.advance(ms);
  await s.cloud.kube.idle();
}

/** Sends every hint the webhook could send for the current cluster state (duplicates are fine). */
async function hintAll(deps: SweepDeps): Promise<void> {
  for (const node of await deps.cluster.listNodes()) {
    const nodeName = node.metadata.name;
    await handleLifecycleEvent(deps, { detailType: 'NodeRegistered', detail: { nodeName } });
    await handleLifecycleEvent(deps, { detailType: 'NodeReady', detail: { nodeName } });
    for (const pod of (await deps.cluster.listPodsOnNode(nodeName)).filter(isMultusPod)) {
      const detail = {
        nodeName,
        namespace: pod.metadata.namespace ?? '',
        name: pod.metadata.name,
        uid: pod.metadata.uid ?? '',
      };
      await handleLifecycleEvent(deps, { detailType: 'PodReady', detail });
    }
  }
}

function depsOf(s: SimProvisioning): SweepDeps {
  return sweepDepsFrom(dependenciesFromEnv(s.cloud.env(), { clock: s.cloud.clock, log: s.log }));
}

const hasMultusTaint = (node: Node) => (node.spec?.taints ?? []).some((t) => t.key === MULTUS_TAINT_KEY);

describe('nodeclaim lifecycle in the simulated cloud', () => {
  it('seed 000: nodes register, sync labels, and lose the Multus taint only once the Multus pod is Ready', async () => {
    sim = await startWithSeed('examples/seed-000', 'eks-karpenterwithmultus');
    const deps = depsOf(sim);
    const result = await provision(sim.deps, { hints: [] });
    expect(result.launched.length).toBeGreaterThan(0);

    let sawNodeWaitingForMultus = false;
    for (let second = 0; second < 120; second += 2) {
      await advance(sim, 2_000);
      await hintAll(deps);
      const states = (await deps.store.listNodeClaims()).map((c) => c.state);
      if (second > 30 && states.every((s) => s === 'Initialized')) break;
      for (const node of await deps.cluster.listNodes()) {
        const multus = (await deps.cluster.listPodsOnNode(node.metadata.name)).find(isMultusPod);
        const podReady = multus?.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
        const nodeReady = node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
        if (hasMultusTaint(node)) {
          if (nodeReady && multus && !podReady) sawNodeWaitingForMultus = true;
          continue;
        }
        // The taint may only be gone once the Multus pod on that node is Ready.
        expect(multus?.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
      }
    }

    expect(sawNodeWaitingForMultus).toBe(true);
    const claims = await deps.store.listNodeClaims();
    expect(claims.map((c) => c.state)).toEqual(claims.map(() => 'Initialized'));
    const nodes = await deps.cluster.listNodes();
    expect(nodes).toHaveLength(result.launched.length);
    for (const node of nodes) {
      const claim = claims.find((c) => c.nodeName === node.metadata.name);
      expect(claim).toBeDefined();
      expect(node.metadata.labels).toMatchObject({
        'karpenter.sh/nodepool': 'multus',
        'joiner.sh/nodeclaim': claim?.id,
        'karpenter.sh/capacity-type': 'on-demand',
        'node.kubernetes.io/instance-type': 'c6i.2xlarge',
        'karpenter.sh/initialized': 'true',
        // The rest of the labels Karpenter puts on its nodes: NodeClass, registered, zone, and the
        // launched type's labels (which no kubelet sets: joiner does at registration).
        'joiner.sh/nodeclass': 'multus',
        'karpenter.sh/registered': 'true',
        'topology.kubernetes.io/zone': expect.stringMatching(/^us-west-2[a-d]$/),
        'topology.kubernetes.io/region': 'us-west-2',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/os': 'linux',
        'karpenter.k8s.aws/instance-family': 'c6i',
        'karpenter.k8s.aws/instance-category': 'c',
        'karpenter.k8s.aws/instance-generation': '6',
        'karpenter.k8s.aws/instance-size': '2xlarge',
        'karpenter.k8s.aws/instance-cpu': '8',
        'karpenter.k8s.aws/instance-memory': '16384',
        'karpenter.k8s.aws/instance-tenancy': 'default',
      });
      expect(node.metadata.annotations?.['joiner.sh/managed-by']).toBe('joiner');
      expect(hasMultusTaint(node)).toBe(false);
    }
    expect(sim.log.messages()).toContain('removed multus startup taint');
  });

  it('an instance that never registers is terminated after 15 virtual minutes and its pods go back', async () => {
    sim = await startWithSeed('examples/seed-004');
    const deps = depsOf(sim);
    const result = await provision(sim.deps, { hints: [] });
    const victim = result.launched[0];
    if (!victim) throw new Error('nothing launched');
    // The kubelet cannot read this user data: the instance runs but no node ever joins.
    const instance = sim.cloud.ec2.state.instances.get(victim.instanceId);
    if (!instance) throw new Error('instance not in the simulated EC2');
    (instance as { userData: string }).userData = 'not a bootstrap script';

    for (const step of [60_000, 30_000, 12.5 * 60_000]) {
      await advance(sim, step);
      await hintAll(deps);
      await runSweep(deps);
    }
    const before = await deps.store.getNodeClaim(victim.nodeClaim);
    expect(before?.state).toBe('Launched');

    await advance(sim, 90_000);
    await runSweep(deps);
    const after = await deps.store.getNodeClaim(victim.nodeClaim);
    expect(after?.state).toBe('Gone');
    expect(after?.failure?.reason).toBe('RegistrationTimeout');
    expect(['shutting-down', 'terminated']).toContain(
      sim.cloud.ec2.state.instances.get(victim.instanceId)?.state,
    );
    const others = (await deps.store.listNodeClaims()).filter((c) => c.id !== victim.nodeClaim);
    expect(others.every((c) => c.state === 'Initialized')).toBe(true);
  });
});
