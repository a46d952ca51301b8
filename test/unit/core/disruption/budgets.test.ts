import { describe, expect, it } from 'vitest';
import {
  allowedDisruptions,
  isBudgetActive,
  nextBudgetChange,
} from '../../../../functions/core/disruption/budgets.js';
import type { DisruptionBudget } from '../../../../functions/core/model/node-pool.js';

const H = 3_600_000;
const at = (iso: string) => Date.parse(iso);
/** Wednesday 3 January 2024, 12:00 UTC. */
const WED_NOON = at('2024-01-03T12:00:00Z');

const pct = (percent: number, extra: Partial<DisruptionBudget> = {}): DisruptionBudget => ({
  nodes: { percent },
  ...extra,
});
const count = (n: number, extra: Partial<DisruptionBudget> = {}): DisruptionBudget => ({
  nodes: { count: n },
  ...extra,
});
const allowed = (budgets: DisruptionBudget[], nodes: number, disrupting = 0, now = WED_NOON) =>
  allowedDisruptions(budgets, 'Empty', { nodes, disrupting }, now);

describe('allowedDisruptions: amounts', () => {
  it('rounds percentages up', () => {
    expect(allowed([pct(10)], 15)).toBe(2);
    expect(allowed([pct(10)], 5)).toBe(1);
    expect(allowed([pct(10)], 10)).toBe(1);
    expect(allowed([pct(10)], 11)).toBe(2);
    expect(allowed([pct(0)], 15)).toBe(0);
    expect(allowed([pct(10)], 0)).toBe(0);
    expect(allowed([pct(100)], 7)).toBe(7);
  });

  it('takes counts as they are, whatever the pool size', () => {
    expect(allowed([count(3)], 100)).toBe(3);
    expect(allowed([count(3)], 1)).toBe(3);
    expect(allowed([count(0)], 100)).toBe(0);
  });

  it('takes the most restrictive of several active budgets', () => {
    expect(allowed([pct(50), count(2)], 10)).toBe(2);
    expect(allowed([count(5), pct(10)], 30)).toBe(3);
    expect(allowed([pct(10), count(0), pct(100)], 30)).toBe(0);
  });

  it('is unlimited without a budget (an empty list is not the 10% default)', () => {
    expect(allowed([], 10)).toBe(Number.POSITIVE_INFINITY);
    expect(allowed([], 10, 4)).toBe(Number.POSITIVE_INFINITY);
  });

  it('subtracts the nodes already disrupting, never going below 0', () => {
    expect(allowed([pct(10)], 15, 1)).toBe(1);
    expect(allowed([pct(10)], 15, 2)).toBe(0);
    expect(allowed([pct(10)], 15, 5)).toBe(0);
    expect(allowed([count(4)], 15, 1)).toBe(3);
  });
});

