/** Turns packed claims into planned nodeclaims: ranked instance-type options, labels, requests. */

import type { ResolvedOffering } from '../model/instance-type.js';
import type { Resources } from '../model/resources.js';
import type { Claim } from './claim.js';
import type { TypeEntry } from './pool-context.js';
import { type ValueSet, valueAllowed } from './requirement-set.js';
import { reservedOptions } from './reserved-options.js';
import type { Dims } from './resource-vector.js';
import type { InstanceTypeOption, PlannedNodeClaim } from './types.js';
import { CAPACITY_TYPE, HOSTNAME, INSTANCE_TYPE, ZONE } from './well-known.js';

type CapacityType = InstanceTypeOption['capacityType'];

/**
 * The capacity type a claim launches with: `reserved` in a reservation-only pool, else spot when
 * allowed and offered, else on-demand.
 */
function capacityTypeOf(claim: Claim): CapacityType {
  if (claim.pool.reservedOnly) return 'reserved';
  const ct = claim.reqs.get(CAPACITY_TYPE);
  if (ct && !valueAllowed(ct, 'spot')) return 'on-demand';
  const zone = claim.reqs.get(ZONE);
  for (const i of claim.options) {
    for (const o of claim.pool.types[i].offerings) {
      if (o.capacityType === 'spot' && (!zone || valueAllowed(zone, o.zone))) return 'spot';
    }
  }
  return 'on-demand';
}

function bestOffering(t: TypeEntry, claim: Claim, ct: string): ResolvedOffering | undefined {
  const zone = claim.reqs.get(ZONE);
  let best: ResolvedOffering | undefined;
  for (const o of t.offerings) {
    if (o.capacityType !== ct || (zone && !valueAllowed(zone, o.zone))) continue;
    if (!best || o.price < best.price || (o.price === best.price && o.zone < best.zone)) best = o;
  }
  return best;
}

/** A ranked option with the instance type it launches. */
export interface RankedOption {
  readonly option: InstanceTypeOption;
  readonly type: TypeEntry;
}

/** Share of the option cap the preferred capacity type keeps when the other one has options too. */
const PREFERRED_SHARE = 2 / 3;

/** Orders names by code unit (fast, deterministic: ties are frequent, as zones share prices). */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byPrice(a: RankedOption, b: RankedOption): number {
  return (
    a.option.price - b.option.price ||
    compareNames(a.option.instanceType, b.option.instanceType) ||
    compareNames(a.option.zone, b.option.zone)
  );
}

/** The capacity types of an offering relative to the claim's preferred one. */
type Side = 'preferred' | 'other';

/**
 * The claim's allowed offerings of type `t` (zones and capacity types its requirements allow) on
 * one side (the preferred capacity type, or the other), cheapest first.
 */
function sideOffers(claim: Claim, t: TypeEntry, preferred: CapacityType, side: Side): RankedOption[] {
  const zone = claim.reqs.get(ZONE);
  const ct = claim.reqs.get(CAPACITY_TYPE);
  const out: RankedOption[] = [];
  for (const o of t.offerings) {
    if ((o.capacityType === preferred) !== (side === 'preferred')) continue;
    if (zone && !valueAllowed(zone, o.zone)) continue;
    if (ct && !valueAllowed(ct, o.capacityType)) continue;
    const option: InstanceTypeOption = {
      instanceType: t.it.name,
      zone: o.zone,
      ...(o.zoneId === undefined ? {} : { zoneId: o.zoneId }),
      capacityType: o.capacityType as CapacityType,
      price: o.price,
      ...((o as { priceOverlaid?: boolean }).priceOverlaid ? { priceOverlaid: true } : {}),
    };
    out.push({ option, type: t });
  }
  return out.sort(byPrice);
}

/** A type's cheapest allowed price and its number of allowed offerings, per side. */
interface TypeKey {
  readonly type: TypeEntry;
  readonly preferred: number;
  readonly other: number;
  readonly preferredCount: number;
  readonly otherCount: number;
}

function typeKey(claim: Claim, t: TypeEntry, preferred: CapacityType): TypeKey {
  const zone = claim.reqs.get(ZONE);
  const ct = claim.reqs.get(CAPACITY_TYPE);
  let pref = Number.POSITIVE_INFINITY;
  let other = Number.POSITIVE_INFINITY;
  let preferredCount = 0;
  let otherCount = 0;
  for (const o of t.offerings) {
    if ((zone && !valueAllowed(zone, o.zone)) || (ct && !valueAllowed(ct, o.capacityType))) continue;
    if (o.capacityType === preferred) {
      pref = Math.min(pref, o.price);
      preferredCount++;
    } else {
      other = Math.min(other, o.price);
      otherCount++;
    }
  }
  return { type: t, preferred: pref, other, preferredCount, otherCount };
}

/**
 * The claim's instance types, at most `maxTypes`: those offered with the preferred capacity type
 * first, by their cheapest such offering, then those only the other capacity type offers (the
 * fallback), by price; ties by name. The claim's options come cheapest first (by any offering), so
 * the scan stops once `maxTypes` types are found and the next type costs more than all of them.
 */
