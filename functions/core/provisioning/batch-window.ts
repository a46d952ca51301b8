/**
 * The provisioning batch window, as Karpenter's batcher: a run gathers pods until `idle` passes
 * without a new pending pod, or `max` since the first one, whatever the queue delivered in
 * between. The window is measured from the events (the queue's send times of the batch's
 * messages), and new pods are seen by listing the API server's pending pods, so two invocations
 * holding slices of one burst both wait for the end of the burst (the first to take the lease
 * plans all of it; the other finds its pods already planned).
 */
import type { ClusterApi } from '../ports/cluster-api.js';
import type { Log } from '../ports/log.js';

/** The batch window (Karpenter: BATCH_IDLE_DURATION 1 s, BATCH_MAX_DURATION 10 s). */
export interface BatchWindow {
  /** A run starts once this long passed without a new pending pod. 0 disables the window. */
  readonly idleMs: number;
  /** ... or once this long passed since the first event of the batch. */
  readonly maxMs: number;
}

/** Karpenter's defaults. */
export const DEFAULT_BATCH_WINDOW: BatchWindow = { idleMs: 1_000, maxMs: 10_000 };

/** Bounds of the settings (the provisioner's timeout must leave room to plan and launch). */
export const BATCH_WINDOW_LIMITS = { maxSeconds: 30 } as const;

/** When the batch's events were sent (epoch ms on the runtime's clock). */
export interface BatchEvents {
  readonly firstMs: number;
  readonly lastMs: number;
}

/** What the window did. */
export interface GatherResult {
  /** Milliseconds waited (on the runtime's clock). */
  readonly waitedMs: number;
  /** Pods that turned pending while the window was open. */
  readonly newPods: number;
  /** Why the window closed. */
  readonly closedBy: 'idle' | 'max' | 'deadline';
}

/** What {@link gatherPods} needs. */
export interface GatherDeps {
  readonly cluster: Pick<ClusterApi, 'listPendingPods'>;
  readonly log: Log;
  /** The clock the events' send times are on (epoch ms): the runtime's. */
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** Latest time (epoch ms, same clock) the window may last until (the invocation's deadline less a reserve). */
  readonly deadline?: number;
}

/** Poll period of the API server while the window is open. */
export function pollMs(window: BatchWindow): number {
  return Math.max(50, Math.min(250, window.idleMs / 4));
}

/**
 * Waits while the window is open: until `idleMs` passed since the last event or the last new
 * pending pod, `maxMs` since the first event, or the deadline. Returns at once (without calling
 * the API server) when the batch's last event is already `idleMs` old, and after one call when
 * no pod is pending. A failing list closes the
 * window (the run reads the cluster itself and reports the error).
 */
export async function gatherPods(
  deps: GatherDeps,
  window: BatchWindow,
  events: BatchEvents,
): Promise<GatherResult> {
  const started = deps.now();
  // A send time ahead of this clock (another clock's: a message sent before the run's clock took
  // over) counts as now, so the window never outlasts `maxMs` from the run's start.
  const firstMs = Math.min(events.firstMs, started);
  const maxAt = firstMs + window.maxMs;
  const closeAt = Math.min(maxAt, deps.deadline ?? Number.POSITIVE_INFINITY);
  let last = Math.min(events.lastMs, started);
  let seen: Set<string> | undefined;
  let newPods = 0;
  const result = (closedBy: GatherResult['closedBy']): GatherResult => ({
    waitedMs: deps.now() - started,
    newPods,
    closedBy,
  });
  for (;;) {
    const now = deps.now();
    if (window.idleMs <= 0 || now - last >= window.idleMs) return result('idle');
    if (now >= closeAt) return result(closeAt === maxAt ? 'max' : 'deadline');
    if (seen !== undefined)
      await deps.sleep(Math.min(pollMs(window), last + window.idleMs - now, closeAt - now));
    let uids: string[];
    try {
      uids = (await deps.cluster.listPendingPods()).map(
        (p) => p.metadata.uid ?? `${p.metadata.namespace}/${p.metadata.name}`,
      );
    } catch (error) {
      deps.log.warn('could not list pending pods while batching, planning now', {
        error: (error as Error).message,
      });
      return result('idle');
    }
    if (seen === undefined) {
      // Nothing pending: the batch's pods were planned or bound already, there is no burst to wait for.
      if (uids.length === 0) return result('idle');
      seen = new Set(uids);
      continue;
    }
    let fresh = 0;
    for (const uid of uids) {
      if (seen.has(uid)) continue;
      seen.add(uid);
      fresh++;
    }
    if (fresh > 0) {
      newPods += fresh;
      last = deps.now();
    }
  }
}

/** The send times of a batch's messages, or undefined when none carries one. */
export function batchEvents(sentTimes: readonly number[]): BatchEvents | undefined {
  const valid = sentTimes.filter((t) => Number.isFinite(t) && t > 0);
  if (valid.length === 0) return undefined;
  return { firstMs: Math.min(...valid), lastMs: Math.max(...valid) };
}

/**
 * Reads a batch window from seconds given as text (environment) or numbers (context); `where`
 * names the setting in the error. Idle and max are each in 0..30 s and idle is at most max.
 */
export function parseBatchWindow(
  idle: unknown,
  max: unknown,
  where: { readonly idle: string; readonly max: string },
): BatchWindow {
  const seconds = (value: unknown, name: string, fallback: number): number => {
    if (value === undefined || value === null || value === '') return Math.round(fallback * 1000);
    const n = typeof value === 'string' ? Number(value.trim()) : value;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > BATCH_WINDOW_LIMITS.maxSeconds) {
      throw new Error(
        `${name} must be seconds in 0..${BATCH_WINDOW_LIMITS.maxSeconds} (got ${JSON.stringify(value)})`,
      );
    }
    return Math.round(n * 1000);
  };
  const idleMs = seconds(idle, where.idle, DEFAULT_BATCH_WINDOW.idleMs / 1000);
  const maxMs = seconds(max, where.max, DEFAULT_BATCH_WINDOW.maxMs / 1000);
  if (idleMs > maxMs) {
    throw new Error(
      `${where.idle} (${idleMs / 1000} s) must not exceed ${where.max} (${maxMs / 1000} s): ` +
        'the window closes at the maximum whatever the idle time',
    );
  }
  return { idleMs, maxMs };
}
