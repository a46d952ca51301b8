/**
 * Per-fault attribution of a chaos run: every PodDisruptionBudget violation and every lost pod is
 * traced to the node its pod ran on and that node's instance, then to its cause —
 * - `reclaim`: the instance was one the spot storm reclaimed (EC2 took it two minutes after its
 *   warning, whatever the drain had managed by then: a PDB that allowed no eviction in time, or
 *   pods deleted at the deadline, are the reclaim's doing, not a choice joiner made) and joiner
 *   drained its node (drained-instances.ts);
 * - `joiner`: anything else (a drain joiner started of its own accord, an instance joiner
 *   terminated, a reclaimed instance whose node joiner never drained: the warning was dropped):
 *   a bug, which the suite requires to be 0.
 *
 * Every late pod (more than MAX_CYCLES provisioning cycles before its capacity) is traced to the
 * cycles it waited through:
 * - `injected fault`: at most MAX_CYCLES of them were clean; the others met an injected fault (a
 *   crash, EC2 throttling or no capacity, the API server's 503s, DynamoDB throttling) that kept
 *   the cycle from launching;
 * - `joiner`: more than MAX_CYCLES clean cycles passed without its capacity, or it is still
 *   pending at the end: joiner's decision, a bug the suite requires to be 0.
 */
import type { LatencyRecorder } from '../../../functions/simulator/scenario/latency-recorder.js';
import type { ScenarioSummary } from '../../../functions/simulator/scenario/summary.js';
import { type LatePod, MAX_CYCLES } from './invariants.js';

/** Where a violation or a loss came from. */
export type FaultCause = 'reclaim' | 'joiner';

/** One traced fault, for the report. */
export interface TracedFault {
  readonly kind: 'PDB violation' | 'pod lost';
  readonly pod: string;
  readonly node?: string;
  readonly instance?: string;
  readonly cause: FaultCause;
  /** The instance was reclaimed but its node never drained (the cause is then joiner). */
  readonly undrained?: boolean;
  /** Virtual ms since the run started. */
  readonly atMs: number;
  /** How the pod went (eviction, deletion, its node gone), for PDB violations. */
  readonly how?: string;
}

/** Why a pod was late. */
export type LateCause = 'injected fault' | 'joiner';

/** One late pod, traced. */
export interface TracedLatePod {
  readonly pod: string;
  readonly node?: string;
  readonly instance?: string;
  readonly cause: LateCause;
  /** Virtual ms since the run started: when it turned Unschedulable, when its capacity was there. */
  readonly fromMs?: number;
  readonly toMs?: number;
  /** Cycles waited, and how many of them met no injected fault. */
  readonly cycles: number;
  readonly cleanCycles: number;
  /** The distinct injected faults those cycles met (the first few). */
  readonly faultsMet: readonly string[];
}

/** The faults of a run, by cause. */
export interface Attribution {
  readonly pdbViolations: Readonly<Record<FaultCause, number>>;
  readonly podsLost: Readonly<Record<FaultCause, number>>;
  readonly podsLate: Readonly<Record<LateCause, number>>;
  readonly faults: readonly TracedFault[];
  readonly late: readonly TracedLatePod[];
}

/**
 * Traces the summary's violations and lost pods and the late pods (see the file comment).
 * `reclaimed` holds the instances the storm interrupted; `startedAt` is the run's start (virtual);
 * `drained`, the instances whose node joiner drained (when not given, every reclaimed one counts
 * as drained).
 */
