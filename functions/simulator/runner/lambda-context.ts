/**
 * The Lambda `Context` object the simulated runner passes to handlers, with the fields the Node.js
 * runtime sets (function name and ARN, memory, request id, log group and stream, remaining time).
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { FUNCTIONS, type FunctionName } from '../../shared/event-sources.js';
import { type ContextWithTimers, RUNTIME_TIMERS, type RuntimeTimers } from '../../shared/runtime-timers.js';

/** Where the simulated functions "run". */
export interface LambdaEnvironment {
  readonly region: string;
  readonly account: string;
  /** Prefix of the deployed function names, e.g. `joiner` gives `joiner-provisioner`. */
  readonly functionPrefix: string;
}

/** Deployed name of a function. */
export function deployedFunctionName(env: LambdaEnvironment, name: FunctionName): string {
  return `${env.functionPrefix}-${name}`;
}

/**
 * A fresh context for one invocation that must finish within `timeoutMs` of `now` (default wall
 * time). `timers` are the timers of that same time (the virtual clock's when `now` is virtual): the
 * context carries them (shared/runtime-timers.ts) so the handler's early timeout follows the
 * remaining time the context reports.
 */
export function createLambdaContext(
  env: LambdaEnvironment,
  name: FunctionName,
  timeoutMs: number,
  now: () => number = Date.now,
  timers?: RuntimeTimers,
): Context {
  const functionName = deployedFunctionName(env, name);
  const deadline = now() + timeoutMs;
  const unsupported = (what: string) => () => {
    throw new Error(`context.${what}() is not supported: return a promise from the handler`);
  };
  const context: ContextWithTimers = {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${env.region}:${env.account}:function:${functionName}`,
    memoryLimitInMB: String(FUNCTIONS[name].memoryMiB),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `${new Date().toISOString().slice(0, 10).replaceAll('-', '/')}/[$LATEST]${randomUUID().replaceAll('-', '')}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - now()),
    done: unsupported('done'),
    fail: unsupported('fail'),
    succeed: unsupported('succeed'),
  };
  if (timers) context[RUNTIME_TIMERS] = timers;
  return context;
}
