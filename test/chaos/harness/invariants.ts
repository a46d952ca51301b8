/** The invariants of a chaos run, counted (each must be 0). */
import { TAG } from '../../../functions/core/launch/tags.js';
import type { Pod } from '../../../functions/core/model/kube-objects.js';
import type { SimulatedCloud } from '../../../functions/simulator/cloud.js';
import type { LatencyRecorder } from '../../../functions/simulator/scenario/latency-recorder.js';
import type { ScenarioSummary } from '../../../functions/simulator/scenario/summary.js';

/** Counts of invariant violations. */
export interface Invariants {
  /** Nodeclaims with more than one instance ever launched for them. */
  readonly doubleLaunches: number;
  /** Live instances of the cluster with neither a live claim nor a node, after the sweeps' GC. */
  readonly orphansAfterGc: number;
  /** Times the live instances' vCPUs went over the NodePool's CPU limit. */
  readonly limitViolations: number;
  /** Evictions or deletions the simulated API server saw breaking a PDB. */
  readonly pdbViolations: number;
  /** Running pods that died with their node without being evicted. */
  readonly podsLost: number;
  /** Schedulable pods not placed within 3 provisioning cycles (or never placed). */
  readonly podsLate: number;
  /** AWS calls the account's IAM (the deployed stack's policies) refused. */
  readonly iamDenials: number;
}

/** Provisioning cycles a pending pod may wait before its capacity is launched. */
export const MAX_CYCLES = 3;

export function countInvariants(input: {
  readonly cloud: SimulatedCloud;
  readonly summary: ScenarioSummary;
  readonly latency: LatencyRecorder;
  readonly cycles: readonly number[];
  readonly limits: { readonly violations: number };
}): Invariants {
  const { cloud, summary } = input;
  const perClaim = new Map<string, number>();
  for (const i of cloud.ec2.state.instances.values()) {
    const claim = i.tags[TAG.nodeClaim];
    if (claim) perClaim.set(claim, (perClaim.get(claim) ?? 0) + 1);
  }
  return {
    doubleLaunches: [...perClaim.values()].filter((n) => n > 1).length,
    orphansAfterGc: summary.orphanedInstances,
    limitViolations: input.limits.violations,
    pdbViolations: summary.pdbViolations,
    podsLost: summary.podsLost,
    podsLate: latePods(cloud, input.latency, input.cycles),
    iamDenials: summary.iam.denied.reduce((n, d) => n + d.count, 0),
  };
}

/**
 * Pods that waited more than {@link MAX_CYCLES} provisioning cycles between turning Unschedulable
 * and the launch of the instance they run on (or their binding, when it was there already), and
 * workload pods still pending at the end.
 */
function latePods(cloud: SimulatedCloud, latency: LatencyRecorder, cycles: readonly number[]): number {
  let late = 0;
  for (const pod of latency.pods.values()) {
    if (!pod.unschedulable || !pod.bound) continue;
    const instanceId = pod.nodeName ? latency.nodeInstances.get(pod.nodeName) : undefined;
    const launched = instanceId ? latency.instances.get(instanceId) : undefined;
    // Node names (private DNS names) are reused: the instance counts only if it predates the
    // binding (a later instance of the same name is not the one the pod went to). An instance
    // launched before the pod went pending (a drain's replacement, launched before its pods were
    // evicted) had the pod's capacity on its way already: it waited no cycle, only for the node
    // to register, which is no provisioning decision.
    const placedAt =
      launched && launched.virtual <= pod.bound.virtual
        ? Math.max(launched.virtual, pod.unschedulable.virtual)
        : pod.bound.virtual;
    const waited = cycles.filter((c) => c >= pod.unschedulable!.virtual && c < placedAt).length;
    if (waited > MAX_CYCLES) late++;
  }
  const pending = cloud.kube.store
    .list<Pod>('v1', 'Pod')
    .filter((p) => !p.spec?.nodeName && !p.metadata.deletionTimestamp && !isDaemon(p));
  return late + pending.length;
}

const isDaemon = (pod: Pod): boolean =>
  (pod.metadata.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet');
