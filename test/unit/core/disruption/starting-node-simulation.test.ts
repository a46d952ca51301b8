/**
 * A node that is still starting, in the consolidation simulation: it counts as the provisioner
 * counts it (its startup taints and the taints of a starting node, Karpenter's
 * karpenter.sh/unregistered:NoExecute included, ignored), and as in Karpenter no removal may rely
 * on it before it is initialized (pods it would take make the move impossible, instead of a
 * replacement being planned beside it).
 */
import { describe, expect, it } from 'vitest';
import { prepareCluster } from '../../../../functions/core/disruption/consolidation/removal-simulation.js';
import type { Node, Pod } from '../../../../functions/core/model/kube-objects.js';
import type { Taint } from '../../../../functions/core/model/taint.js';
import { newNodeClaim } from '../../../../functions/core/nodeclaim/create.js';
import type { NodeClaim, NodeClaimState } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { claimInput } from '../../../builders/claims.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { node, pod } from '../../../builders/workloads.js';
import { instanceType } from '../scheduling/fixtures.js';

const NOW = Date.UTC(2026, 0, 1, 12);
const UNREGISTERED: Taint = { key: 'karpenter.sh/unregistered', effect: 'NoExecute' };
const NOT_READY: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };
const STARTUP: Taint = { key: 'example.com/agent-not-ready', effect: 'NoSchedule' };
const POOL = nodePool({ startupTaints: [STARTUP] });

function claimOf(name: string, state: NodeClaimState): NodeClaim {
  const claim = newNodeClaim(
    claimInput(
      name,
      { instanceType: 'c.2xlarge', zone: 'zone-a', capacityType: 'on-demand', price: 0.34 },
      { startupTaints: [STARTUP] },
    ),
    NOW - 60_000,
  );
  return {
    ...claim,
    state,
    version: 1,
    nodeName: name,
    instance: {
      instanceId: `i-${name}`,
      instanceType: 'c.2xlarge',
      zone: 'zone-a',
      capacityType: 'on-demand',
      price: 0.34,
    },
  };
}

function nodeNamed(name: string, taints: Taint[], initialized: boolean): Node {
  return node({
    name,
    instanceType: 'c.2xlarge',
    zone: 'zone-a',
    nodePool: 'default',
    taints,
    allocatable: { cpu: '7900m', memory: '15872Mi', pods: '58' },
    labels: initialized ? { 'karpenter.sh/initialized': 'true' } : {},
  });
}

/** Node a (initialized, one pod) and node b as given; the outcome of taking a away. */
function removeA(b: Node, claims: NodeClaim[]) {
  const web = pod({
    name: 'web-1',
    nodeName: 'a',
    requests: { cpu: '1', memory: '256Mi' },
    ownerKind: 'ReplicaSet',
  });
  const boundPods: Pod[] = [web];
  const prepared = prepareCluster({
    nodes: [nodeNamed('a', [], true), b],
    boundPods,
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools: [
      {
        pool: POOL,
        nodeClass: nodeClass(),
        instanceTypes: [instanceType('c.2xlarge', 8, 16, 0.34, { zones: ['zone-a'], spot: false })],
      },
    ],
    leaving: new Set(),
    claims: [claimOf('a', 'Initialized'), ...claims],
  });
  const runs = prepared.runs();
  const outcome = runs.trial(['a']);
  runs.rollback();
  return outcome;
}

describe('a starting node in the consolidation simulation', () => {
  it('that registered with karpenter.sh/unregistered (and is not ready) cannot be relied on: the pod would go there, so the node stays', () => {
    const b = nodeNamed('b', [UNREGISTERED, NOT_READY, STARTUP], false);
    const outcome = removeA(b, [claimOf('b', 'Launched')]);
    // Before, its taints hid it and a replacement node was planned beside it.
    expect(outcome.newClaims).toEqual([]);
    expect(outcome.unschedulable).toBe(1);
  });

  it('that joiner registered (only its startup taint left) cannot be relied on either', () => {
    const b = nodeNamed('b', [STARTUP], false);
    const outcome = removeA(b, [claimOf('b', 'Registered')]);
    expect(outcome.newClaims).toEqual([]);
    expect(outcome.unschedulable).toBe(1);
  });

  it('once initialized takes the pod: the node can simply go', () => {
    const b = nodeNamed('b', [], true);
    const outcome = removeA(b, [claimOf('b', 'Initialized')]);
    expect(outcome).toMatchObject({ pods: 1, newClaims: [], unschedulable: 0 });
  });

  it('without a nodeclaim of joiner is not starting: its taints count, as Karpenter counts an unmanaged node', () => {
    const b = nodeNamed('b', [UNREGISTERED], false);
    const outcome = removeA(b, []);
    expect(outcome.unschedulable).toBe(0);
    expect(outcome.newClaims).toHaveLength(1);
  });
});
