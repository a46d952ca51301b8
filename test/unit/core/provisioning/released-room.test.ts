/**
 * An in-flight nodeclaim offers the room of the pods it was planned for that no longer need it
 * (evicted or deleted, so the ReplicaSet's new pod has a new uid; bound elsewhere; waiting for
 * another claim) to any pending pod that fits, as Karpenter's cluster state nominates pending pods
 * onto in-flight capacity. A pod that still waits for the claim keeps its room.
 */
import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import type { Node, Pod } from '../../../../functions/core/model/kube-objects.js';
import { newNodeClaim } from '../../../../functions/core/nodeclaim/create.js';
import type { NodeClaim, PodRef } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { transition } from '../../../../functions/core/nodeclaim/state-machine.js';
import type { ClusterSnapshot } from '../../../../functions/core/provisioning/cluster-snapshot.js';
import { planRun } from '../../../../functions/core/provisioning/plan-run.js';
import { podRef } from '../../../../functions/core/provisioning/planned-claims.js';
import { provision } from '../../../../functions/core/provisioning/provision.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { node, pod } from '../../../builders/workloads.js';
import { harness } from './harness.js';
import { asPending, seedCluster } from './seed-cluster.js';

const POOL = nodePool({
  name: 'c5',
  requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['c5.xlarge'] }],
});
const NOW = 1_000_000;

function snapshot(pendingPods: Pod[], nodes: Node[] = [], boundPods: Pod[] = []): ClusterSnapshot {
  return {
    pendingPods,
    nodes,
    boundPods,
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    storageClasses: [],
    nodePools: [POOL],
    nodeClasses: [nodeClass()],
    invalidDocuments: 0,
    unmanagedNodePools: [],
  };
}

/** A c5.xlarge claim launched for `refs` (requests: the sum of theirs), as a run writes it. */
function launchedClaim(id: string, refs: PodRef[], cpu = 3000): NodeClaim {
  const claim = newNodeClaim(
    {
      id,
      nodePool: 'c5',
      nodeClass: 'default',
      nodePoolHash: 'p',
      nodeClassHash: 'c',
      requirements: [],
      labels: {},
      taints: [],
      startupTaints: [],
      options: [{ instanceType: 'c5.xlarge', zone: 'us-west-2a', capacityType: 'on-demand', price: 0.17 }],
      pods: refs,
      requests: { cpu, pods: refs.length },
    },
    NOW - 10_000,
  );
  return transition(claim, 'Launched', NOW - 8_000, {
    instance: {
      instanceId: `i-${id}`,
      instanceType: 'c5.xlarge',
      zone: 'us-west-2a',
      capacityType: 'on-demand',
    },
  });
}

/** The claim of a node being drained (`kubectl delete node`), with its Node. */
function drainingClaim(id: string): { claim: NodeClaim; node: Node } {
  const c = launchedClaim(id, [], 0);
  const registered = { ...transition(c, 'Registered', NOW - 7_000), nodeName: `node-${id}` };
  const initialized = transition(registered, 'Initialized', NOW - 6_000);
  const n = node({ name: `node-${id}`, instanceType: 'c5.xlarge', nodePool: 'c5' });
  n.spec = { ...n.spec, providerID: `aws:///us-west-2a/i-${id}` };
  return { claim: transition(initialized, 'Draining', NOW - 5_000), node: n };
}

const web = (name: string, cpu = '1500m', nodeName?: string): Pod =>
  pod({ name, requests: { cpu }, ownerKind: 'ReplicaSet', ...(nodeName ? { nodeName } : {}) });
const terminating = (p: Pod): Pod => ({
  ...p,
  metadata: { ...p.metadata, deletionTimestamp: new Date(NOW - 1_000).toISOString() },
});

