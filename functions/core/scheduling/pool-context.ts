/**
 * A NodePool prepared for one scheduling run: its requirements, the instance types it may launch
 * (sorted cheapest first) with their allocatable minus daemonset overhead as vectors.
 */

import {
  INSTANCE_TYPE_LABEL_KEYS,
  LABEL_ARCH,
  LABEL_OS,
  LABEL_REGION,
} from '../catalog/well-known-labels.js';
import type { ResolvedInstanceType, ResolvedOffering } from '../model/instance-type.js';
import type { DaemonSet, Pod } from '../model/kube-objects.js';
import { nodeClassLabel } from '../model/node-pool.js';
import type { Resources } from '../model/resources.js';
import type { Taint } from '../model/taint.js';
import { type HostPort, hostPortsOf } from './host-ports.js';
import { requiredNodeAlternatives } from './node-affinity.js';
import { podRequests } from './pod-requests.js';
import { labelSatisfies, valueAllowed } from './requirement-set.js';
import { Requirements } from './requirements.js';
import type { Dims } from './resource-vector.js';
import { untoleratedTaint } from './tolerations.js';
import type { SchedulingPool } from './types.js';
import { CAPACITY_TYPE, HOSTNAME, NODEPOOL, ZONE } from './well-known.js';

/** One launchable instance type of a pool. */
export interface TypeEntry {
  readonly it: ResolvedInstanceType;
  /** Allocatable minus the daemonset overhead of this pool on this type. */
  readonly alloc: Float64Array;
  readonly overhead: Resources;
  readonly offerings: readonly ResolvedOffering[];
  /** Cheapest available offering price. */
  readonly minPrice: number;
  /** Cheapest available price per capacity type in any zone (Infinity when not offered). */
  readonly spotPrice: number;
  readonly onDemandPrice: number;
  /** Cheapest available `reserved` price (reservation-only pools; Infinity elsewhere). */
  readonly reservedPrice: number;
  /** Bit masks (bit = index in `PoolContext.allZones`) of zones with a spot / on-demand offering. */
  readonly spotZones: number;
  readonly onDemandZones: number;
  /** Zones with an available `reserved` offering (reservation-only pools; 0 elsewhere). */
  readonly reservedZones: number;
}

/** A pool ready for scheduling. */
export interface PoolContext {
  readonly sp: SchedulingPool;
  readonly name: string;
  readonly weight: number;
  readonly taints: readonly Taint[];
  /** Pool requirements, its labels as `In` requirements, `karpenter.sh/nodepool` and its NodeClass label. */
  readonly reqs: Requirements;
  readonly types: readonly TypeEntry[];
  /** Label keys any of its instance types carries. */
  readonly instanceKeys: ReadonlySet<string>;
  /** Indices of types compatible with the pool's own requirements. */
  readonly baseOptions: readonly number[];
  readonly zones: readonly string[];
  /** Every zone any offering is in (sorted); the bit positions of the zone masks. */
  readonly allZones: readonly string[];
  readonly limits: Readonly<Record<string, number>>;
  /**
   * Whether the pool allows only capacity type `reserved` (Karpenter v1.3+): its types offer only
   * the available reserved offerings of its NodeClass's capacity reservations, and it opens at most
   * `reservedInstances` claims (the instances its reservations have left).
   */
  readonly reservedOnly: boolean;
  readonly reservedInstances: number;
  /** Host ports the pool's daemonsets bind on each of its nodes. */
  readonly daemonPorts: readonly HostPort[];
  /** Resources (and `nodes`) already used by existing and in-flight nodes of the pool. */
  readonly usedBase: Record<string, number>;
  /** Why it can launch nothing. */
  readonly problem?: string;
}

function daemonPod(ds: DaemonSet): Pod {
  return {
    metadata: {
      name: ds.metadata.name,
      namespace: ds.metadata.namespace,
      labels: ds.spec.template.metadata?.labels,
    },
    spec: ds.spec.template.spec,
  };
}

