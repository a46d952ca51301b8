/** Kubernetes status conditions (metav1.Condition) as joiner writes them on its objects. */

/** One condition. */
export interface Condition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason: string;
  readonly message: string;
  /** RFC 3339. */
  readonly lastTransitionTime: string;
}

/** A condition; `at` (epoch ms) is when it last changed, as far as joiner knows. */
export function condition(
  type: string,
  status: Condition['status'],
  reason: string,
  message: string,
  at: number,
): Condition {
  return { type, status, reason, message, lastTransitionTime: rfc3339(at) };
}

/** Epoch ms as an RFC 3339 timestamp with second precision, as Kubernetes writes them. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * Keeps the lastTransitionTime a condition already had when its status did not change, so a
 * status rewritten every minute does not look like it keeps changing.
 */
export function keepTransitionTimes(
  next: readonly Condition[],
  previous: readonly Condition[] | undefined,
): Condition[] {
  return next.map((c) => {
    const before = previous?.find((p) => p.type === c.type);
    return before && before.status === c.status ? { ...c, lastTransitionTime: before.lastTransitionTime } : c;
  });
}