function compareKeys(a: TypeKey, b: TypeKey): number {
  return a.preferred - b.preferred || a.other - b.other || compareNames(a.type.it.name, b.type.it.name);
}

/** The claim's requirements that carry `minValues`, by key. */
function minValuesSets(claim: Claim): [string, ValueSet & { minValues: number }][] {
  const out: [string, ValueSet & { minValues: number }][] = [];
  for (const [key, set] of claim.reqs.sets)
    if (set.minValues !== undefined) out.push([key, set as ValueSet & { minValues: number }]);
  return out;
}

/**
 * The types `minValues` needs, cheapest first: for each requirement with `minValues`, the cheapest
 * type of each value not yet covered, until enough values are. They go first, so the cut to
 * `maxOptions` keeps them (each attempt tries one capacity type, so types the preferred capacity
 * type offers come first).
 */
function diverseTypes(claim: Claim, preferred: CapacityType): TypeKey[] {
  const mins = minValuesSets(claim);
  if (mins.length === 0) return [];
  const all = claim.options
    .map((i) => typeKey(claim, claim.pool.types[i], preferred))
    .filter((k) => k.preferredCount + k.otherCount > 0)
    .sort(compareKeys);
  const picked = new Set<TypeKey>();
  for (const [label, set] of mins) {
    const seen = new Set<string>();
    for (const k of picked) {
      const v = k.type.it.labels[label];
      if (v !== undefined && valueAllowed(set, v)) seen.add(v);
    }
    for (const k of all) {
      if (seen.size >= set.minValues) break;
      const v = k.type.it.labels[label];
      if (v === undefined || !valueAllowed(set, v) || seen.has(v)) continue;
      seen.add(v);
      picked.add(k);
    }
  }
  return [...picked].sort(compareKeys);
}

function chooseTypes(claim: Claim, preferred: CapacityType, maxTypes: number): TypeKey[] {
  const keys: TypeKey[] = [];
  let found = 0;
  let highest = Number.NEGATIVE_INFINITY;
  let previous = Number.NEGATIVE_INFINITY;
  let sorted = true;
  for (const i of claim.options) {
    const t = claim.pool.types[i];
    sorted &&= t.minPrice >= previous;
    previous = t.minPrice;
    if (sorted && found >= maxTypes && t.minPrice > highest) break;
    const key = typeKey(claim, t, preferred);
    if (key.preferred < Number.POSITIVE_INFINITY) {
      found++;
      highest = Math.max(highest, key.preferred);
      keys.push(key);
    } else if (key.other < Number.POSITIVE_INFINITY) keys.push(key);
  }
  keys.sort(compareKeys);
  const diverse = diverseTypes(claim, preferred);
  if (diverse.length === 0) return keys.slice(0, maxTypes);
  const first = new Set(diverse.map((k) => k.type));
  return [...diverse, ...keys.filter((k) => !first.has(k.type))].slice(0, Math.max(maxTypes, diverse.length));
}

/**
 * Why the ranked options miss a `minValues` requirement of the claim, or undefined when they meet
 * all: each capacity type's part is one CreateFleet attempt, so the first attempt's options (the
 * preferred capacity type) must cover the values on their own.
 */
export function minValuesShortfall(claim: Claim, ranked: readonly RankedOption[]): string | undefined {
  const mins = minValuesSets(claim);
  if (mins.length === 0 || ranked.length === 0) return undefined;
  const first = ranked[0].option.capacityType;
  const attempt = ranked.filter((r) => r.option.capacityType === first);
  for (const [label, set] of mins) {
    const seen = new Set<string>();
    for (const r of attempt) {
      const v = r.type.it.labels[label];
      if (v !== undefined && valueAllowed(set, v)) seen.add(v);
    }
    if (seen.size < set.minValues)
      return `minValues ${set.minValues} of ${label}: only ${seen.size} value(s) among the ${attempt.length} ${first} option(s) kept for CreateFleet`;
  }
  return undefined;
}

/**
 * The `budget` options of one side that keep its cheapest instance types whole: the types'
 * offerings in type order (each type's zones cheapest first), cut at the budget, then ranked
 * cheapest first. A type's offerings are built only when the budget reaches it.
 */
function capPart(
  claim: Claim,
  keys: readonly TypeKey[],
  preferred: CapacityType,
  side: Side,
  budget: number,
): RankedOption[] {
  const kept: RankedOption[] = [];
  for (const key of keys) {
    if ((side === 'preferred' ? key.preferredCount : key.otherCount) === 0) continue;
    if (kept.length >= budget) break;
    for (const option of sideOffers(claim, key.type, preferred, side)) {
      if (kept.length >= budget) return kept.sort(byPrice);
      kept.push(option);
    }
  }
  return kept.sort(byPrice);
}