/** Labels every node of a pool has (or may have) whatever the pool says: a selector on them may match. */
const WELL_KNOWN: ReadonlySet<string> = new Set([
  ...INSTANCE_TYPE_LABEL_KEYS,
  ZONE,
  CAPACITY_TYPE,
  NODEPOOL,
  HOSTNAME,
  LABEL_REGION,
  LABEL_OS,
  LABEL_ARCH,
  'topology.k8s.aws/zone-id',
]);

/**
 * Whether a daemonset's pods would run on a node of the pool with these taints and labels, as
 * Karpenter counts daemonset overhead: the taints tolerated, and one of the pod's required node
 * selections compatible with the node — a label the node has must match, a key the pool's
 * requirements constrain must share a value with them, and any other key must be a well-known
 * one or be satisfied by its absence (a custom label no node of the pool carries matches nothing).
 */
function daemonRuns(
  pod: Pod,
  taints: readonly Taint[],
  labels: Readonly<Record<string, string>>,
  poolReqs: Requirements,
): boolean {
  if (untoleratedTaint(pod.spec.tolerations, taints)) return false;
  return requiredNodeAlternatives(pod).some((alt) =>
    [...alt.sets].every(([k, set]) => {
      if (labels[k] !== undefined) return labelSatisfies(set, labels[k]);
      const allowed = poolReqs.get(k);
      if (allowed)
        return (
          Requirements.EMPTY.with(k, allowed).and(Requirements.EMPTY.with(k, set)).emptyKey() === undefined
        );
      return WELL_KNOWN.has(k) || set.allowsAbsent;
    }),
  );
}

function daemonOverhead(
  daemonSets: readonly DaemonSet[],
  taints: readonly Taint[],
  labels: Readonly<Record<string, string>>,
  poolReqs: Requirements,
): Resources {
  const total: Resources = {};
  for (const ds of daemonSets) {
    const pod = daemonPod(ds);
    if (!daemonRuns(pod, taints, labels, poolReqs)) continue;
    let req: Resources;
    try {
      req = podRequests(pod);
    } catch {
      continue;
    }
    for (const [k, v] of Object.entries(req)) total[k] = (total[k] ?? 0) + v;
  }
  return total;
}

/** Whether an instance type can satisfy requirements (zone / capacity type through its available offerings). */
export function typeCompatible(pool: PoolContext, t: TypeEntry, reqs: Requirements): boolean {
  const zone = reqs.get(ZONE);
  const ct = reqs.get(CAPACITY_TYPE);
  for (const [key, set] of reqs.sets) {
    if (key === ZONE || key === CAPACITY_TYPE || key === HOSTNAME) continue;
    const v = t.it.labels[key];
    if (v !== undefined) {
      if (!valueAllowed(set, v)) return false;
    } else if (pool.instanceKeys.has(key) && !set.allowsAbsent) return false;
  }
  if (!zone && !ct) return t.offerings.length > 0;
  for (const o of t.offerings) {
    if ((!zone || valueAllowed(zone, o.zone)) && (!ct || valueAllowed(ct, o.capacityType))) return true;
  }
  return false;
}

/** Prepares the pools of a run, heaviest first (then by name). */
export function poolContexts(
  pools: readonly SchedulingPool[],
  daemonSets: readonly DaemonSet[],
  dims: Dims,
  usedBase: (pool: string) => Record<string, number>,
): PoolContext[] {
  return [...pools]
    .sort((a, b) => b.pool.weight - a.pool.weight || a.pool.name.localeCompare(b.pool.name))
    .map((sp) => poolContext(sp, daemonSets, dims, usedBase(sp.pool.name)));
}

