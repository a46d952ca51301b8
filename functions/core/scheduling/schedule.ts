/**
 * joiner's scheduler: plans where pending pods go (existing nodes, in-flight claims, new claims)
 * and which instance types new claims may use. Pure and deterministic.
 */
import type { Claim } from './claim.js';
import { finalizeClaim } from './finalize.js';
import { improvePacking } from './improve.js';
import { placeAll } from './placement.js';
import type { Dims } from './resource-vector.js';
import { setupRun } from './setup.js';
import type { ExistingPlacement, PlannedNodeClaim, ScheduleInput, SchedulePlan } from './types.js';

/** Default cap on the instance-type options of a nodeclaim (CreateFleet overrides). */
export const MAX_INSTANCE_TYPE_OPTIONS = 60;

/**
 * Computes the plan for the pending pods of `input`. Never throws on bad pods or pools: they show
 * up in `unschedulable` with a reason.
 */
export function schedule(input: ScheduleInput): SchedulePlan {
  const state = setupRun(input);
  const placement = placeAll(state);
  const claims = input.skipImprovement
    ? placement.claims
    : improvePacking(placement.claims, state, input.improvementLimits);
  const nodeClaims = finalizeClaims(claims, state.dims, input.maxInstanceTypeOptions);
  const existingPlacements: ExistingPlacement[] = state.targets
    .filter((t) => t.placed.length > 0)
    .map((t) => ({ node: t.name, pods: t.placed.map((p) => p.id) }));
  return { nodeClaims, existingPlacements, unschedulable: placement.unschedulable };
}

/** The planned nodeclaims of a placement's claims, named `<pool>-<n>` in order. */
export function finalizeClaims(
  claims: readonly Claim[],
  dims: Dims,
  maxInstanceTypeOptions = MAX_INSTANCE_TYPE_OPTIONS,
): PlannedNodeClaim[] {
  const counters = new Map<string, number>();
  return claims.map((claim) => {
    const n = (counters.get(claim.pool.name) ?? 0) + 1;
    counters.set(claim.pool.name, n);
    return finalizeClaim(claim, `${claim.pool.name}-${n}`, dims, maxInstanceTypeOptions);
  });
}
