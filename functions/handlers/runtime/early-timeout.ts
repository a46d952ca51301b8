/**
 * The early timeout of joiner's handlers: an invocation that is still running
 * {@link TIMEOUT_EARLY_MS} before its deadline fails with a `TimeoutError` (as middy's built-in one
 * does), so the error middlewares (metrics flush) run before the runtime stops the function. Unlike
 * middy's own, which arms a wall-time timer, the timer here is the one the context's remaining time
 * is measured with (shared/runtime-timers.ts): wall time in AWS, the virtual clock in the
 * simulated cloud, where a function's whole timeout is virtual.
 */
import type { Context } from 'aws-lambda';
import { runtimeTimersOf } from '../../shared/runtime-timers.js';

/** How long before the deadline the invocation is failed (middy's default). */
export const TIMEOUT_EARLY_MS = 5;

/** The error an invocation fails with at its early timeout (middy's name and message). */
export function earlyTimeoutError(): Error {
  const error = new Error('[AbortError]: The operation was aborted.', { cause: { package: 'joiner' } });
  error.name = 'TimeoutError';
  return error;
}

/**
 * `handler` raced against its early timeout: settles as the handler does, or rejects with
 * {@link earlyTimeoutError} once the context reports {@link TIMEOUT_EARLY_MS} remaining. A context
 * without `getRemainingTimeInMillis` (tests, local calls) has no deadline.
 */
export function withEarlyTimeout<TEvent, TResult>(
  handler: (event: TEvent, context: Context) => Promise<TResult>,
): (event: TEvent, context: Context) => Promise<TResult> {
  return (event, context) => {
    if (typeof context?.getRemainingTimeInMillis !== 'function') return handler(event, context);
    const timers = runtimeTimersOf(context);
    let handle: unknown;
    const timeout = new Promise<never>((_, reject) => {
      handle = timers.setTimeout(
        () => reject(earlyTimeoutError()),
        Math.max(0, context.getRemainingTimeInMillis() - TIMEOUT_EARLY_MS),
      );
    });
    return Promise.race([handler(event, context), timeout]).finally(() => timers.clearTimeout(handle));
  };
}
