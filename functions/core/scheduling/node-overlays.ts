/**
 * NodeOverlays (Karpenter v1.7, `karpenter.sh/v1alpha1`) applied to the instance types the
 * scheduler and consolidation see. As Karpenter's nodeoverlay controller does: overlays are taken
 * heaviest first (equal weights in reverse alphabetical order); an overlay selects, per NodePool,
 * the instance types whose labels (with the pool's name and template labels) its requirements
 * allow, and of those the offerings whose zone and capacity type they allow. The first overlay to
 * price an offering sets its price; the first to set an extended resource on an instance type
 * sets it. An overlay that would price an offering, or set a resource, that an overlay of the same
 * weight already did conflicts: it is applied nowhere and reported (condition
 * `ValidationSucceeded` False, reason `Conflict`).
 */

import type { ResolvedInstanceType, ResolvedOffering } from '../model/instance-type.js';
import {
  adjustedPrice,
  byOverlayPrecedence,
  type NodeOverlay,
  type PriceChange,
} from '../model/node-overlay.js';
import { Requirements } from './requirements.js';
import type { SchedulingPool } from './types.js';
import { CAPACITY_TYPE, NODEPOOL, ZONE } from './well-known.js';
import { ZONE_ID } from './zone-ids.js';

/** What became of one overlay. */
export interface OverlayOutcome {
  readonly overlay: NodeOverlay;
  /** Why it was not applied (a conflict with an overlay of the same weight); undefined when applied. */
  readonly conflict?: string;
  /** Instance types (`pool/type`) it changed. */
  readonly applied: number;
}

/** The pools with overlays applied, and what became of each overlay. */
export interface OverlaidPools {
  readonly pools: SchedulingPool[];
  readonly outcomes: OverlayOutcome[];
}

interface Claim {
  readonly overlay: string;
  readonly weight: number;
}

interface TypeUpdate {
  /** Price change per offering key (zone|capacity type), with the overlays that touched it. */
  readonly prices: Map<string, { change: PriceChange; weights: Set<number>; by: string }>;
  /** Extended resource values, with the overlays that touched each. */
  readonly capacity: Map<string, { value: number; weights: Set<number>; by: string }>;
}

const offeringKey = (o: ResolvedOffering): string => `${o.zone}|${o.capacityType}`;

/** The offerings of `type` in `pool` that `requirements` select (none when the type is not selected). */
function selectedOfferings(
  requirements: Requirements,
  pool: SchedulingPool,
  type: ResolvedInstanceType,
): ResolvedOffering[] {
  const base = { [NODEPOOL]: pool.pool.name, ...pool.pool.labels, ...type.labels };
  return type.offerings.filter((o) =>
    requirements.matchesLabels({
      ...base,
      [ZONE]: o.zone,
      ...(o.zoneId === undefined ? {} : { [ZONE_ID]: o.zoneId }),
      [CAPACITY_TYPE]: o.capacityType,
    }),
  );
}

/** The first overlay of the same weight that already touched what `overlay` would change. */
function conflictOf(
  overlay: NodeOverlay,
  update: TypeUpdate | undefined,
  offerings: readonly ResolvedOffering[],
): Claim | undefined {
  if (update === undefined) return undefined;
  if (overlay.price) {
    for (const o of offerings) {
      const p = update.prices.get(offeringKey(o));
      if (p?.weights.has(overlay.weight)) return { overlay: p.by, weight: overlay.weight };
    }
  }
  for (const resource of Object.keys(overlay.capacity)) {
    const c = update.capacity.get(resource);
    if (c?.weights.has(overlay.weight)) return { overlay: c.by, weight: overlay.weight };
  }
  return undefined;
}

function record(overlay: NodeOverlay, update: TypeUpdate, offerings: readonly ResolvedOffering[]): void {
  if (overlay.price) {
    for (const o of offerings) {
      const key = offeringKey(o);
      const p = update.prices.get(key);
      if (p) p.weights.add(overlay.weight);
      else
        update.prices.set(key, {
          change: overlay.price,
          weights: new Set([overlay.weight]),
          by: overlay.name,
        });
    }
  }
  for (const [resource, value] of Object.entries(overlay.capacity)) {
    const c = update.capacity.get(resource);
    if (c) c.weights.add(overlay.weight);
    else update.capacity.set(resource, { value, weights: new Set([overlay.weight]), by: overlay.name });
  }
}

function overlaid(type: ResolvedInstanceType, update: TypeUpdate): ResolvedInstanceType {
  const offerings = type.offerings.map((o) => {
    const p = update.prices.get(offeringKey(o));
    return p ? { ...o, price: adjustedPrice(o.price, p.change), priceOverlaid: true } : o;
  });
  if (update.capacity.size === 0) return { ...type, offerings };
  const capacity = { ...type.capacity };
  const allocatable = { ...type.allocatable };
  for (const [resource, { value }] of update.capacity) {
    capacity[resource] = value;
    allocatable[resource] = value;
  }
  return { ...type, capacity, allocatable, offerings };
}

/**
 * Applies `overlays` to the instance types of `pools` (see the file comment). Pools and types no
 * overlay selects are returned as they are.
 */
export function applyNodeOverlays(
  pools: readonly SchedulingPool[],
  overlays: readonly NodeOverlay[],
): OverlaidPools {
  const updates = new Map<string, TypeUpdate>();
  const outcomes: OverlayOutcome[] = [];
  for (const overlay of [...overlays].sort(byOverlayPrecedence)) {
    const requirements = Requirements.of(overlay.requirements);
    const selected: { key: string; offerings: ResolvedOffering[] }[] = [];
    let conflict: Claim | undefined;
    for (const pool of pools) {
      for (const type of pool.instanceTypes) {
        const offerings = selectedOfferings(requirements, pool, type);
        if (offerings.length === 0) continue;
        const key = `${pool.pool.name}/${type.name}`;
        conflict ??= conflictOf(overlay, updates.get(key), offerings);
        selected.push({ key, offerings });
      }
    }
    if (conflict) {
      outcomes.push({
        overlay,
        applied: 0,
        conflict: `conflicts with NodeOverlay ${conflict.overlay} of the same weight (${conflict.weight})`,
      });
      continue;
    }
    for (const { key, offerings } of selected) {
      const update = updates.get(key) ?? { prices: new Map(), capacity: new Map() };
      updates.set(key, update);
      record(overlay, update, offerings);
    }
    outcomes.push({ overlay, applied: selected.length });
  }
  const result = pools.map((pool) => {
    if (![...updates.keys()].some((k) => k.startsWith(`${pool.pool.name}/`))) return pool;
    return {
      ...pool,
      instanceTypes: pool.instanceTypes.map((t) => {
        const update = updates.get(`${pool.pool.name}/${t.name}`);
        return update ? overlaid(t, update) : t;
      }),
    };
  });
  return { pools: result, outcomes };
}