function poolContext(
  sp: SchedulingPool,
  daemonSets: readonly DaemonSet[],
  dims: Dims,
  usedBase: Record<string, number>,
): PoolContext {
  const p = sp.pool;
  let reqs = Requirements.EMPTY;
  let problem = sp.problem;
  try {
    reqs = Requirements.of(p.requirements).and(
      Requirements.fromLabels({ ...p.labels, [NODEPOOL]: p.name, ...nodeClassLabel(p) }),
    );
  } catch (error) {
    problem ??= (error as Error).message;
  }
  const allZones = [...new Set(sp.instanceTypes.flatMap((it) => it.offerings.map((o) => o.zone)))]
    .sort()
    .slice(0, 31);
  const bit = (zone: string) => {
    const i = allZones.indexOf(zone);
    return i < 0 ? 0 : 1 << i;
  };
  const ct = reqs.get(CAPACITY_TYPE);
  const reservedOnly =
    ct !== undefined &&
    valueAllowed(ct, 'reserved') &&
    !valueAllowed(ct, 'spot') &&
    !valueAllowed(ct, 'on-demand');
  const offered = (o: ResolvedOffering) =>
    o.available &&
    (reservedOnly
      ? o.capacityType === 'reserved' && o.reservationId !== undefined
      : o.capacityType === 'spot' || o.capacityType === 'on-demand');
  const reservations = new Map<string, number>();
  const types: TypeEntry[] = [];
  for (const it of sp.instanceTypes) {
    const offerings = it.offerings.filter(offered);
    if (offerings.length === 0) continue;
    for (const o of offerings)
      if (o.reservationId !== undefined)
        reservations.set(o.reservationId, o.reservationInstances ?? Number.POSITIVE_INFINITY);
    const overhead = daemonOverhead(daemonSets, p.taints, { ...it.labels, ...p.labels }, reqs);
    const alloc = dims.vector(it.allocatable);
    const over = dims.vector(overhead);
    for (let i = 0; i < alloc.length; i++) alloc[i] -= over[i];
    let spotZones = 0;
    let onDemandZones = 0;
    let reservedZones = 0;
    for (const o of offerings) {
      if (o.capacityType === 'spot') spotZones |= bit(o.zone);
      else if (o.capacityType === 'reserved') reservedZones |= bit(o.zone);
      else onDemandZones |= bit(o.zone);
    }
    const cheapest = (ct: string) =>
      Math.min(...offerings.filter((o) => o.capacityType === ct).map((o) => o.price));
    const spotPrice = cheapest('spot');
    const onDemandPrice = cheapest('on-demand');
    const reservedPrice = cheapest('reserved');
    const minPrice = Math.min(spotPrice, onDemandPrice, reservedPrice);
    types.push({
      it,
      alloc,
      overhead,
      offerings,
      minPrice,
      spotPrice,
      onDemandPrice,
      reservedPrice,
      spotZones,
      onDemandZones,
      reservedZones,
    });
  }
  types.sort((a, b) => a.minPrice - b.minPrice || a.it.name.localeCompare(b.it.name));
  const instanceKeys = new Set([
    ...INSTANCE_TYPE_LABEL_KEYS,
    ...types.flatMap((t) => Object.keys(t.it.labels)),
  ]);
  const ctx: PoolContext = {
    sp,
    name: p.name,
    weight: p.weight,
    taints: p.taints,
    reqs,
    types,
    instanceKeys,
    baseOptions: [],
    zones: [],
    allZones,
    limits: p.limits as Record<string, number>,
    reservedOnly,
    reservedInstances: [...reservations.values()].reduce((n, v) => n + v, 0),
    daemonPorts: daemonSets.flatMap((ds) => {
      const pod = daemonPod(ds);
      return daemonRuns(pod, p.taints, p.labels, reqs) ? hostPortsOf(pod) : [];
    }),
    usedBase,
    problem,
  };
  const baseOptions = types.map((_, i) => i).filter((i) => typeCompatible(ctx, types[i], reqs));
  const zoneSet = reqs.get(ZONE);
  const zones = new Set<string>();
  for (const i of baseOptions)
    for (const o of types[i].offerings) if (!zoneSet || valueAllowed(zoneSet, o.zone)) zones.add(o.zone);
  return { ...ctx, baseOptions, zones: [...zones].sort() };
}
