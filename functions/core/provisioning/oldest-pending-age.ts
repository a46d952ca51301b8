import type { Pod } from '../model/kube-objects.js';

/**
 * How long the oldest of `pods` has existed at `now`, in milliseconds (0 for none; a pod without a
 * readable creation time counts as new). The provisioner publishes it so an alarm sees pods that
 * stay pending.
 */
export function oldestPendingAgeMs(pods: readonly Pod[], now: number): number {
  let oldest = 0;
  for (const pod of pods) {
    const created = Date.parse(pod.metadata.creationTimestamp ?? '');
    if (Number.isFinite(created)) oldest = Math.max(oldest, now - created);
  }
  return oldest;
}
