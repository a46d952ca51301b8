/**
 * A pod nominated to a nodeclaim keeps that capacity until it is bound, through every state of the
 * claim and its node: launched without a node, registered (not Ready, startup-tainted), just
 * initialized while the node list read a moment earlier still shows it starting or not at all, and
 * bound while the pending list read a moment earlier still shows it pending.
 */
import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import type { Node, Pod } from '../../../../functions/core/model/kube-objects.js';
import type { Taint } from '../../../../functions/core/model/taint.js';
import { newNodeClaim } from '../../../../functions/core/nodeclaim/create.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { transition } from '../../../../functions/core/nodeclaim/state-machine.js';
import type { ClusterSnapshot } from '../../../../functions/core/provisioning/cluster-snapshot.js';
import { planRun } from '../../../../functions/core/provisioning/plan-run.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { node, pod } from '../../../builders/workloads.js';

const POOL = nodePool({
  name: 'c5',
  requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['c5.xlarge'] }],
});
const STARTUP = { key: 'example.com/agent-not-ready', effect: 'NoSchedule' as const };
const NOT_READY = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' as const };
const UNREGISTERED = { key: 'karpenter.sh/unregistered', effect: 'NoExecute' as const };
const NOW = 1_000_000;

function snapshot(pendingPods: Pod[], nodes: Node[], boundPods: Pod[] = []): ClusterSnapshot {
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

function claimFor(id: string, p: Pod, at = NOW - 60_000): NodeClaim {
  return newNodeClaim(
    {
      id,
      nodePool: 'c5',
      nodeClass: 'default',
      nodePoolHash: 'p',
      nodeClassHash: 'c',
      requirements: [],
      labels: {},
      taints: [],
      startupTaints: [STARTUP],
      options: [{ instanceType: 'c5.xlarge', zone: 'us-west-2a', capacityType: 'spot', price: 0.07 }],
      pods: [{ namespace: 'default', name: p.metadata.name, uid: p.metadata.uid ?? '' }],
      requests: { cpu: 3000, pods: 1 },
    },
    at,
  );
}

function launched(c: NodeClaim, at: number): NodeClaim {
  return transition(c, 'Launched', at, {
    instance: {
      instanceId: `i-${c.id}`,
      instanceType: 'c5.xlarge',
      zone: 'us-west-2a',
      capacityType: 'spot',
    },
  });
}

function registered(c: NodeClaim, at: number): NodeClaim {
  return { ...transition(launched(c, at - 20_000), 'Registered', at), nodeName: `node-${c.id}` };
}

function initialized(c: NodeClaim, at: number): NodeClaim {
  return transition(registered(c, at - 10_000), 'Initialized', at);
}

/** The node of `c` as the API server showed it: c5.xlarge, providerID naming its instance. */
function nodeOf(c: NodeClaim, taints: Taint[], ready: boolean): Node {
  const n = node({
    name: `node-${c.id}`,
    instanceType: 'c5.xlarge',
    nodePool: 'c5',
    allocatable: { cpu: '3920m', memory: '6584Mi', pods: '58' },
    capacity: { cpu: '4', memory: '7680Mi', pods: '58' },
    taints,
    ready,
  });
  n.spec = { ...n.spec, providerID: `aws:///us-west-2a/i-${c.id}` };
  return n;
}

const pods = Array.from({ length: 6 }, (_, i) => pod({ name: `web-${i + 1}`, requests: { cpu: '3' } }));

describe('a pod nominated to a nodeclaim keeps its capacity until it is bound', () => {
  it('through every state of the claim and its node: no second nodeclaim is planned', () => {
    const [p1, p2, p3, p4, p5, p6] = pods;
    const a = launched(claimFor('a', p1), NOW - 40_000);
    const b = registered(claimFor('b', p2), NOW - 5_000);
    const c = initialized(claimFor('c', p3), NOW - 1_000);
    const d = initialized(claimFor('d', p4), NOW - 1_000);
    const e = initialized(claimFor('e', p5), NOW - 1_000);
    const f = registered(claimFor('f', p6), NOW - 2_000);
    const nodes = [
      // b registered: not Ready yet, startup taint still on.
      nodeOf(b, [STARTUP, NOT_READY], false),
      // c initialized a moment after the node list was read: it still shows the node starting.
      nodeOf(c, [STARTUP, NOT_READY], false),
      // d initialized, but the node list was read before the node registered: no node for it.
      // e initialized and its pod bound, while the pending list read earlier still shows it pending.
      nodeOf(e, [], true),
      // f registered and Ready without taints.
      nodeOf(f, [], true),
    ];
    const bound = { ...p5, spec: { ...p5.spec, nodeName: 'node-e' } } as Pod;
    const planned = planRun(snapshot(pods, nodes, [bound]), [a, b, c, d, e, f], [], bundledCatalog, {
      now: NOW,
    });
    expect(planned.plan.unschedulable).toEqual([]);
    expect(planned.plan.nodeClaims).toEqual([]);
    // Every pod that is not bound waits for its claim's node (f's pod may also be placed on f's node).
    expect(planned.pending.map((p) => p.metadata.name)).not.toContain('web-5');
  });

  it("a node that registered with Karpenter's karpenter.sh/unregistered:NoExecute taint is counted as it will be once registered: no new nodeclaim for pods that fit it", () => {
    const [p1] = pods;
    const small = pod({ name: 'small', requests: { cpu: '500m' } });
    const a = launched(claimFor('a', p1), NOW - 30_000);
    // The kubelet registered the node a moment ago; joiner has not registered it yet.
    const n = nodeOf(a, [UNREGISTERED, NOT_READY], false);
    const planned = planRun(snapshot([p1, small], [n]), [a], [], bundledCatalog, { now: NOW });
    expect(planned.plan.unschedulable).toEqual([]);
    expect(planned.plan.nodeClaims).toEqual([]);
  });

  it('a pending pod also bound in the same snapshot is not planned again', () => {
    const [p1] = pods;
    const n = node({
      name: 'full',
      instanceType: 'c5.xlarge',
      allocatable: { cpu: '3920m', memory: '6Gi', pods: '58' },
    });
    const bound = { ...p1, spec: { ...p1.spec, nodeName: 'full' } } as Pod;
    const planned = planRun(snapshot([p1], [n], [bound]), [], [], bundledCatalog, { now: NOW });
    expect(planned.pending).toEqual([]);
    expect(planned.plan.nodeClaims).toEqual([]);
  });

  it('a new pod does not take the room a registering node keeps for its nominated pod', () => {
    const [p1, p2] = pods;
    const b = registered(claimFor('b', p1), NOW - 5_000);
    const nodes = [nodeOf(b, [STARTUP, NOT_READY], false)];
    // p2 comes first in the pending list: it must not take b's room from p1.
    const planned = planRun(snapshot([p2, p1], nodes), [b], [], bundledCatalog, { now: NOW });
    expect(planned.plan.existingPlacements).toContainEqual({ node: 'node-b', pods: ['default/web-1'] });
    expect(planned.plan.nodeClaims).toHaveLength(1);
    expect(planned.plan.nodeClaims[0].pods).toEqual(['default/web-2']);
  });

  it('long after initialization a node that is still not Ready keeps nothing: its pod is planned again', () => {
    const [p1] = pods;
    const c = initialized(claimFor('c', p1), NOW - 10 * 60_000);
    const planned = planRun(snapshot([p1], [nodeOf(c, [NOT_READY], false)]), [c], [], bundledCatalog, {
      now: NOW,
    });
    expect(planned.waiting.size).toBe(0);
    expect(planned.plan.nodeClaims).toHaveLength(1);
  });

  it('long after initialization a claim whose node is gone keeps nothing: its pod is planned again', () => {
    const [p1] = pods;
    const c = initialized(claimFor('c', p1), NOW - 10 * 60_000);
    const planned = planRun(snapshot([p1], []), [c], [], bundledCatalog, { now: NOW });
    expect(planned.waiting.size).toBe(0);
    expect(planned.plan.nodeClaims).toHaveLength(1);
  });
});
