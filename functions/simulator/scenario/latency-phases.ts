/**
 * Where the time between "pod unschedulable" and "pod Running" goes, per pod, in Karpenter's
 * terms (all virtual ms):
 *
 * - `batching`: unschedulable -> the provisioner run that planned it starts planning (admission
 *   webhook, EventBridge, SQS, the event source mapping's batching window, and the run's own batch
 *   window — Karpenter's batcher — when it logged one);
 * - `planning`: the batch window closed (or the invocation started) -> its nodeclaim is written,
 *   split into reads, joiner's compute (scheduling), state writes and other waits
 *   (planning-breakdown.ts);
 * - `launchApi`: nodeclaim written -> launched (launch template, CreateFleet, Multus ENI calls);
 * - `boot`: launched -> node Ready (the EC2 and kubelet lifecycle model);
 * - `podStart`: node Ready -> pod Running (Multus startup taint, image pull and start model).
 *
 * Pods that fit on capacity that already existed have no launch phases.
 */
import type { NodeClaim } from '../../core/nodeclaim/nodeclaim.js';
import type { InvocationRecord } from '../runner/invocation-log.js';
import type { LatencyRecorder } from './latency-recorder.js';
import { type PlanningParts, planningParts } from './planning-breakdown.js';
import { type Percentiles, stats } from './summary-stats.js';

/** p50 / p99 of each phase. */
export interface LatencyPhases {
  readonly batchingMs: Percentiles;
  readonly planningMs: Percentiles;
  /** The planning phase by part (the parts' p50s and p99s need not add up to the phase's). */
  readonly planning?: {
    readonly readsMs: Percentiles;
    readonly computeMs: Percentiles;
    readonly writesMs: Percentiles;
    readonly otherMs: Percentiles;
  };
  readonly launchApiMs: Percentiles;
  readonly bootMs: Percentiles;
  readonly podStartMs: Percentiles;
}

/**
 * The phases of every pod that became unschedulable and got a nodeclaim. `batchesClosed`: the
 * virtual times the provisioner logged a closed batch window.
 */
export function latencyPhases(
  recorder: LatencyRecorder,
  claims: readonly NodeClaim[],
  invocations: readonly InvocationRecord[],
  batchesClosed: readonly number[] = [],
): LatencyPhases {
  const firstClaim = new Map<string, NodeClaim>();
  const byAge = [...claims].sort((a, b) => (a.timestamps.Pending ?? 0) - (b.timestamps.Pending ?? 0));
  for (const claim of byAge)
    for (const pod of claim.pods) if (!firstClaim.has(pod.uid)) firstClaim.set(pod.uid, claim);
  const runs = invocations
    .filter((i) => i.functionName === 'provisioner' && i.startedAt !== undefined)
    .sort((a, b) => (a.startedAt as number) - (b.startedAt as number));
  const starts = runs.map((i) => i.startedAt as number);
  const closed = [...batchesClosed].sort((a, b) => a - b);
  const parts: PlanningParts[] = [];
  const partsOf = new Map<string, PlanningParts>();
  const samples = {
    batching: [] as number[],
    planning: [] as number[],
    launchApi: [] as number[],
    boot: [] as number[],
    podStart: [] as number[],
  };
  const push = (into: number[], from: number | undefined, to: number | undefined): void => {
    if (from !== undefined && to !== undefined && to >= from) into.push(to - from);
  };
  for (const pod of recorder.pods.values()) {
    const unschedulable = pod.unschedulable?.virtual;
    if (unschedulable === undefined) continue;
    const claim = firstClaim.get(pod.uid);
    const ready = pod.nodeName ? recorder.nodes.get(pod.nodeName)?.ready?.virtual : undefined;
    push(samples.podStart, ready, pod.running?.virtual);
    if (!claim) continue;
    const created = claim.timestamps.Pending;
    const launched = claim.timestamps.Launched;
    // The planning invocation: the last provisioner start at or before the claim was written;
    // planning starts when its batch window closed, if it logged one.
    const at = created === undefined ? -1 : lastIndexAtOrBefore(starts, created);
    const invocation = runs[at];
    if (invocation && created !== undefined && starts[at] >= unschedulable) {
      const windowClosed = closed[lastIndexAtOrBefore(closed, created)];
      const start = windowClosed !== undefined && windowClosed >= starts[at] ? windowClosed : starts[at];
      push(samples.batching, unschedulable, start);
      push(samples.planning, start, created);
      if (invocation.spans) {
        const key = `${at}:${start}:${created}`;
        let split = partsOf.get(key);
        if (!split) {
          split = planningParts(invocation.spans, start, created);
          partsOf.set(key, split);
        }
        parts.push(split);
      }
    }
    push(samples.launchApi, created, launched);
    push(samples.boot, launched, ready);
  }
  return {
    batchingMs: stats(samples.batching),
    planningMs: stats(samples.planning),
    ...(parts.length > 0
      ? {
          planning: {
            readsMs: stats(parts.map((p) => p.readsMs)),
            computeMs: stats(parts.map((p) => p.computeMs)),
            writesMs: stats(parts.map((p) => p.writesMs)),
            otherMs: stats(parts.map((p) => p.otherMs)),
          },
        }
      : {}),
    launchApiMs: stats(samples.launchApi),
    bootMs: stats(samples.boot),
    podStartMs: stats(samples.podStart),
  };
}

/** Index of the last value at or before `at` in ascending `sorted` (-1: none). */
function lastIndexAtOrBefore(sorted: readonly number[], at: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
