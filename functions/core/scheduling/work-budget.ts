/**
 * A budget for the packing improvement: counted work units (deterministic: the same input always
 * gets the same amount of search), and optionally a deadline on a clock the caller passes in (the
 * scheduler core never reads the wall clock itself). Steps ask `spend` before they work and stop
 * once it answers false; what they found so far stays valid.
 */

/** Limits a caller may set on the improvement phase. */
export interface ImprovementLimits {
  /** Multiplies the work budget (1 = default; 0 skips the search steps). */
  readonly effort?: number;
  /** A clock in milliseconds, e.g. `() => performance.now()`; only compared with `deadline`. */
  readonly now?: () => number;
  /** Stop improving once `now()` reaches this (same clock); the plan is then the best found. */
  readonly deadline?: number;
}

/** Clock checks happen once per this many work units. */
const CHECK_EVERY = 2048;

/** Work units left, and the deadline check. */
export class WorkBudget {
  private left: number;
  private used = 0;
  private sinceCheck = 0;
  private stopped = false;

  constructor(
    units: number,
    private readonly limits: ImprovementLimits = {},
    private readonly parent?: WorkBudget,
  ) {
    this.left = units * (parent ? 1 : (limits.effort ?? 1));
    if (!(this.left > 0)) this.stopped = true;
  }

  /**
   * Spends `units` (true), or spends nothing and answers false once they are more than is left
   * here or in the budget this is a share of, or the deadline has passed.
   */
  spend(units = 1): boolean {
    if (this.stopped) return false;
    if (units > this.left || (this.parent && !this.parent.spend(units))) {
      this.stopped = true;
      return false;
    }
    this.left -= units;
    this.used += units;
    this.sinceCheck += units;
    if (this.left <= 0) this.stopped = true;
    else if (!this.parent && this.sinceCheck >= CHECK_EVERY) {
      this.sinceCheck = 0;
      this.checkClock();
    }
    return true;
  }

  /** Whether work may continue (checks the deadline now). */
  get open(): boolean {
    if (!this.stopped && (this.parent ? !this.parent.open : this.clockPassed())) this.stopped = true;
    return !this.stopped;
  }

  /** Units left (0 when stopped). */
  get remaining(): number {
    if (this.stopped) return 0;
    return this.parent ? Math.min(this.left, this.parent.remaining) : this.left;
  }

  /** Units spent so far (never more than the budget). */
  get spent(): number {
    return this.used;
  }

  /** A budget of at most `units`, charged to this one as well. */
  share(units: number): WorkBudget {
    return new WorkBudget(Math.min(units, this.remaining), this.limits, this);
  }

  private clockPassed(): boolean {
    const { now, deadline } = this.limits;
    return now !== undefined && deadline !== undefined && now() >= deadline;
  }

  private checkClock(): void {
    if (this.clockPassed()) this.stopped = true;
  }
}
