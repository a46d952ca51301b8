/**
 * joiner's scheduler: plans where pending pods go (existing nodes, in-flight claims, new claims)
 * and which instance types new claims may use. Pure and deterministic.
 */
import type { Pod } from '../model/kube-objects.js';
import type { Claim } from './claim.js';
import { finalizeClaim } from './finalize.js';
import { improvePacking } from './improve.js';
import { placeAll } from './placement.js';
import { reservationsFullReason, takeReservation } from './reserved-options.js';
import type { Dims } from './resource-vector.js';
import { setupRun } from './setup.js';
import type {
  ExistingPlacement,
  PlannedNodeClaim,
  ScheduleInput,
  SchedulePlan,
  UnschedulablePod,
} from './types.js';
import { podOnZones, poolOnZones, zoneIdMap } from './zone-ids.js';

/** Default cap on the instance-type options of a nodeclaim (CreateFleet overrides). */
export const MAX_INSTANCE_TYPE_OPTIONS = 60;

/**
 * Computes the plan for the pending pods of `input`. Never throws on bad pods or pools: they show
 * up in `unschedulable` with a reason.
 */
export function schedule(input: ScheduleInput): SchedulePlan {
  const state = setupRun(withZoneIdsAsZones(input));
  const placement = placeAll(state);
  const claims = input.skipImprovement
    ? placement.claims
    : improvePacking(placement.claims, state, input.improvementLimits);
  const { nodeClaims, unschedulable } = finalizeClaims(claims, state.dims, input.maxInstanceTypeOptions);
  const existingPlacements: ExistingPlacement[] = state.targets
    .filter((t) => t.placed.length > 0)
    .map((t) => ({ node: t.name, pods: t.placed.map((p) => p.id) }));
  return { nodeClaims, existingPlacements, unschedulable: [...placement.unschedulable, ...unschedulable] };
}

/**
 * The input with every term on `topology.k8s.aws/zone-id` read on the zone name (see
 * zone-ids.ts). Without zone IDs in the offerings, pods keep their terms: existing nodes carry the
 * label, and a new claim cannot (its reason says the pool does not set it).
 */
function withZoneIdsAsZones(input: ScheduleInput): ScheduleInput {
  const pools = input.pools.map(poolOnZones);
  const map = zoneIdMap(input.pools);
  if (map.byId.size === 0) return { ...input, pools };
  const onZones = <T extends { readonly pods: readonly Pod[] }>(holder: T): T => {
    const pods = holder.pods.map((p) => podOnZones(p, map));
    return pods.some((p, i) => p !== holder.pods[i]) ? { ...holder, pods } : holder;
  };
  return {
    ...input,
    pools,
    pods: input.pods.map((p) => podOnZones(p, map)),
    nodes: input.nodes.map(onZones),
    inFlight: input.inFlight.map(onZones),
  };
}

/**
 * The planned nodeclaims of a placement's claims, named `<pool>-<n>` in order. The pods of a claim
 * whose options, cut to `maxInstanceTypeOptions`, miss a `minValues` requirement are unschedulable.
 * Capacity reservations are counted across the claims (see {@link takeReservation}): the pods of a
 * reservation-only claim that finds its reservations used up are unschedulable, with the reason.
 */
export function finalizeClaims(
  claims: readonly Claim[],
  dims: Dims,
  maxInstanceTypeOptions = MAX_INSTANCE_TYPE_OPTIONS,
): { nodeClaims: PlannedNodeClaim[]; unschedulable: UnschedulablePod[] } {
  const counters = new Map<string, number>();
  const nodeClaims: PlannedNodeClaim[] = [];
  const unschedulable: UnschedulablePod[] = [];
  const reservationsLeft = new Map<string, number>();
  for (const claim of claims) {
    const n = (counters.get(claim.pool.name) ?? 0) + 1;
    let planned = finalizeClaim(claim, `${claim.pool.name}-${n}`, dims, maxInstanceTypeOptions);
    if (typeof planned === 'string') {
      for (const p of claim.pods)
        unschedulable.push({ pod: p.id, reason: `nodepool ${claim.pool.name}: ${planned}` });
      continue;
    }
    const taken = takeReservation(planned, claim.pool, reservationsLeft);
    if (!taken) {
      const reason = reservationsFullReason(claim.pool);
      for (const p of claim.pods) unschedulable.push({ pod: p.id, reason });
      continue;
    }
    planned = taken;
    counters.set(claim.pool.name, n);
    nodeClaims.push(planned);
  }
  return { nodeClaims, unschedulable };
}
