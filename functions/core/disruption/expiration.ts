/**
 * Expiration (Karpenter v1 `expireAfter`, v1beta1 `disruption.expireAfter`, v1alpha5
 * `ttlSecondsUntilExpired`): a node older than its NodePool allows is replaced, forcefully — not
 * blocked by budgets — with replacement capacity first and a drain bounded by the
 * terminationGracePeriod.
 */
import type { NodePool } from '../model/node-pool.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';

/**
 * When the claim expires (epoch ms), or undefined for never. The expiry stamped on the claim at
 * creation wins (as Karpenter copies expireAfter into the NodeClaim); a claim without one (its
 * drain was cancelled, or it predates the stamp) takes its NodePool's current `expireAfter`.
 */
export function expiryOf(claim: NodeClaim, pool: NodePool | undefined): number | undefined {
  if (claim.timers.expiration !== undefined) return claim.timers.expiration;
  const after = pool?.expireAfterMs;
  if (after === null || after === undefined) return undefined;
  return (claim.timestamps.Pending ?? 0) + after;
}
