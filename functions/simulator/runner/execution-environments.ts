/**
 * Lambda's execution environments of one function, simulated in one process. Lambda runs each
 * concurrent invocation in an environment of its own: a warm one that is free, or a new one when
 * all are busy. Each environment has its own module state, so its own SDK clients, sockets and
 * caches, and the invocations of a busy function do not share one client's 50 sockets.
 *
 * An invocation takes the free environment with the lowest number, so which environment serves it
 * depends only on which are busy, not on the order in which earlier invocations ended at one
 * instant (that order can follow the host's load).
 */
import type { Context } from 'aws-lambda';
import type { FunctionHandler, RunnerEvent } from './lambda-runner.js';

/** Builds environment number `index` (0, 1, ...): its handler with dependencies of its own. */
export type EnvironmentFactory = (index: number) => FunctionHandler;

/** The execution environments of one function, and the handler that dispatches to them. */
export class ExecutionEnvironments {
  private readonly handlers: FunctionHandler[] = [];
  private readonly busy: boolean[] = [];

  constructor(private readonly create: EnvironmentFactory) {}

  /** How many environments were created (the function's highest concurrency so far). */
  get count(): number {
    return this.handlers.length;
  }

  /** The function's handler: runs each invocation in a free environment, or in a new one. */
  readonly handler: FunctionHandler = async (event: RunnerEvent, context: Context) => {
    let index = this.busy.indexOf(false);
    if (index < 0) {
      index = this.handlers.length;
      this.handlers.push(this.create(index));
      this.busy.push(true);
    }
    this.busy[index] = true;
    try {
      return await this.handlers[index](event, context);
    } finally {
      this.busy[index] = false;
    }
  };
}
