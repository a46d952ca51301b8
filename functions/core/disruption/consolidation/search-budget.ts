/**
 * How much a consolidation search may explore before it settles for the best move found: a count
 * of candidate evaluations, not a time. Every trial the search makes removes a set of candidate
 * nodes and places their pods elsewhere; each node in a trial counts one evaluation (its pods'
 * placement is the trial's work). The same cluster therefore gets the same search, the same moves
 * and the same decision on an idle host, a busy one, a slow CI machine and in Lambda. A wall-time
 * budget made the decision depend on the host: a loaded machine explored fewer sets before its
 * deadline and could settle for a smaller move (at 2,000 nodes a search takes 40-50 s on a loaded
 * 2-core machine, past the 20 s such a budget allowed).
 *
 * A time limit stays as a safety net, far from what a search normally takes: the search stops
 * when the invocation has less than {@link SEARCH_RESERVE_MS} left (Lambda's remaining time; in
 * the simulated cloud that time is virtual and stands still while joiner computes, so it never cuts
 * a search there), or, where no remaining time is known (tests, benchmarks), after
 * {@link SEARCH_WALL_LIMIT_MS} of wall time. A search it cuts short says so ({@link cutBy}).
 */
import type { PreparedCluster } from './removal-simulation.js';

/**
 * Candidate evaluations a search may make: about three times what a search of 2,000 nodes makes
 * with half or three quarters of their pods gone (8,700 and 15,100 in the consolidation benchmark's
 * clusters; 2,000 and 4,000 at 500 nodes), so it binds only on larger clusters.
 */
export const SEARCH_EVALUATIONS = 40_000;
/** Invocation time kept for what follows the search (writing the proposal, its timers). */
export const SEARCH_RESERVE_MS = 10_000;
/** Wall milliseconds a search may take where the invocation's remaining time is unknown. */
export const SEARCH_WALL_LIMIT_MS = 45_000;

/** Limits of one search. */
export interface SearchBudgetLimits {
  /** Candidate evaluations allowed. Default {@link SEARCH_EVALUATIONS}. */
  readonly evaluations?: number;
  /** Milliseconds left in the invocation (Lambda's `getRemainingTimeInMillis`), when known. */
  readonly remainingMs?: () => number;
  /** Wall-time limit in ms when `remainingMs` is unknown. Default {@link SEARCH_WALL_LIMIT_MS}. */
  readonly wallLimitMs?: number;
  /** The wall clock in ms (only compared with itself). Default `performance.now`. */
  readonly wallNow?: () => number;
}

/** Why a search stopped before it had looked at everything. */
export type SearchCut = 'evaluations' | 'remaining-time' | 'wall-time';

/** The evaluation count and safety limit of one search; `expired` is the search's `SearchLimits.expired`. */
export class SearchBudget {
  private used = 0;
  private readonly evaluations: number;
  private readonly limits: SearchBudgetLimits;
  private readonly wallNow: () => number;
  private readonly started: number;
  private cut?: SearchCut;

  constructor(limits: SearchBudgetLimits = {}) {
    const evaluations = limits.evaluations ?? SEARCH_EVALUATIONS;
    const wall = limits.wallLimitMs ?? SEARCH_WALL_LIMIT_MS;
    if (!Number.isInteger(evaluations) || evaluations < 0)
      throw new Error(`consolidation search evaluations must be an integer >= 0, got ${evaluations}`);
    if (!(wall > 0)) throw new Error(`consolidation search wall-time limit must be > 0 ms, got ${wall}`);
    this.evaluations = evaluations;
    this.limits = { ...limits, wallLimitMs: wall };
    this.wallNow = limits.wallNow ?? (() => performance.now());
    this.started = this.wallNow();
  }

  /** True once the evaluations are spent or the safety limit has passed (and from then on). */
  readonly expired = (): boolean => {
    if (this.cut) return true;
    const { remainingMs, wallLimitMs = SEARCH_WALL_LIMIT_MS } = this.limits;
    if (this.used >= this.evaluations) this.cut = 'evaluations';
    else if (remainingMs) {
      if (remainingMs() < SEARCH_RESERVE_MS) this.cut = 'remaining-time';
    } else if (this.wallNow() - this.started > wallLimitMs) this.cut = 'wall-time';
    return this.cut !== undefined;
  };

  /** Counts `n` candidate evaluations. */
  spend(n: number): void {
    this.used += n;
  }

  /** Candidate evaluations made so far. */
  get spent(): number {
    return this.used;
  }

  /** What ended the search early, if anything did. */
  get cutBy(): SearchCut | undefined {
    return this.cut;
  }

  /** `prepared` with every trial of its runs counted here (one evaluation per node in the trial). */
  counting(prepared: PreparedCluster): PreparedCluster {
    return {
      ...prepared,
      runs: () => {
        const runs = prepared.runs();
        const trial = runs.trial.bind(runs);
        runs.trial = (names, improve) => {
          this.spend(names.length);
          return trial(names, improve);
        };
        return runs;
      },
    };
  }
}
