/**
 * Pod startup durations, as Karpenter's `karpenter_pods_startup_duration_seconds` measures them:
 * from a pod's creation until it is running and Ready. joiner has no watch on pods, so the sweep
 * measures the pods that turned Ready within the minute before its scheduled time: consecutive
 * sweeps cover consecutive windows, and each pod is counted once, in the window of its transition.
 */
import type { Pod } from '../model/kube-objects.js';

/** A half-open time window `[fromMs, toMs)`. */
export interface TimeWindow {
  readonly fromMs: number;
  readonly toMs: number;
}

/**
 * Seconds from creation to Ready of the running pods whose Ready condition turned True within
 * `window`. Pods without a creation time or a Ready transition time are left out.
 */
export function podStartupSeconds(pods: readonly Pod[], window: TimeWindow): number[] {
  const out: number[] = [];
  for (const pod of pods) {
    if (pod.status?.phase !== 'Running') continue;
    const ready = pod.status.conditions?.find((c) => c.type === 'Ready' && c.status === 'True');
    const readyAt = Date.parse(ready?.lastTransitionTime ?? '');
    const createdAt = Date.parse(pod.metadata.creationTimestamp ?? '');
    if (!Number.isFinite(readyAt) || !Number.isFinite(createdAt)) continue;
    if (readyAt < window.fromMs || readyAt >= window.toMs) continue;
    out.push(Math.max(0, readyAt - createdAt) / 1000);
  }
  return out;
}

/** The window a sweep scheduled at `scheduledAtMs` measures: the `intervalMs` before it. */
export function sweepWindow(scheduledAtMs: number, intervalMs: number): TimeWindow {
  return { fromMs: scheduledAtMs - intervalMs, toMs: scheduledAtMs };
}
