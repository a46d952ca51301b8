/**
 * Per-fault attribution of a chaos run: every PodDisruptionBudget violation and every lost pod is
 * traced to the node its pod ran on and that node's instance, then to its cause —
 * - `reclaim`: the instance was one the spot storm reclaimed (EC2 took it two minutes after its
 *   warning, whatever the drain had managed by then: a PDB that allowed no eviction in time, or
 *   pods deleted at the deadline, are the reclaim's doing, not a choice joiner made);
 * - `joiner`: anything else (a drain joiner started of its own accord, an instance joiner
 *   terminated): a bug, which the suite requires to be 0.
 */
import type { LatencyRecorder } from '../../../functions/simulator/scenario/latency-recorder.js';
import type { ScenarioSummary } from '../../../functions/simulator/scenario/summary.js';

/** Where a violation or a loss came from. */
export type FaultCause = 'reclaim' | 'joiner';

/** One traced fault, for the report. */
export interface TracedFault {
  readonly kind: 'PDB violation' | 'pod lost';
  readonly pod: string;
  readonly node?: string;
  readonly instance?: string;
  readonly cause: FaultCause;
  /** Virtual ms since the run started. */
  readonly atMs: number;
  /** How the pod went (eviction, deletion, its node gone), for PDB violations. */
  readonly how?: string;
}

/** The faults of a run, by cause. */
export interface Attribution {
  readonly pdbViolations: Readonly<Record<FaultCause, number>>;
  readonly podsLost: Readonly<Record<FaultCause, number>>;
  readonly faults: readonly TracedFault[];
}

/**
 * Traces the summary's violations and lost pods (see the file comment). `reclaimed` holds the
 * instances the storm interrupted.
 */
export function attribute(
  summary: ScenarioSummary,
  latency: LatencyRecorder,
  reclaimed: ReadonlyMap<string, number>,
): Attribution {
  const nodeOfPod = new Map<string, string>();
  for (const p of latency.pods.values())
    if (p.nodeName) nodeOfPod.set(`${p.namespace}/${p.name}`, p.nodeName);
  const trace = (node: string | undefined) => {
    const instance = node ? latency.nodeInstances.get(node) : undefined;
    const cause: FaultCause = instance && reclaimed.has(instance) ? 'reclaim' : 'joiner';
    return { node, instance, cause };
  };
  const faults: TracedFault[] = [
    ...summary.violations.map((v) => ({
      kind: 'PDB violation' as const,
      pod: v.pod,
      ...trace(nodeOfPod.get(v.pod)),
      atMs: v.atMs,
      how: v.how,
    })),
    ...summary.lostPods.map((l) => ({
      kind: 'pod lost' as const,
      pod: l.pod,
      ...trace(l.node || nodeOfPod.get(l.pod)),
      atMs: l.atMs,
    })),
  ];
  const count = (kind: TracedFault['kind'], cause: FaultCause) =>
    faults.filter((f) => f.kind === kind && f.cause === cause).length;
  return {
    pdbViolations: { reclaim: count('PDB violation', 'reclaim'), joiner: count('PDB violation', 'joiner') },
    podsLost: { reclaim: count('pod lost', 'reclaim'), joiner: count('pod lost', 'joiner') },
    faults,
  };
}

/** One line per traced fault. */
export function describeFaults(attribution: Attribution): string[] {
  return attribution.faults.map(
    (f) =>
      `${f.kind} ${f.pod}${f.how ? ` (${f.how})` : ''} on ${f.node ?? '?'} / ${f.instance ?? '?'} at ${Math.round(f.atMs / 1000)} s: ${f.cause === 'reclaim' ? 'the spot reclaim of its instance' : "joiner's own action"}`,
  );
}
