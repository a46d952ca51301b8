/**
 * The new nodes of a replace with their instance-type options cut so that, whichever options they
 * launch with, together they cost less than the nodes they replace. A launch takes any of a
 * claim's options (the cheapest may be unavailable by then), so the move is only sure to save when
 * the dearest combination still does, as Karpenter's multi-node replacement bounds the worst-case
 * launch price.
 */
import type { PlannedNodeClaim } from '../../scheduling/types.js';

/**
 * `claims` with their options cut to keep their total below `price`, or undefined when no cut
 * does. One node keeps the options cheaper than `price`. Two nodes each keep their cheapest options
 * up to a price level, the two levels chosen to sum below `price` and keep the most options (ties:
 * the lower sum). Three or more nodes (a re-pack into smaller nodes) share what their cheapest
 * options leave below `price` equally: each keeps the options less than its cheapest plus its share.
 */
export function withinPrice(
  claims: readonly PlannedNodeClaim[],
  price: number,
): PlannedNodeClaim[] | undefined {
  if (claims.length === 0) return undefined;
  if (claims.length === 1) {
    const cheaper = claims[0].instanceTypeOptions.filter((o) => o.price < price);
    return cheaper.length > 0 ? [{ ...claims[0], instanceTypeOptions: cheaper }] : undefined;
  }
  if (claims.length === 2) return twoWithinPrice(claims, price);
  const cheapest = claims.map((c) => Math.min(...c.instanceTypeOptions.map((o) => o.price)));
  const share = (price - cheapest.reduce((sum, p) => sum + p, 0)) / claims.length;
  if (!(share > 1e-12)) return undefined;
  return claims.map((c, k) => ({
    ...c,
    instanceTypeOptions: c.instanceTypeOptions.filter((o) => o.price < cheapest[k] + share),
  }));
}

function twoWithinPrice(claims: readonly PlannedNodeClaim[], price: number): PlannedNodeClaim[] | undefined {
  const levels = claims.map((c) =>
    [...new Set(c.instanceTypeOptions.map((o) => o.price))].sort((x, y) => x - y),
  );
  // Options at or below each level, per node.
  const kept = claims.map((c, k) =>
    levels[k].map((level) => c.instanceTypeOptions.filter((o) => o.price <= level).length),
  );
  let best: { a: number; b: number; kept: number } | undefined;
  for (const [i, a] of levels[0].entries())
    for (const [j, b] of levels[1].entries()) {
      if (a + b >= price) break;
      const n = kept[0][i] + kept[1][j];
      if (!best || n > best.kept || (n === best.kept && a + b < best.a + best.b)) best = { a, b, kept: n };
    }
  if (!best) return undefined;
  const { a, b } = best;
  return claims.map((c, k) => ({
    ...c,
    instanceTypeOptions: c.instanceTypeOptions.filter((o) => o.price <= (k === 0 ? a : b)),
  }));
}
