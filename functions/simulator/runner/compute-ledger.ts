/**
 * How joiner's own compute is charged to the virtual clock: by a modeled cost, never by the CPU or
 * wall time it took here. The host's load (other processes, other handlers, a slow CI machine)
 * changes how long a handler takes on the wall clock and even its CPU time (cache and frequency
 * contention), so charging either would make the decisions of a scenario depend on the machine. The
 * model charges what an invocation does, which is the same on every run of a scenario and seed:
 *
 * - `invocationMs` per invocation (the runtime's dispatch, the event's parse);
 * - `callMs` per AWS or Kubernetes call it makes (building, signing and sending the request);
 * - `perKiBMs` per KiB of answer it receives (parsing it, and the work over what it read: the
 *   scheduler's work grows with the pods, nodes and claims listed).
 *
 * The compute since the last call is paid before the next call takes effect (the simulated service
 * waits it, then the call's modeled latency), and what is left at the end before the invocation
 * returns; meanwhile the virtual clock stands still for joiner, as it does for the simulator.
 * A {@link ComputeLedger} keeps one invocation's account and where its virtual time went.
 */

/** The modeled cost of joiner's compute (virtual ms). */
export interface ComputeModel {
  readonly invocationMs: number;
  readonly callMs: number;
  readonly perKiBMs: number;
}

/**
 * The default model, in the range a Node.js Lambda function with 1-2 GB measures: a warm
 * invocation's overhead of a few ms, about 1 ms of SDK work per call, and 0.05 ms per KiB of JSON or
 * XML parsed and worked on (20 MB/s: deserialising into typed objects and scheduling over them).
 */
export const DEFAULT_COMPUTE_MODEL: ComputeModel = { invocationMs: 3, callMs: 1, perKiBMs: 0.05 };

/** What a span of an invocation's virtual time was spent on. */
export type SpanKind = 'compute' | 'read' | 'write';

/** A span of an invocation's virtual time (epoch ms). */
export interface Span {
  readonly kind: SpanKind;
  readonly from: number;
  readonly to: number;
}

/** Spans kept per invocation (a long sweep makes many calls; its first ones are enough). */
const SPAN_LIMIT = 400;

/** One invocation's compute account: the debt not yet paid, what was charged, and its spans. */
export class ComputeLedger {
  private debt: number;
  private charged = 0;
  private readonly list: Span[] = [];
  private readonly calls = new Map<string, number>();
  private draws = 0;
  private read = 0;
  /** Virtual ms from the handler's start to its end (known once it has ended). */
  durationMs?: number;

  /**
   * @param model the modeled cost
   * @param caller who the invocation is (its function, virtual start and rank among that
   *   function's invocations starting then): the modeled latencies of its calls are drawn by it
   *   (see ApiLatency.wait)
   */
  constructor(
    readonly model: ComputeModel = DEFAULT_COMPUTE_MODEL,
    readonly caller?: string,
  ) {
    if (!(model.invocationMs >= 0 && model.callMs >= 0 && model.perKiBMs >= 0))
      throw new Error(`compute model: every cost must be a number >= 0, got ${JSON.stringify(model)}`);
    this.debt = model.invocationMs;
  }

  /** Adds `ms` of compute to pay at the next call or at the end. */
  charge(ms: number): void {
    if (ms > 0) this.debt += ms;
  }

  /** Adds the compute of parsing and working on an answer of `bytes`. */
  chargeBytes(bytes: number): void {
    this.read += bytes;
    this.charge((bytes / 1024) * this.model.perKiBMs);
  }

  /** Takes the debt for a call that starts now (the call's own cost included). */
  takeForCall(): number {
    return this.take(this.model.callMs);
  }

  /** Takes the debt left (the end of the invocation). */
  takeRest(): number {
    return this.take(0);
  }

  /** The rank of a call of `request` the invocation sends now (0 for its first of that request). */
  nextCall(request = ''): number {
    const rank = this.calls.get(request) ?? 0;
    this.calls.set(request, rank + 1);
    return rank;
  }

  /** The rank of a random draw the invocation makes now (0 for its first; see ApiLatency.retryJitter). */
  nextDraw(): number {
    return this.draws++;
  }

  /** Records a span of the invocation's virtual time. */
  record(kind: SpanKind, from: number, to: number): void {
    if (to <= from || this.list.length >= SPAN_LIMIT) return;
    this.list.push({ kind, from, to });
  }

  /** Virtual ms of compute charged so far. */
  get computeMs(): number {
    return this.charged;
  }

  /** Bytes of the answers the invocation received so far (what it parsed and held). */
  get bytesRead(): number {
    return this.read;
  }

  /** The spans recorded so far, in the order they were recorded. */
  get spans(): readonly Span[] {
    return this.list;
  }

  /** Whole virtual ms (virtual times stay integers); the fraction is carried to the next payment. */
  private take(extra: number): number {
    const owed = this.debt + extra;
    const ms = Math.floor(owed + 1e-9);
    this.debt = owed - ms;
    this.charged += ms;
    return ms;
  }
}

/** Whether a call of a modeled service reads (its latency counts as a read in the spans). */
export function isReadCall(service: string, call: string): boolean {
  if (service === 'kubernetes') return call === 'get' || call === 'list';
  return /^(Get|Describe|List|Query|Scan|BatchGet|Receive)/.test(call);
}
