/**
 * The simulated Lambda service: runs joiner's handler functions in-process, fed by the SQS event
 * source mappings of functions/shared/event-sources.ts (same batch size, batching window, maximum
 * concurrency, ReportBatchItemFailures) and by the schedules (sweep, catalog refresh) on the virtual clock.
 *
 * Time: with the clock in auto mode (a simulation), batching windows, visibility timeouts and
 * function timeouts run on the virtual clock, each invocation is a `joiner` activity scope whose
 * compute is charged to the virtual clock by a modeled cost (compute-ledger.ts: per invocation, per
 * call, per KiB read — never the host's wall or CPU time, so a busy machine decides the same), and
 * function URL requests and SQS polls take their modeled latency. With a manual clock (unit tests), SQS (fauxqs) runs on
 * wall time, so batching windows, visibility and function timeouts are wall time too. `timeScale`
 * multiplies all three (e.g. 0.01 turns a 360 s visibility timeout into 4 s). Schedules always run
 * on the virtual clock.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import type {
  Context,
  LambdaFunctionURLEvent,
  ScheduledEvent,
  SQSBatchResponse,
  SQSEvent,
  SQSRecord,
} from 'aws-lambda';
import {
  EVENT_SOURCES,
  type EventSourceSpec,
  FUNCTIONS,
  type FunctionName,
  type QueueName,
  SCHEDULES,
  type ScheduleSpec,
  visibilityTimeoutSeconds,
} from '../../shared/event-sources.js';
import type { RuntimeTimers } from '../../shared/runtime-timers.js';
import { Semaphore } from '../../shared/semaphore.js';
import { targetPayload } from '../../shared/target-input.js';
import { currentScope } from '../activity.js';
import type { VirtualClock } from '../clock.js';
import { trackUrl } from '../http-activity.js';
import type { ApiLatency } from '../latency/api-latency.js';
import type { QueueRef } from '../sqs/sqs-simulator.js';
import { batchOutcome } from './batch-outcome.js';
import { ComputeLedger, type ComputeModel } from './compute-ledger.js';
import { type FunctionUrl, startFunctionUrl } from './function-url.js';
import type { FunctionUrlAuth } from './function-url-auth.js';
import { type FunctionTotals, InvocationLog, type InvocationRecord } from './invocation-log.js';
import { createLambdaContext, deployedFunctionName, type LambdaEnvironment } from './lambda-context.js';
import { QueuePoller } from './queue-poller.js';
import { RecurringTimer, scheduledEvent } from './schedules.js';

export type { InvocationRecord, Trigger } from './invocation-log.js';

/**
 * A Lambda handler as the runner calls it. Declared with method syntax so handlers typed for one
 * event kind (`(event: SQSEvent, context) => ...`) are accepted.
 */
export type FunctionHandler = {
  handle(event: RunnerEvent, context: Context): Promise<SQSBatchResponse | undefined | unknown>;
}['handle'];

/** The events the simulated Lambda service delivers: SQS batches, schedules, function URL requests. */
export type RunnerEvent = SQSEvent | ScheduledEvent | LambdaFunctionURLEvent;

/** Options of {@link LambdaRunner}. */
export interface LambdaRunnerOptions {
  readonly sqs: SQSClient;
  /**
   * The client an event source mapping polls with: the function's execution role, as Lambda
   * polls (ReceiveMessage / DeleteMessage / ChangeMessageVisibility need its permissions).
   * Default: `sqs`.
   */
  readonly sqsFor?: (name: FunctionName) => SQSClient;
  readonly clock: VirtualClock;
  readonly region: string;
  readonly account?: string;
  /** The queues of the event sources (URL and ARN). */
  readonly queues: Readonly<Record<QueueName, QueueRef>>;
  readonly handlers?: Partial<Record<FunctionName, FunctionHandler>>;
  /** Default: the shared EVENT_SOURCES. */
  readonly sources?: readonly EventSourceSpec[];
  /** Multiplies batching windows, visibility timeouts and function timeouts (wall time). Default 1. */
  readonly timeScale?: number;
  /** Long-poll wait of idle pollers in seconds (0-20). Default 1. */
  readonly pollWaitSeconds?: number;
  /** Deployed function name prefix. Default `joiner`. */
  readonly functionPrefix?: string;
  /** Modeled latency of function URL requests and SQS polls (auto mode only). */
  readonly latency?: ApiLatency;
  /**
   * Reserved concurrency per function, as the deployed stack sets it (`joiner:reservedConcurrency`):
   * a function named here runs at most that many invocations at once (the rest wait, where Lambda
   * would throttle). Default none, the stack's default.
   */
  readonly reservedConcurrency?: Readonly<Partial<Record<FunctionName, number>>>;
  /** The modeled cost of the handlers' compute (auto mode only). Default: DEFAULT_COMPUTE_MODEL. */
  readonly compute?: ComputeModel;
}

