/**
 * joiner's scheduler: plans where pending pods go (existing nodes, in-flight claims, new claims)
 * and which instance types new claims may use. Pure and deterministic.
 */
import { finalizeClaim } from './finalize.js';
import { improvePacking } from './improve.js';
import { placeAll } from './placement.js';
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
  const counters = new Map<string, number>();
  const nodeClaims: PlannedNodeClaim[] = claims.map((claim) => {
    const n = (counters.get(claim.pool.name) ?? 0) + 1;
    counters.set(claim.pool.name, n);
    return finalizeClaim(
      claim,
      `${claim.pool.name}-${n}`,
      state.dims,
      input.maxInstanceTypeOptions ?? MAX_INSTANCE_TYPE_OPTIONS,
    );
  });
  const existingPlacements: ExistingPlacement[] = state.targets
    .filter((t) => t.placed.length > 0)
    .map((t) => ({ node: t.name, pods: t.placed.map((p) => p.id) }));
  return { nodeClaims, existingPlacements, unschedulable: placement.unschedulable };
}
