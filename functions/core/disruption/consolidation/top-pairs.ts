/**
 * The best-scoring pairs of candidates, at most a fixed number, kept while every pair of a cluster
 * is scored: the pair searches (pair-order.ts, exchange-order.ts) score all n x (n - 1) / 2 pairs
 * but try only a few hundred. Kept in memory is at most four times the limit between trims, and
 * the order is fixed for equal scores (lower indices first), so a search is the same on any host.
 */
export class TopPairs {
  private scored: { i: number; j: number; score: number }[] = [];
  /** Once `limit` pairs are kept, a pair must beat the least of them to matter. */
  private floor = 0;

  /**
   * @param limit how many pairs to keep
   * @param tolerance how much a score must exceed the floor by (absorbs rounding in summed prices)
   */
  constructor(
    private readonly limit: number,
    private readonly tolerance = 0,
  ) {}

  /** Offers pair `[i, j]` with its score; kept only if it beats the floor. */
  offer(i: number, j: number, score: number): void {
    if (!(score > this.floor + this.tolerance)) return;
    this.scored.push({ i, j, score });
    if (this.scored.length >= 4 * this.limit) this.trim();
  }

  /** The kept pairs, the highest score first. */
  pairs(): [number, number][] {
    this.trim();
    return this.scored.map((s) => [s.i, s.j]);
  }

  private trim(): void {
    this.scored.sort((a, b) => b.score - a.score || a.i - b.i || a.j - b.j);
    this.scored = this.scored.slice(0, this.limit);
    if (this.scored.length === this.limit) this.floor = this.scored[this.limit - 1].score;
  }
}
