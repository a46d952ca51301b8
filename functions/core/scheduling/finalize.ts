/** Turns packed claims into planned nodeclaims: ranked instance-type options, labels, requests. */

import type { ResolvedOffering } from '../model/instance-type.js';
import type { Resources } from '../model/resources.js';
import type { Claim } from './claim.js';
import type { TypeEntry } from './pool-context.js';
import { valueAllowed } from './requirement-set.js';
import type { Dims } from './resource-vector.js';
import type { InstanceTypeOption, PlannedNodeClaim } from './types.js';
import { CAPACITY_TYPE, HOSTNAME, INSTANCE_TYPE, ZONE } from './well-known.js';

/** The capacity type a claim launches with: spot when allowed and offered, else on-demand. */
function capacityTypeOf(claim: Claim): 'spot' | 'on-demand' {
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

/** The claim's options, cheapest first (ties by name), with the offering each would use. */
export function rankedOptions(claim: Claim): { option: InstanceTypeOption; type: TypeEntry }[] {
  const ct = capacityTypeOf(claim);
  const out: { option: InstanceTypeOption; type: TypeEntry }[] = [];
  for (const i of claim.options) {
    const t = claim.pool.types[i];
    const o = bestOffering(t, claim, ct);
    if (!o) continue;
    out.push({
      type: t,
      option: { instanceType: t.it.name, zone: o.zone, capacityType: ct, price: o.price },
    });
  }
  out.sort(
    (a, b) => a.option.price - b.option.price || a.option.instanceType.localeCompare(b.option.instanceType),
  );
  return out;
}

/** Hourly price of the claim's cheapest option (Infinity when it has none). */
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

/** The planned nodeclaim for a packed claim. */
export function finalizeClaim(claim: Claim, name: string, dims: Dims, maxOptions: number): PlannedNodeClaim {
  const ranked = rankedOptions(claim).slice(0, maxOptions);
  const requests: Resources = dims.resources(claim.used);
  const overhead = ranked[0]?.type.overhead ?? {};
  for (const [k, v] of Object.entries(overhead)) requests[k] = (requests[k] ?? 0) + v;
  const typeNames = ranked.map((r) => r.option.instanceType);
  const requirements = claim.reqs.toList().filter((r) => r.key !== INSTANCE_TYPE && r.key !== HOSTNAME);
  requirements.push({ key: INSTANCE_TYPE, operator: 'In', values: typeNames });
  return {
    name,
    nodePool: claim.pool.name,
    pods: claim.pods.map((p) => p.id),
    requirements,
    labels: claimLabels(claim),
    taints: [...claim.pool.taints],
    startupTaints: [...claim.pool.sp.pool.startupTaints],
    instanceTypeOptions: ranked.map((r) => r.option),
    requests,
  };
}
