/**
 * NodePool disruption budgets, as Karpenter evaluates them: a budget limits how many of a pool's
 * nodes may be disrupted at once, for the reasons it names (all when it names none), while its
 * cron schedule (UTC) last hit less than its duration ago (always when it has no schedule). The
 * most restrictive active budget wins; nodes already disrupting or NotReady use up the allowance.
 */
import { budgetSchedule } from '../model/config/cron.js';
import type { DisruptionBudget, DisruptionReason } from '../model/node-pool.js';

/** The disruption reasons a budget can be limited to: `Empty`, `Drifted`, `Underutilized`. */
export type BudgetReason = DisruptionReason;

/** A pool's nodes as budgets count them. */
export interface PoolDisruptionCounts {
  /**
   * The pool's nodes that count towards a percentage: managed and initialized, not yet shut down
   * at the cloud provider.
   */
  readonly nodes: number;
  /** Those of them already using up the budget: NotReady, or marked for disruption or deletion. */
  readonly disrupting: number;
}

/** Bound on the schedule hits walked to find where a run of overlapping windows ends. */
const MAX_CHAINED_HITS = 1000;

/**
 * Whether `budget` is active at `now` (epoch ms). A budget without a schedule always is; a
 * scheduled one is while its latest schedule hit at or before `now` is less than `durationMs`
 * ago (so never with no or a zero duration). A schedule that does not parse counts as active:
 * {@link allowedDisruptions} then allows nothing, failing closed as Karpenter does.
 */
export function isBudgetActive(budget: DisruptionBudget, now: number): boolean {
  if (budget.schedule === undefined) return true;
  const cron = budgetSchedule(budget.schedule);
  if (cron === null) return true;
  // Karpenter's walk: the first hit after (now - duration) is at or before now.
  const hit = cron.nextRun(new Date(now - (budget.durationMs ?? 0)));
  return hit !== null && hit.getTime() <= now;
}

/**
 * How many more of a pool's nodes may be disrupted for `reason` at `now`: the smallest allowance
 * of the active budgets that apply to `reason` (a percentage of `counts.nodes` rounded up, so
 * 10% of 5 nodes is 1), less `counts.disrupting`, never below 0. With no active budget for the
 * reason it is `Number.POSITIVE_INFINITY` (Karpenter's MaxInt32); an empty budget list is
 * unlimited too, as in Karpenter (its 10% default applies only when `budgets` is absent). Any
 * budget with an unparsable schedule makes it 0.
 */
export function allowedDisruptions(
  budgets: readonly DisruptionBudget[],
  reason: BudgetReason,
  counts: PoolDisruptionCounts,
  now: number,
): number {
  let allowed = Number.POSITIVE_INFINITY;
  for (const budget of budgets) {
    if (budget.schedule !== undefined && budgetSchedule(budget.schedule) === null) return 0;
    if (budget.reasons !== undefined && !budget.reasons.includes(reason)) continue;
    if (!isBudgetActive(budget, now)) continue;
    allowed = Math.min(allowed, budgetNodes(budget, counts.nodes));
  }
  return Math.max(allowed - counts.disrupting, 0);
}

/** The nodes one active budget allows out of `nodes`, percentages rounded up. */
function budgetNodes(budget: DisruptionBudget, nodes: number): number {
  if ('count' in budget.nodes) return budget.nodes.count;
  return Math.ceil((budget.nodes.percent * nodes) / 100);
}

/**
 * The first time after `now` (epoch ms) at which a scheduled budget becomes active or inactive,
 * for re-arming a timer that a budget holds back; `undefined` when no budget has a schedule that
 * ever changes state (none scheduled, unparsable, or a zero duration). When a budget's windows
 * overlap for more than a thousand hits in a row, the time the walk reached stands in for its
 * change: the budget is still active then, and is to be looked at again.
 */
export function nextBudgetChange(budgets: readonly DisruptionBudget[], now: number): number | undefined {
  let next: number | undefined;
  for (const budget of budgets) {
    const at = budgetChange(budget, now);
    if (at !== undefined && (next === undefined || at < next)) next = at;
  }
  return next;
}

function budgetChange(budget: DisruptionBudget, now: number): number | undefined {
  if (budget.schedule === undefined) return undefined;
  const cron = budgetSchedule(budget.schedule);
  const duration = budget.durationMs ?? 0;
  if (cron === null || duration <= 0) return undefined;
  const first = cron.nextRun(new Date(now - duration));
  if (first === null) return undefined;
  if (first.getTime() > now) return first.getTime(); // inactive: it opens at its next hit
  // Active: the window closes `duration` after the last hit of a run of overlapping windows.
  let end = first.getTime() + duration;
  let hit = cron.nextRun(first);
  for (let i = 0; hit !== null && hit.getTime() <= end; i++) {
    if (i === MAX_CHAINED_HITS) return end;
    end = hit.getTime() + duration;
    hit = cron.nextRun(hit);
  }
  return end;
}
