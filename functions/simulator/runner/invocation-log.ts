/** The runner's record of finished invocations and of its pollers' SQS errors. */
import { getHeapStatistics } from 'node:v8';
import type { FunctionName, QueueName } from '../../shared/event-sources.js';
import type { ComputeLedger, Span } from './compute-ledger.js';

/** What triggered an invocation. */
export type Trigger = QueueName | 'schedule' | 'direct' | 'url';

/** One finished invocation. */
export interface InvocationRecord {
  readonly functionName: FunctionName;
  readonly trigger: Trigger;
  /** SQS records in the batch (0 for schedules, URLs and direct calls). */
  readonly records: number;
  /** Records reported failed (all of them when the handler threw or timed out). */
  readonly failed: number;
  /** Error message when the handler threw, timed out or answered an invalid batch response. */
  readonly error?: string;
  /** Wall milliseconds the invocation took. */
  readonly durationMs: number;
  /** Virtual time the invocation started (epoch ms). */
  readonly startedAt?: number;
  /** Virtual ms of compute the model charged (auto mode). */
  readonly computeMs?: number;
  /** Where its virtual time went: compute, reads and writes (auto mode; the first few hundred). */
  readonly spans?: readonly Span[];
}

/** Per function, over every invocation of the run (not bounded like the log). */
export interface FunctionTotals {
  readonly invocations: number;
  /** Invocations that threw, timed out or reported failed records. */
  readonly failed: number;
  /** Invocations that ran past the function's timeout. */
  readonly timedOut: number;
  /** Longest invocation, wall milliseconds. */
  readonly maxDurationMs: number;
  /**
   * Longest invocation on the virtual clock (ms), the time Lambda's timeout applies to: from the
   * handler's start to its end (0 when the run is not on a virtual clock).
   */
  readonly maxVirtualMs: number;
  /** Most bytes of AWS and Kubernetes answers one invocation received (0 off the virtual clock). */
  readonly maxBytesRead: number;
  /**
   * Highest V8 heap in use (MiB) when one of its invocations ended. The handlers share one process
   * with the simulator and each other, so this is an upper bound of what one invocation held.
   */
  readonly maxHeapMiB: number;
}

const INVOCATION_LIMIT = 10_000;
const ERROR_LIMIT = 100;

/** Bounded logs: the last 10 000 invocations and the last 100 poller errors. */
export class InvocationLog {
  /** The records, up to twice the limit: cut back to the limit at once, so a record costs O(1). */
  private kept: InvocationRecord[] = [];
  readonly pollErrors: string[] = [];
  private readonly perFunction = new Map<FunctionName, FunctionTotals>();

  /** Records an invocation that started at wall time `started`. */
  record(
    functionName: FunctionName,
    trigger: Trigger,
    counts: { records: number; failed: number },
    started: number,
    error?: unknown,
    startedAt?: number,
    ledger?: ComputeLedger,
  ): void {
    const message = error === undefined ? undefined : error instanceof Error ? error.message : String(error);
    const durationMs = Date.now() - started;
    this.kept.push({
      functionName,
      trigger,
      ...counts,
      durationMs,
      error: message,
      startedAt,
      ...(ledger ? { computeMs: ledger.computeMs, spans: ledger.spans } : {}),
    });
    if (this.kept.length >= 2 * INVOCATION_LIMIT) this.kept = this.kept.slice(-INVOCATION_LIMIT);
    const t = this.perFunction.get(functionName);
    this.perFunction.set(functionName, {
      invocations: (t?.invocations ?? 0) + 1,
      failed: (t?.failed ?? 0) + (message !== undefined || counts.failed > 0 ? 1 : 0),
      timedOut: (t?.timedOut ?? 0) + (message?.includes('Task timed out') ? 1 : 0),
      maxDurationMs: Math.max(t?.maxDurationMs ?? 0, durationMs),
      maxVirtualMs: Math.max(t?.maxVirtualMs ?? 0, ledger?.durationMs ?? 0),
      maxBytesRead: Math.max(t?.maxBytesRead ?? 0, ledger?.bytesRead ?? 0),
      // The V8 heap's statistics alone: process.memoryUsage() also reads the resident set size
      // from the OS on every call, which cost more than the bookkeeping itself at thousands of
      // invocations.
      maxHeapMiB: Math.max(t?.maxHeapMiB ?? 0, getHeapStatistics().used_heap_size / 2 ** 20),
    });
  }

  /** The last 10 000 invocations, oldest first. */
  get invocations(): InvocationRecord[] {
    if (this.kept.length > INVOCATION_LIMIT) this.kept = this.kept.slice(-INVOCATION_LIMIT);
    return this.kept;
  }

  /** Per function, totals over the whole run. */
  totals(): ReadonlyMap<FunctionName, FunctionTotals> {
    return this.perFunction;
  }

  /** Records a failed receive or delete of a poller. */
  pollError(queue: QueueName, error: unknown): void {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.pollErrors.push(`${queue}: ${message}`);
    if (this.pollErrors.length > ERROR_LIMIT) this.pollErrors.shift();
  }
}