/** What an invocation used: its compute ledger (auto mode). */
interface Usage {
  ledger?: ComputeLedger;
}

/** Runs handlers for the event sources and schedules until stopped. */
export class LambdaRunner {
  private readonly handlers = new Map<FunctionName, FunctionHandler>();
  private readonly pollers = new Map<QueueName, QueuePoller>();
  private readonly log = new InvocationLog();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly urls: FunctionUrl[] = [];
  private readonly reserved = new Map<FunctionName, Semaphore>();
  private readonly untrack: Array<() => void> = [];
  private readonly env: LambdaEnvironment;
  private readonly schedules: RecurringTimer[];
  private running = false;
  /** Invocations started at the latest virtual instant, per function (see callerOf). */
  private starts: { at: number; counts: Map<FunctionName, number> } = { at: -1, counts: new Map() };

  constructor(private readonly options: LambdaRunnerOptions) {
    const scale = options.timeScale ?? 1;
    if (!(scale > 0)) throw new Error(`LambdaRunner: timeScale must be positive, got ${scale}`);
    this.env = {
      region: options.region,
      account: options.account ?? '000000000000',
      functionPrefix: options.functionPrefix ?? 'joiner',
    };
    for (const [name, handler] of Object.entries(options.handlers ?? {})) {
      if (handler) this.handlers.set(name as FunctionName, handler);
    }
    this.schedules = SCHEDULES.map(
      (spec) =>
        new RecurringTimer(options.clock, spec.rateMinutes * 60_000, (now) => this.fireSchedule(spec, now)),
    );
  }

  /** Starts the pollers of every event source whose function has a handler, and the schedules. */
  start(): void {
    this.running = true;
    for (const source of this.sources()) this.startPoller(source);
    for (const schedule of this.schedules) schedule.start();
  }

  /** The handler set for a function, if any (a harness wraps it to observe its invocations). */
  handler(name: FunctionName): FunctionHandler | undefined {
    return this.handlers.get(name);
  }

  /** Registers (or replaces) a function's handler; starts its event source when running. */
  setHandler(name: FunctionName, handler: FunctionHandler): void {
    this.handlers.set(name, handler);
    if (!this.running) return;
    for (const source of this.sources()) if (source.function === name) this.startPoller(source);
  }

  /** Invokes a function directly (like `lambda invoke`), with a fresh context; rejects when it fails. */
  async invoke(name: FunctionName, event: RunnerEvent): Promise<unknown> {
    return this.track(this.call(name, event));
  }

  /**
   * Starts a function URL for `name` on 127.0.0.1 (e.g. the webhook the API server calls); each
   * request invokes the function's current handler, once `auth` (Lambda's check of the URL's auth
   * type and the function's resource policy) lets it through. Closed by stop().
   */
  async functionUrl(name: FunctionName, auth?: FunctionUrlAuth): Promise<string> {
    const url = await startFunctionUrl(
      async (event) => {
        const started = Date.now();
        await this.options.latency?.wait('lambda', 'FunctionUrl');
        const startedAt = this.options.clock.now();
        const usage: Usage = {};
        return this.track(this.call(name, event, usage)).then(
          (result) => {
            this.log.record(
              name,
              'url',
              { records: 0, failed: 0 },
              started,
              undefined,
              startedAt,
              usage.ledger,
            );
            return result;
          },
          (error) => {
            this.log.record(name, 'url', { records: 0, failed: 0 }, started, error, startedAt, usage.ledger);
            throw error;
          },
        );
      },
      this.env.account,
      auth,
    );
    this.urls.push(url);
    const untrack = trackUrl(this.options.clock.activity, url.url, 'function-url');
    this.untrack.push(untrack);
    return url.url;
  }

