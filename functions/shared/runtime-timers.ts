/**
 * The timers a Lambda runtime measures an invocation's remaining time with. The AWS runtime uses
 * wall time (Node's timers); the simulated Lambda service runs functions on its virtual clock and
 * puts that clock's timers on the context it passes, under {@link RUNTIME_TIMERS}, so that what a
 * handler does at its deadline (the early timeout) happens at the virtual instant the context's
 * `getRemainingTimeInMillis()` reports, not after that many wall milliseconds.
 */
import type { Context } from 'aws-lambda';

/** A timer source: `setTimeout` returns a handle `clearTimeout` cancels. */
export interface RuntimeTimers {
  setTimeout(fn: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The context property (a registered symbol, so every copy of this module agrees) holding the runtime's timers. */
export const RUNTIME_TIMERS: unique symbol = Symbol.for('joiner.lambda.runtimeTimers') as never;

/** A Lambda context that may carry its runtime's timers. */
export type ContextWithTimers = Context & { [RUNTIME_TIMERS]?: RuntimeTimers };

/** Node's wall-time timers: the AWS Lambda runtime's time. */
export const WALL_TIMERS: RuntimeTimers = {
  setTimeout: (fn, delayMs) => setTimeout(fn, delayMs),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** The timers `context`'s remaining time is measured with: its runtime's, or wall time. */
export function runtimeTimersOf(context: Context): RuntimeTimers {
  return (context as ContextWithTimers)[RUNTIME_TIMERS] ?? WALL_TIMERS;
}