/**
 * The claim's options: every offering of its instance types in the zones and capacity types its
 * requirements allow, the preferred capacity type (spot when allowed and offered) first, each part
 * cheapest first (ties by type, then zone), at most `maxOptions` in all.
 *
 * The cap keeps both what CreateFleet needs and instance-type diversity: the instance types are
 * chosen first (the `maxOptions` cheapest, as Karpenter truncates its instance types), then
 * expanded to their offerings. Each capacity-type part is cut by whole instance types, cheapest
 * type first, so a type that is kept is kept in every allowed zone and an InsufficientInstanceCapacity
 * in one zone leaves the same type in the others. When both parts have options, the preferred part
 * keeps at least two thirds of the cap — its allocation strategy (price-capacity-optimized for
 * spot) gains from more pools, while the on-demand fallback (lowest-price) only needs its cheapest
 * types — and each part gets what the other leaves unused. Either part alone therefore fits one
 * CreateFleet request (at most 60 overrides by default).
 */
export function rankedOptions(claim: Claim, maxOptions = Number.POSITIVE_INFINITY): RankedOption[] {
  const preferred = capacityTypeOf(claim);
  const keys = chooseTypes(claim, preferred, maxOptions);
  const otherCount = keys.reduce((n, k) => n + k.otherCount, 0);
  const preferredBudget = Math.max(maxOptions - otherCount, Math.ceil(maxOptions * PREFERRED_SHARE));
  const kept = capPart(claim, keys, preferred, 'preferred', preferredBudget);
  return [...kept, ...capPart(claim, keys, preferred, 'other', maxOptions - kept.length)];
}

/**
 * Hourly price of the claim's cheapest option of its preferred capacity type — the first of
 * `rankedOptions` (Infinity when it has none).
 */
export function claimPrice(claim: Claim): number {
  const ct = capacityTypeOf(claim);
  const anyZone = claim.reqs.get(ZONE) === undefined;
  let best = Number.POSITIVE_INFINITY;
  for (const i of claim.options) {
    const t = claim.pool.types[i];
    if (t.minPrice >= best) break;
    const price = anyZone
      ? ct === 'spot'
        ? t.spotPrice
        : ct === 'reserved'
          ? t.reservedPrice
          : t.onDemandPrice
      : (bestOffering(t, claim, ct)?.price ?? Number.POSITIVE_INFINITY);
    if (price < best) best = price;
  }
  return best;
}

function claimLabels(claim: Claim): Record<string, string> {
  const labels: Record<string, string> = { ...claim.pool.sp.pool.labels };
  for (const key of [...claim.reqs.sets.keys()].sort()) {
    const v = claim.reqs.single(key);
    if (v !== undefined && key !== HOSTNAME) labels[key] = v;
  }
  return labels;
}

/** The values of the labels a claim's `minValues` requirements count, for one option's type. */
function minValuesLabels(claim: Claim, t: TypeEntry): Record<string, string> | undefined {
  const mins = minValuesSets(claim);
  if (mins.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const [label] of mins) if (t.it.labels[label] !== undefined) out[label] = t.it.labels[label];
  return out;
}

/**
 * The planned nodeclaim for a packed claim, with at most `maxOptions` ranked options; a string
 * (why) when the options kept miss a `minValues` requirement.
 */
export function finalizeClaim(
  claim: Claim,
  name: string,
  dims: Dims,
  maxOptions: number,
): PlannedNodeClaim | string {
  const ranked = rankedOptions(claim, maxOptions);
  const short = minValuesShortfall(claim, ranked);
  if (short) return short;
  const requests: Resources = dims.resources(claim.used);
  const overhead = ranked[0]?.type.overhead ?? {};
  for (const [k, v] of Object.entries(overhead)) requests[k] = (requests[k] ?? 0) + v;
  const reserved = reservedOptions(claim);
  // A reservation-only claim launches into its reservations and nowhere else.
  const others = claim.pool.reservedOnly ? [] : ranked;
  const typeNames = [
    ...new Set([...reserved.map((o) => o.instanceType), ...others.map((r) => r.option.instanceType)]),
  ];
  const requirements = claim.reqs.toList().filter((r) => r.key !== INSTANCE_TYPE && r.key !== HOSTNAME);
  const typeMin = claim.reqs.get(INSTANCE_TYPE)?.minValues;
  requirements.push({
    key: INSTANCE_TYPE,
    operator: 'In',
    values: typeNames,
    ...(typeMin === undefined ? {} : { minValues: typeMin }),
  });
  return {
    name,
    nodePool: claim.pool.name,
    pods: claim.pods.map((p) => p.id),
    requirements,
    labels: claimLabels(claim),
    taints: [...claim.pool.taints],
    startupTaints: [...claim.pool.sp.pool.startupTaints],
    instanceTypeOptions: [
      ...reserved,
      ...others.map((r) => {
        const labels = minValuesLabels(claim, r.type);
        return labels ? { ...r.option, labels } : r.option;
      }),
    ],
    requests,
  };
}
