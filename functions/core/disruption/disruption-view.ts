/**
 * The cluster as a disruption round sees it: joiner's live nodeclaims with their nodes and pods,
 * the PodDisruptionBudgets and the configuration, read once per round.
 */

import { isNodeOf } from '../lifecycle/claim-node.js';
import type { ClusterConfig } from '../lifecycle/cluster-config.js';
import { instanceIdOf } from '../lifecycle/node-labels.js';
import type { Node, Pod, PodDisruptionBudget } from '../model/kube-objects.js';
import type { NodePool } from '../model/node-pool.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { DisruptionDeps } from './disruption-deps.js';

/** The states of claims whose node joiner may disrupt or is disrupting. */
const LIVE = ['Pending', 'Launched', 'Registered', 'Initialized', 'Draining', 'Terminating'] as const;

/** One round's view of the cluster. */
export interface DisruptionView {
  readonly now: number;
  readonly claims: readonly NodeClaim[];
  readonly nodes: readonly Node[];
  readonly pdbs: readonly PodDisruptionBudget[];
  readonly config: ClusterConfig;
  /** Ids of the claims whose NodeClaim resource was deleted (it has a deletionTimestamp). */
  readonly deletedClaims: ReadonlySet<string>;
  /** The node of a claim (by name, or by the instance id in its providerID). */
  nodeOf(claim: NodeClaim): Node | undefined;
  /** The pods bound to a node. */
  podsOn(nodeName: string): readonly Pod[];
  poolOf(claim: NodeClaim): NodePool | undefined;
}

/** Reads the view (see the file comment). */
export async function readDisruptionView(deps: DisruptionDeps): Promise<DisruptionView> {
  const [claims, nodes, pods, pdbs, config, deleted] = await Promise.all([
    deps.store.listNodeClaims([...LIVE]),
    deps.cluster.listNodes(),
    deps.cluster.listPodsOnNode(),
    deps.cluster.listPodDisruptionBudgets(),
    deps.config(),
    deletedClaims(deps),
  ]);
  return disruptionView(deps.clock.now(), claims, nodes, pods, pdbs, config, deleted);
}

/**
 * The NodeClaim resources someone deleted (`kubectl delete nodeclaim`): their finalizer keeps them
 * until joiner has drained and terminated their node. None when they cannot be listed (the round
 * goes on; the next sweep looks again).
 */
async function deletedClaims(deps: DisruptionDeps): Promise<Set<string>> {
  try {
    const mirrored = await deps.cluster.listNodeClaims();
    return new Set(mirrored.filter((m) => m.deleting).map((m) => m.name));
  } catch (error) {
    deps.log.warn('NodeClaim resources not listed, deleted ones are looked for at the next round', {
      error: String(error),
    });
    return new Set();
  }
}

/** Builds a view from what was read (pure; tests build views directly). */
export function disruptionView(
  now: number,
  claims: readonly NodeClaim[],
  nodes: readonly Node[],
  pods: readonly Pod[],
  pdbs: readonly PodDisruptionBudget[],
  config: ClusterConfig,
  deletedClaims: ReadonlySet<string> = new Set(),
): DisruptionView {
  const byName = new Map(nodes.map((n) => [n.metadata.name, n]));
  const byInstance = new Map<string, Node>();
  for (const n of nodes) {
    const id = instanceIdOf(n.spec?.providerID);
    if (id) byInstance.set(id, n);
  }
  const podsByNode = new Map<string, Pod[]>();
  for (const p of pods) {
    const name = p.spec?.nodeName;
    if (!name) continue;
    const list = podsByNode.get(name);
    if (list) list.push(p);
    else podsByNode.set(name, [p]);
  }
  const pools = new Map(config.nodePools.map((p) => [p.name, p]));
  return {
    now,
    claims,
    nodes,
    pdbs,
    config,
    deletedClaims,
    // By its instance first: a recorded name may belong to another instance's Node since (EC2
    // reuses private addresses, so node names), see claim-node.ts.
    nodeOf: (claim) => {
      const own = claim.instance ? byInstance.get(claim.instance.instanceId) : undefined;
      if (own) return own;
      const named = claim.nodeName ? byName.get(claim.nodeName) : undefined;
      return named && isNodeOf(named, claim.instance?.instanceId) ? named : undefined;
    },
    podsOn: (nodeName) => podsByNode.get(nodeName) ?? [],
    poolOf: (claim) => pools.get(claim.nodePool),
  };
}