  /** Finished invocations, oldest first (the last 10 000). */
  invocations(): readonly InvocationRecord[] {
    return this.log.invocations;
  }

  /** Per function: invocations, failures, timeouts, longest duration and heap, over the whole run. */
  functionTotals(): ReadonlyMap<FunctionName, FunctionTotals> {
    return this.log.totals();
  }

  /** Errors of the pollers' SQS calls (receive / delete), newest last (the last 100). */
  errors(): readonly string[] {
    return this.log.pollErrors;
  }

  /** Resolves when no invocation is running. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    await Promise.all([...this.pollers.values()].map((poller) => poller.idle()));
  }

  /** Stops the schedules and pollers and waits for running invocations. */
  async stop(): Promise<void> {
    this.running = false;
    for (const schedule of this.schedules) schedule.cancel();
    await Promise.all([...this.pollers.values()].map((poller) => poller.stop()));
    this.pollers.clear();
    await Promise.all(this.urls.splice(0).map((url) => url.close()));
    for (const untrack of this.untrack.splice(0)) untrack();
    await Promise.allSettled([...this.pending]);
  }

  private sources(): readonly EventSourceSpec[] {
    return this.options.sources ?? EVENT_SOURCES;
  }

  private startPoller(source: EventSourceSpec): void {
    if (this.pollers.has(source.queue) || !this.handlers.has(source.function)) return;
    const queue = this.options.queues[source.queue];
    if (!queue) throw new Error(`LambdaRunner: no queue given for event source '${source.queue}'`);
    const scale = this.options.timeScale ?? 1;
    const poller = new QueuePoller({
      sqs: this.options.sqsFor?.(source.function) ?? this.options.sqs,
      source,
      queueUrl: queue.url,
      queueArn: queue.arn,
      region: this.env.region,
      batchingWindowMs: source.batchingWindowSeconds * 1000 * scale,
      visibilityTimeoutSeconds: Math.max(1, Math.ceil(visibilityTimeoutSeconds(source) * scale)),
      pollWaitSeconds: this.options.pollWaitSeconds ?? 1,
      invoke: (records) => this.invokeBatch(source, records),
      onError: (error) => this.log.pollError(source.queue, error),
      clock: this.options.clock,
      latency: this.options.latency,
    });
    this.pollers.set(source.queue, poller);
    poller.start();
  }

  private async invokeBatch(source: EventSourceSpec, records: SQSRecord[]) {
    const started = Date.now();
    const startedAt = this.options.clock.now();
    const usage: Usage = {};
    try {
      const response = await this.call(source.function, { Records: records }, usage);
      const outcome = batchOutcome(response, records);
      const failed = outcome === 'all' ? records.length : outcome.failed.size;
      const error = outcome === 'all' ? 'invalid batch response: the whole batch is retried' : undefined;
      this.log.record(
        source.function,
        source.queue,
        { records: records.length, failed: failed },
        started,
        error,
        startedAt,
        usage.ledger,
      );
      return outcome;
    } catch (error) {
      this.log.record(
        source.function,
        source.queue,
        { records: records.length, failed: records.length },
        started,
        error,
        startedAt,
        usage.ledger,
      );
      return 'all' as const;
    }
  }

  private fireSchedule(schedule: ScheduleSpec, now: number): void {
    const name = schedule.function;
    if (!this.running || !this.handlers.has(name)) return;
    const ruleName = `${this.env.functionPrefix}-${schedule.id.toLowerCase()}`;
    const ruleArn = `arn:aws:events:${this.env.region}:${this.env.account}:rule/${ruleName}`;
    // What the deployed rule's target delivers: the Scheduled Event, or its target input applied.
    const event = targetPayload(
      scheduledEvent(ruleArn, this.env.region, this.env.account, now),
      schedule.input,
      { name: ruleName, arn: ruleArn },
    ) as ScheduledEvent;
    const started = Date.now();
    const startedAt = this.options.clock.now();
    const usage: Usage = {};
    const record = (error?: unknown) =>
      this.log.record(name, 'schedule', { records: 0, failed: 0 }, started, error, startedAt, usage.ledger);
    void this.track(this.call(name, event, usage).then(() => record(), record));
  }

