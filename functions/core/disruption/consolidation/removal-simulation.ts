/**
 * "Can these nodes go?" asked of the real scheduler: the reschedulable pods of the nodes are
 * planned as if pending onto the rest of the cluster (existing nodes less the removed and the
 * draining ones, with every placement rule the scheduler knows), and the answer is the new nodes
 * they would need — none for a delete, one cheaper node for a replace.
 */
import type { Pod } from '../../model/kube-objects.js';
import type { ClusterSnapshot } from '../../provisioning/cluster-snapshot.js';
import { displacedPods } from '../../provisioning/displaced-pods.js';
import { existingNodes } from '../../scheduling/cluster-view.js';
import { schedule } from '../../scheduling/schedule.js';
import type { ExistingNode, PlannedNodeClaim, SchedulingPool } from '../../scheduling/types.js';

/** What every simulation of a round shares: the cluster as a provisioning run reads it, and pools. */
export type SimulationCluster = Pick<
  ClusterSnapshot,
  'nodes' | 'boundPods' | 'daemonSets' | 'persistentVolumes' | 'persistentVolumeClaims'
> & {
  readonly pools: readonly SchedulingPool[];
  /** Nodes that are leaving anyway (draining): never capacity. */
  readonly leaving: ReadonlySet<string>;
};

/** The outcome of removing a set of nodes. */
export interface RemovalOutcome {
  /** Pods that would have to move. */
  readonly pods: number;
  /** New nodes they would need (empty: the nodes can simply go). */
  readonly newClaims: readonly PlannedNodeClaim[];
  /** Pods with no place at all (then the removal is impossible). */
  readonly unschedulable: number;
}

/** A prepared cluster: existing nodes computed once, then reused by every simulation. */
export interface PreparedCluster {
  readonly input: SimulationCluster;
  readonly existing: readonly ExistingNode[];
  readonly podsByNode: ReadonlyMap<string, readonly Pod[]>;
}

/** Prepares `cluster` for many simulations. */
export function prepareCluster(cluster: SimulationCluster): PreparedCluster {
  const existing = existingNodes(
    cluster.nodes.filter((n) => !cluster.leaving.has(n.metadata.name)),
    cluster.boundPods,
  );
  const podsByNode = new Map<string, Pod[]>();
  for (const pod of cluster.boundPods) {
    const name = pod.spec?.nodeName;
    if (!name) continue;
    const list = podsByNode.get(name);
    if (list) list.push(pod);
    else podsByNode.set(name, [pod]);
  }
  return { input: cluster, existing, podsByNode };
}

/** Simulates removing the nodes named in `removed` (see the file comment). */
export function simulateRemoval(prepared: PreparedCluster, removed: ReadonlySet<string>): RemovalOutcome {
  // The pods that must move, as a drain's provisioning run would plan them.
  const moving = displacedPods(
    [...removed].flatMap((name) => prepared.podsByNode.get(name) ?? []),
    removed,
  );
  if (moving.length === 0) return { pods: 0, newClaims: [], unschedulable: 0 };
  const { input } = prepared;
  const plan = schedule({
    pods: moving,
    nodes: prepared.existing.filter((n) => !removed.has(n.name)),
    inFlight: [],
    daemonSets: input.daemonSets,
    persistentVolumes: input.persistentVolumes,
    persistentVolumeClaims: input.persistentVolumeClaims,
    pools: input.pools,
    skipImprovement: true,
  });
  return { pods: moving.length, newClaims: plan.nodeClaims, unschedulable: plan.unschedulable.length };
}