describe('an in-flight claim offers the room its planned pods no longer need', () => {
  it('a drain evicted a pod before its replacement is up: the new pod goes onto the replacement, no new claim', () => {
    const old = drainingClaim('old');
    const [a, b] = [web('a', '1500m', 'node-old'), web('b', '1500m', 'node-old')];
    const replacement = launchedClaim('r', [podRef(a), podRef(b)]);
    // a was evicted (terminating on the draining node); its ReplicaSet made a2, pending.
    const a2 = web('a2');
    const planned = planRun(
      snapshot([a2], [old.node], [terminating(a), b]),
      [old.claim, replacement],
      [],
      bundledCatalog,
      { now: NOW },
    );
    expect(planned.plan.nodeClaims).toEqual([]);
    expect(planned.plan.existingPlacements).toEqual([{ node: 'r', pods: ['default/a2'] }]);
    // b, still on the draining node, keeps waiting for its room on the replacement.
    expect([...planned.waiting]).toEqual(['uid-b']);
  });

  it('gives back only what was released: two new pods fit, a third gets a claim of its own', () => {
    const [a, b] = [web('a'), web('b')];
    const replacement = launchedClaim('r', [podRef(a), podRef(b)]);
    const fresh = [web('a2'), web('b2'), web('c2')];
    const planned = planRun(snapshot(fresh), [replacement], [], bundledCatalog, { now: NOW });
    expect(planned.plan.existingPlacements.flatMap((p) => p.pods)).toHaveLength(2);
    expect(planned.plan.nodeClaims).toHaveLength(1);
    expect(planned.plan.nodeClaims[0].pods).toHaveLength(1);
  });

  it('a planned pod bound to a node the run did not read (the claim’s own, just registered) keeps its room', () => {
    const a = web('a', '3');
    const claim = launchedClaim('r', [podRef(a)]);
    const bound = { ...a, spec: { ...a.spec, nodeName: 'node-r' } } as Pod;
    const planned = planRun(snapshot([web('x', '3')], [], [bound]), [claim], [], bundledCatalog, {
      now: NOW,
    });
    expect(planned.plan.existingPlacements).toEqual([]);
    expect(planned.plan.nodeClaims).toHaveLength(1);
  });

  it('a planned pod bound to a node the run read gave its room back', () => {
    const a = web('a', '3');
    const claim = launchedClaim('r', [podRef(a)]);
    const elsewhere = node({ name: 'elsewhere', instanceType: 'c5.xlarge', allocatable: { cpu: '3' } });
    const bound = { ...a, spec: { ...a.spec, nodeName: 'elsewhere' } } as Pod;
    const planned = planRun(snapshot([web('x', '3')], [elsewhere], [bound]), [claim], [], bundledCatalog, {
      now: NOW,
    });
    expect(planned.plan.existingPlacements).toEqual([{ node: 'r', pods: ['default/x'] }]);
    expect(planned.plan.nodeClaims).toEqual([]);
  });

  it('a claim written before pods’ requests were recorded keeps the room of every planned pod', () => {
    const a = web('a', '3');
    const { requests: _, ...legacy } = podRef(a);
    const claim = launchedClaim('r', [legacy]);
    const planned = planRun(snapshot([web('x', '3')]), [claim], [], bundledCatalog, { now: NOW });
    expect(planned.plan.nodeClaims).toHaveLength(1);
  });

  it('a pending pod listed by two claims waits for the first only; the other offers its room', () => {
    const p = web('p', '3');
    const first = launchedClaim('c1', [podRef(p)]);
    const second = launchedClaim('c2', [podRef(p)]);
    const q = web('q', '3');
    const planned = planRun(snapshot([p, q]), [first, second], [], bundledCatalog, { now: NOW });
    expect([...planned.waiting]).toEqual(['uid-p']);
    expect(planned.plan.existingPlacements).toEqual([{ node: 'c2', pods: ['default/q'] }]);
    expect(planned.plan.nodeClaims).toEqual([]);
  });

  it('a pending pod kept on the starting node of its claim waits for no in-flight claim besides', () => {
    const p = web('p', '3');
    const starting = {
      ...transition(launchedClaim('b', [podRef(p)]), 'Registered', NOW - 1_000),
      nodeName: 'node-b',
    };
    const n = node({
      name: 'node-b',
      instanceType: 'c5.xlarge',
      nodePool: 'c5',
      allocatable: { cpu: '3920m', pods: '58' },
    });
    n.spec = { ...n.spec, providerID: 'aws:///us-west-2a/i-b' };
    const other = launchedClaim('r', [podRef(p)]);
    const q = web('q', '3');
    const planned = planRun(snapshot([p, q], [n]), [starting, other], [], bundledCatalog, { now: NOW });
    expect(planned.plan.existingPlacements).toEqual([
      { node: 'node-b', pods: ['default/p'] },
      { node: 'r', pods: ['default/q'] },
    ]);
    expect(planned.plan.nodeClaims).toEqual([]);
  });

  it('offers the room only to pods the claim can take: a pod whose selector the claim does not meet gets its own claim', () => {
    const a = web('a', '3');
    const claim = launchedClaim('r', [podRef(a)]);
    const picky = pod({
      name: 'picky',
      requests: { cpu: '1' },
      nodeSelector: { 'topology.kubernetes.io/zone': 'us-west-2b' },
    });
    const planned = planRun(snapshot([picky]), [claim], [], bundledCatalog, { now: NOW });
    expect(planned.plan.existingPlacements).toEqual([]);
    expect(planned.plan.nodeClaims).toHaveLength(1);
  });
});

