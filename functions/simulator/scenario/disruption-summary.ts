/**
 * The disruption part of a scenario summary: PodDisruptionBudget violations and pods lost (as the
 * simulated API server saw them) and, per NodePool, its nodes, the most disrupting at once and the
 * node removals. Times are virtual milliseconds since the scenario started.
 */
import type { SimulatedCloud } from '../cloud.js';
import type { ViolationCause } from '../kube/disruption-ledger.js';
import type { DisruptionRecorder } from './disruption-recorder.js';

/** One PodDisruptionBudget left below its desired healthy pods. */
export interface ViolationSummary {
  /** `namespace/name` of the budget. */
  readonly pdb: string;
  /** `namespace/name` of the pod whose loss broke it. */
  readonly pod: string;
  readonly how: ViolationCause;
  readonly atMs: number;
}

/** One workload pod killed with its node or instance. */
export interface LostPodSummary {
  readonly pod: string;
  readonly node: string;
  readonly atMs: number;
}

/** One node removed. */
export interface RemovalSummary {
  readonly node: string;
  /** When it got the disrupted taint or a deletionTimestamp (absent: it went without either). */
  readonly disruptedAtMs?: number;
  readonly removedAtMs: number;
}

/** What happened to one NodePool's nodes. */
export interface NodePoolSummary {
  /** Nodes of the pool that ever existed. */
  readonly nodesSeen: number;
  /** The most of its nodes disrupting (tainted `karpenter.sh/disrupted` or being deleted) at once. */
  readonly maxDisrupting: number;
  readonly removals: readonly RemovalSummary[];
}

/** The disruption fields of the summary. */
export interface DisruptionSummary {
  readonly pdbViolations: number;
  readonly violations: readonly ViolationSummary[];
  readonly podsLost: number;
  readonly lostPods: readonly LostPodSummary[];
  /** Per NodePool (node label `karpenter.sh/nodepool`), in name order. */
  readonly nodePools: Readonly<Record<string, NodePoolSummary>>;
}

/** Reads the disruption fields from the cloud and the recorder. */
export function disruptionSummary(
  cloud: SimulatedCloud,
  recorder: DisruptionRecorder,
  startedMs: number,
): DisruptionSummary {
  const since = (at: number): number => at - startedMs;
  const violations = cloud.kube
    .disruptionViolations()
    .map((v) => ({ pdb: v.pdb, pod: v.pod, how: v.how, atMs: since(v.at) }));
  const lostPods = cloud.kube.podsLost().map((l) => ({ pod: l.pod, node: l.node, atMs: since(l.at) }));
  const nodePools = Object.fromEntries(
    Object.entries(recorder.byPool()).map(([name, pool]) => [
      name,
      {
        nodesSeen: pool.nodes.length,
        maxDisrupting: pool.maxDisrupting,
        removals: pool.removals.map((r) => ({
          node: r.node,
          ...(r.disruptedAt === undefined ? {} : { disruptedAtMs: since(r.disruptedAt) }),
          removedAtMs: since(r.removedAt),
        })),
      },
    ]),
  );
  return {
    pdbViolations: violations.length,
    violations,
    podsLost: lostPods.length,
    lostPods,
    nodePools,
  };
}
