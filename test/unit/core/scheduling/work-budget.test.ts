import { describe, expect, it } from 'vitest';
import { WorkBudget } from '../../../../functions/core/scheduling/work-budget.js';

describe('work budget', () => {
  it('spends units until they run out, never more than it has', () => {
    const b = new WorkBudget(10);
    expect(b.spend(4)).toBe(true);
    expect(b.spend(6)).toBe(true);
    expect(b.remaining).toBe(0);
    expect(b.spend()).toBe(false);
    expect(b.spent).toBe(10);
    const c = new WorkBudget(10);
    expect(c.spend(11)).toBe(false);
    expect(c.spent).toBe(0);
    expect(c.open).toBe(false);
  });

  it('scales with effort; no effort means no work', () => {
    expect(new WorkBudget(10, { effort: 2 }).remaining).toBe(20);
    const none = new WorkBudget(10, { effort: 0 });
    expect(none.open).toBe(false);
    expect(none.spend()).toBe(false);
  });

  it('charges shares to the budget they come from, within their own limit', () => {
    const parent = new WorkBudget(100);
    const child = parent.share(30);
    expect(child.spend(20)).toBe(true);
    expect(parent.remaining).toBe(80);
    expect(child.spend(20)).toBe(false);
    expect(parent.remaining).toBe(80);
    expect(parent.open).toBe(true);
    const greedy = parent.share(500);
    expect(greedy.remaining).toBe(80);
    expect(greedy.spend(80)).toBe(true);
    expect(parent.open).toBe(false);
    expect(parent.share(10).open).toBe(false);
  });

  it('stops at the deadline of the clock it is given', () => {
    let time = 0;
    const b = new WorkBudget(1e9, { now: () => time, deadline: 100 });
    expect(b.open).toBe(true);
    const share = b.share(1e6);
    // The clock is read when asked whether work may go on, and every few thousand units.
    for (let i = 0; i < 5000; i++) expect(share.spend()).toBe(true);
    time = 100;
    expect(share.open).toBe(false);
    expect(b.spend()).toBe(false);
    const late = new WorkBudget(1e9, { now: () => 5, deadline: 5 });
    expect(late.open).toBe(false);
  });
});
