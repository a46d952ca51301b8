/**
 * Where the time between "pod unschedulable" and "pod Running" goes, per pod, in Karpenter's
 * terms (all virtual ms):
 *
 * - `batching`: unschedulable -> the provisioner invocation that planned it starts (admission
 *   webhook, EventBridge, SQS, the event source mapping's batching window);
 * - `planning`: that invocation's start -> its nodeclaim is written (re-reading pods, scheduling);
 * - `launchApi`: nodeclaim written -> launched (launch template, CreateFleet, Multus ENI calls);
 * - `boot`: launched -> node Ready (the EC2 and kubelet lifecycle model);
 * - `podStart`: node Ready -> pod Running (Multus startup taint, image pull and start model).
 *
 * Pods that fit on capacity that already existed have no launch phases.
 */
import type { NodeClaim } from '../../core/nodeclaim/nodeclaim.js';
import type { InvocationRecord } from '../runner/invocation-log.js';
import type { LatencyRecorder } from './latency-recorder.js';
import { type Percentiles, stats } from './summary-stats.js';

/** p50 / p99 of each phase. */
export interface LatencyPhases {
  readonly batchingMs: Percentiles;
  readonly planningMs: Percentiles;
  readonly launchApiMs: Percentiles;
  readonly bootMs: Percentiles;
  readonly podStartMs: Percentiles;
}

/** The phases of every pod that became unschedulable and got a nodeclaim. */
export function latencyPhases(
  recorder: LatencyRecorder,
  claims: readonly NodeClaim[],
  invocations: readonly InvocationRecord[],
): LatencyPhases {
  const firstClaim = new Map<string, NodeClaim>();
  const byAge = [...claims].sort((a, b) => (a.timestamps.Pending ?? 0) - (b.timestamps.Pending ?? 0));
  for (const claim of byAge)
    for (const pod of claim.pods) if (!firstClaim.has(pod.uid)) firstClaim.set(pod.uid, claim);
  const starts = invocations
    .filter((i) => i.functionName === 'provisioner' && i.startedAt !== undefined)
    .map((i) => i.startedAt as number)
    .sort((a, b) => a - b);
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
    // The planning invocation: the last provisioner start at or before the claim was written.
    const start = created === undefined ? undefined : lastAtOrBefore(starts, created);
    if (start !== undefined && start >= unschedulable) {
      push(samples.batching, unschedulable, start);
      push(samples.planning, start, created);
    }
    push(samples.launchApi, created, launched);
    push(samples.boot, launched, ready);
  }
  return {
    batchingMs: stats(samples.batching),
    planningMs: stats(samples.planning),
    launchApiMs: stats(samples.launchApi),
    bootMs: stats(samples.boot),
    podStartMs: stats(samples.podStart),
  };
}

function lastAtOrBefore(sorted: readonly number[], at: number): number | undefined {
  let found: number | undefined;
  for (const value of sorted) {
    if (value > at) break;
    found = value;
  }
  return found;
}
