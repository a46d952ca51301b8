/**
 * "Can these nodes go?" asked of the real scheduler: the reschedulable pods of the nodes are
 * planned as if pending onto the rest of the cluster (existing nodes less the removed and the
 * draining ones, with every placement rule the scheduler knows), and the answer is the new nodes
 * they would need — none for a delete, one cheaper node for a replace. The cluster is prepared
 * once per round; each search gets its own {@link RemovalRuns}, whose trials cost the pods that
 * move, not the cluster. A node that is still starting counts as the provisioner counts it (its
 * startup and starting-node taints, karpenter.sh/unregistered included, ignored), but as in
 * Karpenter no removal may rely on it before it is initialized.
 */
import type { Node } from '../../model/kube-objects.js';
import type { NodeClaim } from '../../nodeclaim/nodeclaim.js';
import type { ClusterSnapshot } from '../../provisioning/cluster-snapshot.js';
import { displacedPods } from '../../provisioning/displaced-pods.js';
import { hasNode, withoutStartupTaints } from '../../provisioning/in-flight.js';
import { existingNodes } from '../../scheduling/cluster-view.js';
import { RemovalRuns } from '../../scheduling/removal-runs.js';
import { schedule } from '../../scheduling/schedule.js';
import type { SchedulePlan, SchedulingPool } from '../../scheduling/types.js';

/** What every simulation of a round shares: the cluster as a provisioning run reads it, and pools. */
export type SimulationCluster = Pick<
  ClusterSnapshot,
  'nodes' | 'boundPods' | 'daemonSets' | 'persistentVolumes' | 'persistentVolumeClaims'
> &
  Partial<Pick<ClusterSnapshot, 'storageClasses'>> & {
    readonly pools: readonly SchedulingPool[];
    /** Nodes that are leaving anyway (draining): never capacity. */
    readonly leaving: ReadonlySet<string>;
    /**
     * joiner's nodeclaims: a node of one that is still starting counts as it will be once
     * initialized (without its startup taints, the Multus readiness taint and the taints of a
     * starting node such as karpenter.sh/unregistered, as the provisioner counts it), but no
     * removal may count on it yet. @default none
     */
    readonly claims?: readonly NodeClaim[];
  };

/** A prepared cluster: each call of `runs` starts a fresh set of removal trials on it. */
export interface PreparedCluster {
  readonly runs: () => RemovalRuns;
  /** The NodePools a replacement may come from. */
  readonly pools: readonly SchedulingPool[];
  /**
   * The plan the provisioning run of a drain of `names` makes (plan-run.ts): their reschedulable
   * pods planned as pending, all at once, onto the other nodes, and new nodes packed with the run's
   * own packing improvement. What a move launches is this plan, not its search's trial.
   */
  readonly asDrained: (names: readonly string[]) => SchedulePlan;
}

/** Prepares `cluster` for the searches of a round. */
export function prepareCluster(cluster: SimulationCluster): PreparedCluster {
  const staying = cluster.nodes.filter((n) => !cluster.leaving.has(n.metadata.name));
  const claims = cluster.claims ?? [];
  const nodes = withoutStartupTaints(
    existingNodes(staying, cluster.boundPods),
    staying,
    claims,
    cluster.pools,
  );
  const movable = new Map(nodes.map((n) => [n.name, displacedPods(n.pods, new Set([n.name]))] as const));
  const starting = startingNodes(staying, claims);
  return {
    pools: cluster.pools,
    asDrained: (names) => {
      const leaving = new Set(names);
      return schedule({
        pods: names.flatMap((name) => movable.get(name) ?? []),
        nodes: nodes.filter((n) => !leaving.has(n.name)),
        inFlight: [],
        daemonSets: cluster.daemonSets,
        persistentVolumes: cluster.persistentVolumes,
        persistentVolumeClaims: cluster.persistentVolumeClaims,
        ...(cluster.storageClasses ? { storageClasses: cluster.storageClasses } : {}),
        pools: cluster.pools,
      });
    },
    runs: () =>
      new RemovalRuns({
        nodes,
        movable,
        starting,
        daemonSets: cluster.daemonSets,
        persistentVolumes: cluster.persistentVolumes,
        persistentVolumeClaims: cluster.persistentVolumeClaims,
        ...(cluster.storageClasses ? { storageClasses: cluster.storageClasses } : {}),
        pools: cluster.pools,
      }),
  };
}

/**
 * Nodes of joiner's nodeclaims that are not initialized yet (launched or registered: Karpenter's
 * cluster state tells them apart by the `karpenter.sh/initialized` label joiner writes at that
 * transition); a node without a claim is never starting.
 */
function startingNodes(nodes: readonly Node[], claims: readonly NodeClaim[]): ReadonlySet<string> {
  const starting = new Set<string>();
  const unready = claims.filter((c) => c.state === 'Launched' || c.state === 'Registered');
  for (const node of nodes) if (unready.some((c) => hasNode(c, [node]))) starting.add(node.metadata.name);
  return starting;
}
