/** The invariants of a chaos run, counted (each must be 0). */
import { TAG } from '../../../functions/core/launch/tags.js';
import type { Pod } from '../../../functions/core/model/kube-objects.js';
import type { SimulatedCloud } from '../../../functions/simulator/cloud.js';
import type { LatencyRecorder } from '../../../functions/simulator/scenario/latency-recorder.js';
import type { ScenarioSummary } from '../../../functions/simulator/scenario/summary.js';
import type { ProvisioningCycle } from './chaos-handlers.js';

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

/** A pod counted in {@link Invariants.podsLate}, with what it waited through. */
export interface LatePod {
  /** `namespace/name`. */
  readonly pod: string;
  /** Virtual epoch ms it turned Unschedulable (undefined for a pod still pending that never did). */
  readonly unschedulableAt?: number;
  /** Virtual epoch ms its capacity was there (undefined: still pending at the end). */
  readonly placedAt?: number;
  readonly node?: string;
  readonly instance?: string;
  /** The provisioning cycles between the two (all of them, for a pod still pending). */
  readonly cycles: readonly ProvisioningCycle[];
}

/** Counts the invariants; `latePods` receives the pods counted late. */
export function countInvariants(input: {
  readonly cloud: SimulatedCloud;
  readonly summary: ScenarioSummary;
  readonly latency: LatencyRecorder;
  readonly cycles: readonly ProvisioningCycle[];
  readonly limits: { readonly violations: number };
  readonly latePods?: LatePod[];
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
    podsLate: (() => {
      const late = latePods(cloud, input.latency, input.cycles);
      input.latePods?.push(...late);
      return late.length;
    })(),
    iamDenials: summary.iam.denied.reduce((n, d) => n + d.count, 0),
  };
}

/**
 * Pods that waited more than {@link MAX_CYCLES} provisioning cycles between turning Unschedulable
 * and the launch of the instance they run on (or their binding, when it was there already), and
 * workload pods still pending at the end.
 */
function latePods(
  cloud: SimulatedCloud,
  latency: LatencyRecorder,
  cycles: readonly ProvisioningCycle[],
): LatePod[] {
  const late: LatePod[] = [];
  for (const pod of latency.pods.values()) {
    const { unschedulable, bound } = pod;
    if (!unschedulable || !bound) continue;
    // The instance as of the binding: node names (private DNS names) are reused.
    const instance = pod.instanceId ?? (pod.nodeName ? latency.nodeInstances.get(pod.nodeName) : undefined);
    const launched = instance ? latency.instances.get(instance) : undefined;
    // An instance launched before the pod went pending (a drain's replacement, launched before its
    // pods were evicted) had the pod's capacity on its way already: it waited no cycle, only for
    // the node to register, which is no provisioning decision.
    const placedAt =
      launched && launched.virtual <= bound.virtual
        ? Math.max(launched.virtual, unschedulable.virtual)
        : bound.virtual;
    const waited = cycles.filter((c) => c.at >= unschedulable.virtual && c.at < placedAt);
    if (waited.length > MAX_CYCLES)
      late.push({
        pod: `${pod.namespace}/${pod.name}`,
        unschedulableAt: unschedulable.virtual,
        placedAt,
        node: pod.nodeName,
        instance,
        cycles: waited,
      });
  }
  const unschedulableAt = new Map(
    [...latency.pods.values()].map((p) => [`${p.namespace}/${p.name}`, p.unschedulable?.virtual]),
  );
  for (const p of cloud.kube.store.list<Pod>('v1', 'Pod')) {
    if (p.spec?.nodeName || p.metadata.deletionTimestamp || isDaemon(p)) continue;
    const name = `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`;
    const since = unschedulableAt.get(name);
    late.push({
      pod: name,
      unschedulableAt: since,
      cycles: cycles.filter((c) => since === undefined || c.at >= since),
    });
  }
  return late;
}

const isDaemon = (pod: Pod): boolean =>
  (pod.metadata.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet');