describe('a pod nominated to a claim keeps its room while it is pending', () => {
  it('six 3-CPU pods on six c5.xlarge claims written with their pods’ requests: no seventh claim', () => {
    const six = Array.from({ length: 6 }, (_, i) => web(`w${i + 1}`, '3'));
    const claims = six.map((p, i) => launchedClaim(`c${i + 1}`, [podRef(p)]));
    const planned = planRun(snapshot(six), claims, [], bundledCatalog, { now: NOW });
    expect(planned.waiting.size).toBe(6);
    expect(planned.plan.nodeClaims).toEqual([]);
    expect(planned.plan.existingPlacements).toEqual([]);
  });

  it('a new pod does not take the room of a pod still pending for the claim', () => {
    const [a, b] = [web('a'), web('b')];
    const claim = launchedClaim('r', [podRef(a), podRef(b)]);
    // Listed first, the newcomer still finds no room: a and b hold theirs.
    const planned = planRun(snapshot([web('n'), a, b]), [claim], [], bundledCatalog, { now: NOW });
    expect(planned.plan.existingPlacements).toEqual([]);
    expect(planned.plan.nodeClaims.map((c) => c.pods)).toEqual([['default/n']]);
  });
});

describe('provisioning runs around a claim whose planned pods were replaced', () => {
  /** Six pods on three launched claims; then their ReplicaSet replaces them all (new uids). */
  async function replaced() {
    const h = harness(await seedCluster('examples/node-deletion'));
    const first = await provision(h.deps, { hints: [] });
    expect(first.launched).toHaveLength(3);
    h.cluster.pods = h.cluster.pods.map((p) => ({
      ...p,
      metadata: { ...p.metadata, name: `${p.metadata.name}-new`, uid: `${p.metadata.uid}-new` },
    }));
    return h;
  }

  it('delivered twice: both runs put the new pods on the in-flight claims and launch nothing', async () => {
    const h = await replaced();
    const hints = h.cluster.pods.map((p) => ({
      namespace: 'default',
      name: p.metadata.name,
      uid: p.metadata.uid!,
    }));
    const runs = [await provision(h.deps, { hints }), await provision(h.deps, { hints })];
    for (const run of runs) expect(run).toMatchObject({ created: [], launched: [], placedOnInFlight: 6 });
    expect(h.cloud.launches).toBe(3);
  });

  it('two runs at once, with one more pod than the claims hold: exactly one more claim', async () => {
    const h = await replaced();
    h.cluster.pods = [...h.cluster.pods, asPending(pod({ name: 'extra', requests: { cpu: '1500m' } }))];
    const runs = await Promise.all([provision(h.deps, { hints: [] }), provision(h.deps, { hints: [] })]);
    expect(runs.flatMap((r) => r.created)).toHaveLength(1);
    expect(h.cloud.launches).toBe(4);
    const again = await provision(h.deps, { hints: [] });
    expect(again).toMatchObject({ created: [], launched: [] });
  });
});
