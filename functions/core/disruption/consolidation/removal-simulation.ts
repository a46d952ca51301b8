/**
 * "Can these nodes go?" asked of the real scheduler: the reschedulable pods of the nodes are
 * planned as if pending onto the rest of the cluster (existing nodes less the removed and the
 * draining ones, with every placement rule the scheduler knows), and the answer is the new nodes
 * they would need — none for a delete, one cheaper node for a replace. The cluster is prepared
 * once per round; each search gets its own {@link RemovalRuns}, whose trials cost the pods that
 * move, not the cluster.
 */
import type { ClusterSnapshot } from '../../provisioning/cluster-snapshot.js';
import { displacedPods } from '../../provisioning/displaced-pods.js';
import { existingNodes } from '../../scheduling/cluster-view.js';
import { RemovalRuns } from '../../scheduling/removal-runs.js';
import type { SchedulingPool } from '../../scheduling/types.js';

/** What every simulation of a round shares: the cluster as a provisioning run reads it, and pools. */
export type SimulationCluster = Pick<
  ClusterSnapshot,
  'nodes' | 'boundPods' | 'daemonSets' | 'persistentVolumes' | 'persistentVolumeClaims'
> &
  Partial<Pick<ClusterSnapshot, 'storageClasses'>> & {
    readonly pools: readonly SchedulingPool[];
    /** Nodes that are leaving anyway (draining): never capacity. */
    readonly leaving: ReadonlySet<string>;
  };

/** A prepared cluster: each call of `runs` starts a fresh set of removal trials on it. */
export interface PreparedCluster {
  readonly runs: () => RemovalRuns;
  /** The NodePools a replacement may come from. */
  readonly pools: readonly SchedulingPool[];
}

/** Prepares `cluster` for the searches of a round. */
export function prepareCluster(cluster: SimulationCluster): PreparedCluster {
  const staying = cluster.nodes.filter((n) => !cluster.leaving.has(n.metadata.name));
  const nodes = existingNodes(staying, cluster.boundPods);
  const movable = new Map(nodes.map((n) => [n.name, displacedPods(n.pods, new Set([n.name]))] as const));
  return {
    pools: cluster.pools,
    runs: () =>
      new RemovalRuns({
        nodes,
        movable,
        daemonSets: cluster.daemonSets,
        persistentVolumes: cluster.persistentVolumes,
        persistentVolumeClaims: cluster.persistentVolumeClaims,
        ...(cluster.storageClasses ? { storageClasses: cluster.storageClasses } : {}),
        pools: cluster.pools,
      }),
  };
}
