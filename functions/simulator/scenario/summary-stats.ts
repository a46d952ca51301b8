/** Percentiles of latency samples, as the summaries report them. */
import { percentile } from './latency-recorder.js';

/** p50 / p99 of a latency in virtual milliseconds. */
export interface Percentiles {
  readonly p50: number | null;
  readonly p99: number | null;
  readonly samples: number;
}

/** p50 / p99 of samples. */
export function stats(samples: readonly number[]): Percentiles {
  return {
    p50: percentile(samples, 50) ?? null,
    p99: percentile(samples, 99) ?? null,
    samples: samples.length,
  };
}