describe('allowedDisruptions: reasons', () => {
  const budgets = [count(0, { reasons: ['Drifted'] }), count(4)];

  it('applies a budget only to the reasons it names', () => {
    const counts = { nodes: 20, disrupting: 0 };
    expect(allowedDisruptions(budgets, 'Drifted', counts, WED_NOON)).toBe(0);
    expect(allowedDisruptions(budgets, 'Empty', counts, WED_NOON)).toBe(4);
    expect(allowedDisruptions(budgets, 'Underutilized', counts, WED_NOON)).toBe(4);
  });

  it('leaves a reason no budget names unlimited', () => {
    const only = [count(1, { reasons: ['Empty', 'Drifted'] })];
    const counts = { nodes: 20, disrupting: 0 };
    expect(allowedDisruptions(only, 'Drifted', counts, WED_NOON)).toBe(1);
    expect(allowedDisruptions(only, 'Underutilized', counts, WED_NOON)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('scheduled budgets', () => {
  const nightly = count(0, { schedule: '@daily', durationMs: H });
  const officeHours = count(0, { schedule: '0 9 * * 1-5', durationMs: 8 * H });

  it('@daily for 1h is active from midnight UTC for one hour', () => {
    expect(isBudgetActive(nightly, at('2024-01-03T00:00:00Z'))).toBe(true);
    expect(isBudgetActive(nightly, at('2024-01-03T00:30:00Z'))).toBe(true);
    expect(isBudgetActive(nightly, at('2024-01-03T00:59:59.999Z'))).toBe(true);
    expect(isBudgetActive(nightly, at('2024-01-03T01:00:00Z'))).toBe(false);
    expect(isBudgetActive(nightly, at('2024-01-02T23:59:59Z'))).toBe(false);
    expect(isBudgetActive(nightly, WED_NOON)).toBe(false);
  });

  it('0 9 * * 1-5 for 8h is active during weekday office hours only', () => {
    expect(isBudgetActive(officeHours, at('2024-01-03T08:59:00Z'))).toBe(false);
    expect(isBudgetActive(officeHours, at('2024-01-03T09:00:00Z'))).toBe(true);
    expect(isBudgetActive(officeHours, at('2024-01-03T16:59:00Z'))).toBe(true);
    expect(isBudgetActive(officeHours, at('2024-01-03T17:00:00Z'))).toBe(false);
    expect(isBudgetActive(officeHours, at('2024-01-06T10:00:00Z'))).toBe(false); // Saturday
    expect(isBudgetActive(officeHours, at('2024-01-08T10:00:00Z'))).toBe(true); // Monday
  });

  it('limits only while active', () => {
    const budgets = [pct(10), nightly];
    expect(allowed(budgets, 30, 0, at('2024-01-03T00:30:00Z'))).toBe(0);
    expect(allowed(budgets, 30, 0, WED_NOON)).toBe(3);
    expect(allowed([officeHours], 30, 0, WED_NOON)).toBe(0);
    expect(allowed([officeHours], 30, 0, at('2024-01-03T20:00:00Z'))).toBe(Number.POSITIVE_INFINITY);
  });

  it('reads names, ? and the @midnight macro as Karpenter does', () => {
    const named = count(0, { schedule: '0 9 ? * MON-FRI', durationMs: 8 * H });
    const midnight = count(0, { schedule: '@midnight', durationMs: H });
    expect(isBudgetActive(named, WED_NOON)).toBe(true);
    expect(isBudgetActive(named, at('2024-01-06T12:00:00Z'))).toBe(false);
    expect(isBudgetActive(midnight, at('2024-01-03T00:10:00Z'))).toBe(true);
    expect(isBudgetActive(midnight, WED_NOON)).toBe(false);
  });

  it('a budget without a schedule is always active; a schedule without a duration never is', () => {
    expect(isBudgetActive(count(1), WED_NOON)).toBe(true);
    const noDuration = count(0, { schedule: '* * * * *' });
    expect(isBudgetActive(noDuration, WED_NOON)).toBe(false);
    expect(allowed([noDuration], 10)).toBe(Number.POSITIVE_INFINITY);
  });

  it('fails closed on a schedule that does not parse, whatever the reason', () => {
    const broken = count(5, { schedule: '61 * * * *', durationMs: H, reasons: ['Drifted'] });
    expect(allowed([pct(100), broken], 10)).toBe(0);
  });
});

describe('nextBudgetChange', () => {
  it('is undefined when no budget has a schedule', () => {
    expect(nextBudgetChange([], WED_NOON)).toBeUndefined();
    expect(nextBudgetChange([pct(10), count(2)], WED_NOON)).toBeUndefined();
  });

  it('is the next hit of an inactive budget and the end of an active one', () => {
    const nightly = count(0, { schedule: '@daily', durationMs: H });
    expect(nextBudgetChange([nightly], WED_NOON)).toBe(at('2024-01-04T00:00:00Z'));
    expect(nextBudgetChange([nightly], at('2024-01-04T00:20:00Z'))).toBe(at('2024-01-04T01:00:00Z'));
    expect(nextBudgetChange([nightly], at('2024-01-04T00:00:00Z'))).toBe(at('2024-01-04T01:00:00Z'));
  });

  it('skips the weekend and takes the earliest change of several budgets', () => {
    const officeHours = count(0, { schedule: '0 9 * * 1-5', durationMs: 8 * H });
    const friday = at('2024-01-05T18:00:00Z');
    expect(nextBudgetChange([officeHours], friday)).toBe(at('2024-01-08T09:00:00Z'));
    const nightly = count(0, { schedule: '@daily', durationMs: H });
    expect(nextBudgetChange([officeHours, pct(10), nightly], friday)).toBe(at('2024-01-06T00:00:00Z'));
  });

  it('runs overlapping windows together', () => {
    const twice = count(0, { schedule: '0 0,1 * * *', durationMs: 1.5 * H });
    expect(nextBudgetChange([twice], at('2024-01-03T00:30:00Z'))).toBe(at('2024-01-03T02:30:00Z'));
    const always = count(0, { schedule: '@hourly', durationMs: 2 * H });
    expect(isBudgetActive(always, WED_NOON)).toBe(true);
    // Always active: the walk stops far ahead, at a time the budget is still active.
    const recheck = nextBudgetChange([always], WED_NOON) as number;
    expect(recheck).toBeGreaterThan(WED_NOON + 30 * 24 * H);
    expect(isBudgetActive(always, recheck)).toBe(true);
  });

  it('ignores schedules that never change state', () => {
    const noDuration = count(0, { schedule: '@daily' });
    const broken = count(0, { schedule: '@sometimes', durationMs: H });
    expect(nextBudgetChange([noDuration, broken], WED_NOON)).toBeUndefined();
  });
});
