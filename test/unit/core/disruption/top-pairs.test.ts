import { describe, expect, it } from 'vitest';
import { TopPairs } from '../../../../functions/core/disruption/consolidation/top-pairs.js';

describe('TopPairs', () => {
  it('keeps the best `limit` pairs over many offers, the highest score first, equal scores by index', () => {
    const top = new TopPairs(3);
    let n = 0;
    for (let i = 0; i < 20; i++)
      for (let j = i + 1; j < 20; j++) top.offer(i, j, ((i * 7 + j * 13) % 10) + (n++ % 2));
    const pairs = top.pairs();
    expect(pairs).toHaveLength(3);
    // Scores top out at 10 (9 + 1); among those, the lowest indices come first.
    expect(pairs).toEqual([...pairs].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
  });

  it('drops pairs that do not save (score 0 or less, -Infinity, NaN)', () => {
    const top = new TopPairs(5);
    top.offer(0, 1, 0);
    top.offer(0, 2, Number.NEGATIVE_INFINITY);
    top.offer(0, 3, Number.NaN);
    top.offer(1, 2, -1);
    top.offer(1, 3, 0.5);
    expect(top.pairs()).toEqual([[1, 3]]);
  });

  it('with a tolerance, ignores a score within rounding of the floor', () => {
    const top = new TopPairs(5, 1e-9);
    top.offer(0, 1, 0.192 + 0.192 - 0.384);
    top.offer(0, 2, 1e-12);
    top.offer(0, 3, 0.01);
    expect(top.pairs()).toEqual([[0, 3]]);
  });
});
