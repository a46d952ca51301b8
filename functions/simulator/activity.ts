/**
 * What the simulated cloud is doing right now, so that its virtual clock knows how fast to run:
 *
 * - **joiner computes** (a handler invocation runs and is not waiting for an answer): virtual time
 *   stands still — its compute is charged by a modeled cost (runner/compute-ledger.ts), never by
 *   the host's wall or CPU time, so a busy machine gives the same virtual times and decisions;
 * - **the simulator works** (a simulated service serves a request, the control plane reconciles):
 *   virtual time stands still — the cost of a call is its modeled latency, not our CPU time;
 * - **everything waits** on virtual timers (modeled latencies, batching windows, boots, schedules):
 *   the clock runs ahead at `--speed`, or jumps.
 *
 * Work is tracked in scopes carried by AsyncLocalStorage: a handler invocation or a served request
 * is a scope; an outbound HTTP request, a modeled wait or a nested scope suspends the scope it was
 * started from until it is answered. Any change bumps a generation; "idle" additionally needs a few
 * event-loop turns without change (an answer crossing loopback is in flight for one turn).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ComputeLedger } from './runner/compute-ledger.js';

/** Who is working in a scope. */
export type ScopeKind = 'joiner' | 'sim';

/** The joiner compute a served request must pay before it takes effect (see compute-ledger.ts). */
export interface Billing {
  readonly ledger: ComputeLedger;
  /** Virtual ms still to pay (0 once the service took it). */
  computeMs: number;
  /** What the request is (method, path, target; see http-activity.ts); absent: any call. */
  readonly request?: string;
  /** The call's rank among the invocation's calls of that request, in the order sent (see ApiLatency.wait). */
  readonly call: number;
}

/** One unit of tracked work (an invocation, a served request, a control-plane task). */
export class ActivityScope {
  private suspensions = 0;
  private ended = false;
  /** A joiner invocation's compute account (auto mode). */
  ledger?: ComputeLedger;
  /** A served request's joiner compute to pay (a call from a joiner invocation). */
  billing?: Billing;

  constructor(
    private readonly activity: Activity,
    readonly kind: ScopeKind,
    private readonly parent: ActivityScope | undefined,
  ) {
    parent?.suspend();
    activity.count(kind, +1);
  }

  /** The scope stops counting until {@link resume} (it waits for something else). */
  suspend(): void {
    if (this.ended) return;
    if (this.suspensions++ === 0) this.activity.count(this.kind, -1);
  }

  resume(): void {
    if (this.ended || this.suspensions === 0) return;
    if (--this.suspensions === 0) this.activity.count(this.kind, +1);
  }

  /** Ends the scope (idempotent); its parent counts again. */
  end(): void {
    if (this.ended) return;
    if (this.suspensions === 0) this.activity.count(this.kind, -1);
    this.ended = true;
    this.parent?.resume();
  }
}

const storage = new AsyncLocalStorage<ActivityScope>();

/** The scope of the code running now, if any. */
export function currentScope(): ActivityScope | undefined {
  return storage.getStore();
}

/** Runs `fn` outside every scope (timer callbacks must not inherit the scope that armed them). */
export function outsideScopes<T>(fn: () => T): T {
  return storage.exit(fn);
}

/** Turns of the event loop without change before the simulation counts as idle. */
const SETTLE_TURNS = 3;

/** The activity levels of one simulated cloud. */
export class Activity {
  private joiner = 0;
  private sim = 0;
  private generation = 0;
  private settledGeneration = 0;
  private probing = false;

  /** `changed` is called (synchronously) whenever the state may have changed. */
  constructor(private readonly changed: () => void = () => undefined) {}

  /** True while some joiner handler is computing. */
  get joinerBusy(): boolean {
    return this.joiner > 0;
  }

  /** Joiner scopes computing right now. */
  get joinerLevel(): number {
    return this.joiner;
  }

  /** True while the simulator works or has not settled since the last change. */
  get simBusy(): boolean {
    return this.sim > 0 || this.settledGeneration !== this.generation;
  }

  /** Runs `fn` in a new scope of `kind` (child of the current one unless `detached`). */
  run<T>(kind: ScopeKind, fn: () => Promise<T>, detached = false): Promise<T> {
    const scope = new ActivityScope(this, kind, detached ? undefined : storage.getStore());
    return storage.run(scope, () => {
      const done = Promise.resolve().then(fn);
      void done.then(
        () => scope.end(),
        () => scope.end(),
      );
      return done;
    });
  }

  /** Opens a detached scope that is not entered (the caller ends it). */
  open(kind: ScopeKind): ActivityScope {
    return new ActivityScope(this, kind, undefined);
  }

  /** Opens a detached scope for the rest of the current synchronous execution and what it starts. */
  enter(kind: ScopeKind): ActivityScope {
    const scope = new ActivityScope(this, kind, undefined);
    storage.enterWith(scope);
    return scope;
  }

  /** Awaits `promise` with the current scope suspended (waiting on something that is not us). */
  async outside<T>(promise: Promise<T> | (() => Promise<T>)): Promise<T> {
    const scope = storage.getStore();
    scope?.suspend();
    try {
      return await (typeof promise === 'function' ? promise() : promise);
    } finally {
      scope?.resume();
    }
  }

  /** Something happened (a timer fired, a request was sent): wait for the dust to settle. */
  poke(): void {
    this.generation++;
    this.changed();
    this.probe();
  }

  /** @internal Used by scopes. */
  count(kind: ScopeKind, delta: number): void {
    if (kind === 'joiner') this.joiner += delta;
    else this.sim += delta;
    this.poke();
  }

  private probe(): void {
    if (this.probing) return;
    this.probing = true;
    let seen = this.generation;
    let turns = 0;
    const step = (): void => {
      if (this.generation !== seen) {
        seen = this.generation;
        turns = 0;
      }
      if (++turns < SETTLE_TURNS) {
        setImmediate(step);
        return;
      }
      this.probing = false;
      this.settledGeneration = seen;
      this.changed();
    };
    outsideScopes(() => setImmediate(step));
  }
}