  /** Calls the handler within the function's reserved concurrency, if it has one. */
  private call(name: FunctionName, event: RunnerEvent, usage: Usage = {}): Promise<unknown> {
    const limit = this.options.reservedConcurrency?.[name];
    if (limit === undefined) return this.callNow(name, event, usage);
    let semaphore = this.reserved.get(name);
    if (!semaphore) {
      semaphore = new Semaphore(limit, `reserved concurrency of ${name}`);
      this.reserved.set(name, semaphore);
    }
    return semaphore.run(() => this.callNow(name, event, usage));
  }

  /**
   * Calls the handler with a context, failing it after the (scaled) function timeout. Unlike real
   * Lambda, which stops the runtime at the timeout, a timed-out handler here keeps running in the
   * background (a promise cannot be killed) while the runner reports the failure and SQS retries
   * the batch. Handlers that start side effects must therefore observe
   * `context.getRemainingTimeInMillis()` (0 after the timeout) and start none near the deadline.
   */
  private async callNow(name: FunctionName, event: RunnerEvent, usage: Usage): Promise<unknown> {
    const handler = this.handlers.get(name);
    if (!handler) throw new Error(`no handler registered for function '${name}'`);
    const timeoutMs = FUNCTIONS[name].timeoutSeconds * 1000 * (this.options.timeScale ?? 1);
    const clock = this.options.clock;
    const virtual = clock.autoSpeed !== undefined;
    const now = virtual ? () => clock.now() : Date.now;
    // On the virtual clock, the context's remaining time, the timers the handler's early timeout
    // arms and the waits the handler makes are all virtual (a handler computing does not move
    // virtual time; wall time would).
    const timers: RuntimeTimers | undefined = virtual
      ? {
          setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
          clearTimeout: (h) => clock.clearTimeout(h as number),
          now: () => clock.now(),
          // The invocation's scope waits meanwhile (virtual time may run on).
          sleep: (ms) => clock.sleep(ms),
        }
      : undefined;
    const context = createLambdaContext(this.env, name, timeoutMs, now, timers);
    let cancel = (): void => undefined;
    const timeout = new Promise<never>((_, reject) => {
      const fail = () =>
        reject(new Error(`${deployedFunctionName(this.env, name)}: Task timed out after ${timeoutMs} ms`));
      if (virtual) {
        const handle = clock.setTimeout(fail, timeoutMs);
        cancel = () => clock.clearTimeout(handle);
      } else {
        const handle = setTimeout(fail, timeoutMs);
        cancel = () => clearTimeout(handle);
      }
    });
    // The invocation is joiner's compute: a scope of its own (see Activity), charged by the model.
    const ledger = virtual ? new ComputeLedger(this.options.compute, this.callerOf(name)) : undefined;
    usage.ledger = ledger;
    const began = clock.now();
    const invocation = async (): Promise<unknown> => {
      const scope = currentScope();
      if (scope && ledger) scope.ledger = ledger;
      const result = await handler(event, context);
      if (ledger) {
        // The compute after its last call ends the invocation.
        const rest = ledger.takeRest();
        const at = clock.now();
        ledger.record('compute', at, at + rest);
        if (rest > 0) await clock.sleep(rest);
      }
      return result;
    };
    try {
      return await clock.activity.run('joiner', () => Promise.race([invocation(), timeout]), true);
    } finally {
      cancel();
      if (ledger) ledger.durationMs = clock.now() - began;
    }
  }

  /**
   * Who an invocation starting now is: its function, the virtual instant and its rank among that
   * function's invocations starting at that instant (the latencies of its calls are drawn by it).
   */
  private callerOf(name: FunctionName): string {
    const at = this.options.clock.now();
    if (this.starts.at !== at) this.starts = { at, counts: new Map() };
    const rank = this.starts.counts.get(name) ?? 0;
    this.starts.counts.set(name, rank + 1);
    return `${name}@${at}#${rank}`;
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.pending.add(promise);
    void promise.then(
      () => this.pending.delete(promise),
      () => this.pending.delete(promise),
    );
    return promise;
  }
}
