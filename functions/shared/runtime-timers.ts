/**
 * The time a Lambda runtime runs an invocation on: its clock, its timers and its sleep. The AWS
 * runtime uses wall time (Node's timers and `Date.now`); the simulated Lambda service runs
 * functions on its virtual clock and puts that clock on the context it passes, under
 * {@link RUNTIME_TIMERS}, so that what a handler does at its deadline (the early timeout) happens at
 * the virtual instant the context's `getRemainingTimeInMillis()` reports, and the waits a handler
 * makes (a batch window's polls, a lease's retries) last that much virtual time, whatever the
 * host's load, not that many wall milliseconds.
 */
import type { Context } from 'aws-lambda';

/** A time source: `setTimeout` returns a handle `clearTimeout` cancels; `now` and `sleep` use the same time. */
export interface RuntimeTimers {
  setTimeout(fn: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
  /** The current time (epoch ms). */
  now(): number;
  /** Resolves after `ms` of this time (a wait: the invocation is not computing meanwhile). */
  sleep(ms: number): Promise<void>;
}

/** The context property (a registered symbol, so every copy of this module agrees) holding the runtime's timers. */
export const RUNTIME_TIMERS: unique symbol = Symbol.for('joiner.lambda.runtimeTimers') as never;

/** A Lambda context that may carry its runtime's timers. */
export type ContextWithTimers = Context & { [RUNTIME_TIMERS]?: RuntimeTimers };

/** Node's wall-time timers: the AWS Lambda runtime's time. */
export const WALL_TIMERS: RuntimeTimers = {
  setTimeout: (fn, delayMs) => setTimeout(fn, delayMs),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  now: () => Date.now(),
  sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

/** The timers `context`'s remaining time is measured with: its runtime's, or wall time. */
export function runtimeTimersOf(context: Context): RuntimeTimers {
  return (context as ContextWithTimers)[RUNTIME_TIMERS] ?? WALL_TIMERS;
}