export function attribute(
  summary: ScenarioSummary,
  latency: LatencyRecorder,
  reclaimed: ReadonlyMap<string, number>,
  latePods: readonly LatePod[] = [],
  startedAt = 0,
  drained?: ReadonlySet<string>,
): Attribution {
  const nodeOfPod = new Map<string, string>();
  // The instance a pod ran on, as of its binding (node names are reused by later instances).
  const instanceOfPod = new Map<string, string>();
  for (const p of latency.pods.values()) {
    if (p.nodeName) nodeOfPod.set(`${p.namespace}/${p.name}`, p.nodeName);
    if (p.instanceId) instanceOfPod.set(`${p.namespace}/${p.name}`, p.instanceId);
  }
  const trace = (node: string | undefined, pod?: string) => {
    const instance =
      (pod ? instanceOfPod.get(pod) : undefined) ?? (node ? latency.nodeInstances.get(node) : undefined);
    const wasReclaimed = instance !== undefined && reclaimed.has(instance);
    const undrained = wasReclaimed && drained !== undefined && !drained.has(instance);
    const cause: FaultCause = wasReclaimed && !undrained ? 'reclaim' : 'joiner';
    return { node, instance, cause, ...(undrained ? { undrained } : {}) };
  };
  const faults: TracedFault[] = [
    ...summary.violations.map((v) => ({
      kind: 'PDB violation' as const,
      pod: v.pod,
      ...trace(nodeOfPod.get(v.pod), v.pod),
      atMs: v.atMs,
      how: v.how,
    })),
    ...summary.lostPods.map((l) => ({
      kind: 'pod lost' as const,
      pod: l.pod,
      ...trace(l.node || nodeOfPod.get(l.pod), l.pod),
      atMs: l.atMs,
    })),
  ];
  const count = (kind: TracedFault['kind'], cause: FaultCause) =>
    faults.filter((f) => f.kind === kind && f.cause === cause).length;
  const late = latePods.map((p) => traceLate(p, startedAt));
  return {
    pdbViolations: { reclaim: count('PDB violation', 'reclaim'), joiner: count('PDB violation', 'joiner') },
    podsLost: { reclaim: count('pod lost', 'reclaim'), joiner: count('pod lost', 'joiner') },
    podsLate: {
      'injected fault': late.filter((l) => l.cause === 'injected fault').length,
      joiner: late.filter((l) => l.cause === 'joiner').length,
    },
    faults,
    late,
  };
}

/** A late pod's cause: see the file comment. */
function traceLate(pod: LatePod, startedAt: number): TracedLatePod {
  const clean = pod.cycles.filter((c) => c.faults.length === 0).length;
  const faultsMet = [...new Set(pod.cycles.flatMap((c) => c.faults))].slice(0, 3);
  const pending = pod.placedAt === undefined;
  return {
    pod: pod.pod,
    node: pod.node,
    instance: pod.instance,
    cause: pending || clean > MAX_CYCLES ? 'joiner' : 'injected fault',
    fromMs: pod.unschedulableAt === undefined ? undefined : pod.unschedulableAt - startedAt,
    toMs: pod.placedAt === undefined ? undefined : pod.placedAt - startedAt,
    cycles: pod.cycles.length,
    cleanCycles: clean,
    faultsMet,
  };
}

/** One line per traced fault and late pod. */
export function describeFaults(attribution: Attribution): string[] {
  const seconds = (ms: number | undefined) => (ms === undefined ? '?' : `${Math.round(ms / 1000)} s`);
  return [
    ...attribution.faults.map(
      (f) =>
        `${f.kind} ${f.pod}${f.how ? ` (${f.how})` : ''} on ${f.node ?? '?'} / ${f.instance ?? '?'} at ${seconds(f.atMs)}: ${f.cause === 'reclaim' ? 'the spot reclaim of its instance' : f.undrained ? 'the spot reclaim of an instance joiner never drained' : "joiner's own action"}`,
    ),
    ...attribution.late.map(
      (l) =>
        `pod late ${l.pod} from ${seconds(l.fromMs)} to ${l.toMs === undefined ? 'the end (still pending)' : seconds(l.toMs)} on ${l.node ?? '?'} / ${l.instance ?? '?'}: ${l.cycles} cycles, ${l.cleanCycles} clean: ${l.cause === 'joiner' ? "joiner's decision" : 'waiting on injected faults'}${l.faultsMet.length > 0 ? ` (${l.faultsMet.join('; ')})` : ''}`,
    ),
  ];
}
