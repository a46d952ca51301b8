/** A duration in milliseconds, or `null` for Karpenter's `Never`. */
export type DurationMs = number | null;
