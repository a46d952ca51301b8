/** Builds the scheduler's input from a cluster snapshot and the state store, and runs the scheduler. */

import type { CapacityReservation } from '../model/capacity-reservation.js';
import { unmanagedPoolsSentence } from '../model/config/karpenter-kinds.js';
import type { Catalog } from '../model/instance-type.js';
import type { Pod } from '../model/kube-objects.js';
import { isStatic, type NodePool } from '../model/node-pool.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { LaunchZone } from '../ports/cloud-provider.js';
import type { UnavailableOffering } from '../ports/state-store.js';
import { existingNodes, pendingPods } from '../scheduling/cluster-view.js';
import { podId } from '../scheduling/pod-class.js';
import { schedulingPools } from '../scheduling/prepare.js';
import { schedule } from '../scheduling/schedule.js';
import type { SchedulePlan, SchedulingPool } from '../scheduling/types.js';
import type { ClusterSnapshot } from './cluster-snapshot.js';
import { displacedPods, leavingNodes } from './displaced-pods.js';
import { IN_FLIGHT_STATES, inFlightClaims, inFlightView, withoutStartupTaints } from './in-flight.js';
import { nodeUsage } from './launch-limits.js';
import { nominatingClaims, reserveOnNodes, stillNominated, withoutBound } from './nominated-claims.js';
import type { LaunchZones } from './prepare-launches.js';
import { withReservationOnlyPools } from './reservation-only.js';
import { limitReservedOptions } from './reserved-capacity.js';

/** What planning a run gave. */
export interface RunPlan {
  readonly pools: SchedulingPool[];
  /** Pending pods (bound, terminal and deleting pods left out), and the pods of draining nodes. */
  readonly pending: Pod[];
  /** Pending pods by `namespace/name`. */
  readonly podsById: Map<string, Pod>;
  /** Live claims whose node is not there yet. */
  readonly inFlight: NodeClaim[];
  /** Pending pods already waiting for an in-flight claim or the starting node of their claim. */
  readonly waiting: ReadonlySet<string>;
  /** The pods planned in this run. */
  readonly planned: Pod[];
  readonly plan: SchedulePlan;
  /** Real milliseconds the scheduler took. */
  readonly schedulingMs: number;
  /**
   * Per pool, what its nodes count toward its limits (see {@link nodeUsage}); the nodes of draining
   * claims are left out, as the plan leaves them out (their replacement takes their share).
   */
  readonly nodeUsage: ReadonlyMap<string, Readonly<Record<string, number>>>;
}

/** How a run's pools are resolved. */
export interface RunPoolOptions {
  readonly allowedNodeRoles?: readonly string[];
  readonly zones?: LaunchZones;
  /** Epoch ms of the run (how recently a claim initialized); default: the current time. */
  readonly now?: number;
  /** The capacity reservations each NodeClass (by name) selects: `reserved` offerings. */
  readonly reservations?: ReadonlyMap<string, readonly CapacityReservation[]>;
  /**
   * NodeClasses (by name) in their launch backoff, with the problem their pools' pods are told
   * (nodeclass-launch-backoff.ts): such pools place no pod.
   */
  readonly launchBlocks?: ReadonlyMap<string, string>;
}

/**
 * The scheduling pools of `nodePools` for a run: offerings marked unavailable left out, launch
 * zones, NodeOverlays and capacity reservations applied; pools whose NodeClass is in its launch
 * backoff place no pod (their problem says why).
 */
export function runPools(
  nodePools: readonly NodePool[],
  snapshot: Pick<ClusterSnapshot, 'nodeClasses' | 'nodeOverlays'>,
  unavailable: readonly UnavailableOffering[],
  catalog: Catalog,
  options: RunPoolOptions,
): SchedulingPool[] {
  const marks = new Set(unavailable.map((u) => `${u.instanceType}|${u.zone}|${u.capacityType}`));
  const pools = schedulingPools(nodePools, snapshot.nodeClasses, catalog, {
    isUnavailable: (type, zone, capacityType) => marks.has(`${type}|${zone}|${capacityType}`),
    allowedNodeRoles: options.allowedNodeRoles,
    launchZones: (nodeClass) => options.zones?.get(nodeClass)?.map((z) => z.name),
    zoneIds: (nodeClass) => zoneIdsOf(options.zones?.get(nodeClass)),
    overlays: snapshot.nodeOverlays,
    reservations: (nodeClass) => options.reservations?.get(nodeClass),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const blocks = options.launchBlocks;
  if (!blocks || blocks.size === 0) return pools;
  return pools.map((p) => {
    const blocked = p.nodeClass && !p.problem ? blocks.get(p.nodeClass.name) : undefined;
    return blocked ? { ...p, problem: `${nodeClassKind(p)} ${p.nodeClass?.name}: ${blocked}` } : p;
  });
}

function nodeClassKind(p: SchedulingPool): string {
  return p.pool.nodeClassRef.kind || 'NodeClass';
}

/** The zone IDs among a NodeClass's launch zones, by zone name (undefined when none is known). */
function zoneIdsOf(zones: readonly LaunchZone[] | undefined): ReadonlyMap<string, string> | undefined {
  const ids = new Map<string, string>();
  for (const z of zones ?? []) if (z.id !== undefined) ids.set(z.name, z.id);
  return ids.size === 0 ? undefined : ids;
}

const EMPTY_PLAN: SchedulePlan = { nodeClaims: [], existingPlacements: [], unschedulable: [] };

/**
 * Plans the pending pods that no in-flight claim waits for, onto existing nodes, in-flight claims
 * and new claims. Offerings marked unavailable are not offered to new claims. The pods that must
 * leave the nodes of Draining claims are planned as if pending, and those nodes are no capacity:
 * that is how a drain gets its replacement capacity before it evicts. A NodeClass whose role is
 * not in `allowedNodeRoles` (when given) launches nothing; its pods are unschedulable, saying why.
 * NodePools joiner leaves to another autoscaler are named in the reason of every unschedulable pod.
 * A NodeClass with known launch `zones` is offered in those zones only. Static pools make no new
 * claim for pods (static-claims.ts keeps their count), but pods are planned onto their nodes.
 */
export function planRun(
  snapshot: ClusterSnapshot,
  claims: readonly NodeClaim[],
  unavailable: readonly UnavailableOffering[],
  catalog: Catalog,
  options: RunPoolOptions = {},
): RunPlan {
  const pools = runPools(snapshot.nodePools, snapshot, unavailable, catalog, {
    ...options,
    ...(options.reservations ? { reservations: afterPending(options.reservations, claims) } : {}),
  });
  const leaving = leavingNodes(claims, snapshot.nodes);
  const pending = [
    ...withoutBound(pendingPods(snapshot.pendingPods), snapshot.boundPods),
    ...displacedPods(snapshot.boundPods, leaving),
  ];
  const podsById = new Map(pending.map((p) => [podId(p), p]));
  // A claim keeps the room of its pods until they are bound (see nominated-claims.ts).
  const stored = nominatingClaims(claims, options.now ?? Date.now());
  const nominating = stillNominated(stored, snapshot.boundPods, leaving);
  const inFlight = inFlightClaims(nominating, snapshot.nodes, [...IN_FLIGHT_STATES, 'Initialized']);
  const present = existingNodes(
    snapshot.nodes.filter((n) => !leaving.has(n.metadata.name)),
    snapshot.boundPods,
  );
  // Limits count nodes as the plan does: the nodes of draining claims make room for their replacement.
  const usage = nodeUsage(present);
  const reserved = reserveOnNodes(present, snapshot.nodes, nominating, pending);
  // Room its planned pods no longer need is offered to other pending pods (see inFlightView); a
  // pod kept on the node of its claim waits for no in-flight claim besides (once per pod).
  const view = inFlightView(inFlight, pending, pools, {
    boundPods: snapshot.boundPods,
    nodes: snapshot.nodes,
    stored,
    placed: reserved.placed,
  });
  const waiting = view.waiting;
  const planned = pending.filter(
    (p) => !waiting.has(p.metadata.uid ?? '') && !reserved.placed.has(p.metadata.uid ?? ''),
  );
  const nodes = reserved.nodes;
  if (planned.length === 0) {
    return {
      pools,
      pending,
      podsById,
      inFlight,
      waiting,
      planned,
      plan: { ...EMPTY_PLAN, existingPlacements: reserved.placements },
      schedulingMs: 0,
      nodeUsage: usage,
    };
  }
  const started = performance.now();
  const scheduled = schedule({
    pods: planned,
    nodes: withoutStartupTaints(nodes, snapshot.nodes, nominating, pools),
    inFlight: view.inFlight,
    daemonSets: snapshot.daemonSets,
    persistentVolumes: snapshot.persistentVolumes,
    persistentVolumeClaims: snapshot.persistentVolumeClaims,
    storageClasses: snapshot.storageClasses,
    // A static pool keeps its replicas and launches nothing for pods (Karpenter v1.8); its
    // nodes and in-flight claims still take pods.
    pools: pools.filter((p) => !isStatic(p.pool)),
  });
  const schedulingMs = performance.now() - started;
  const allReservations = [...(options.reservations?.values() ?? [])].flat();
  const plan = withUnmanagedReason(
    withReservationOnlyPools(
      {
        ...scheduled,
        nodeClaims:
          allReservations.length === 0
            ? scheduled.nodeClaims
            : limitReservedOptions(scheduled.nodeClaims, allReservations, claims),
        existingPlacements: [...reserved.placements, ...scheduled.existingPlacements],
      },
      pools,
    ),
    snapshot,
  );
  return {
    pools,
    pending,
    podsById,
    inFlight,
    waiting,
    planned,
    plan,
    schedulingMs,
    nodeUsage: usage,
  };
}

/**
 * The reservations with the instances that Pending claims of earlier runs will launch into taken
 * off (EC2's count already holds the launched ones), so this run plans only what is left.
 */
function afterPending(
  reservations: ReadonlyMap<string, readonly CapacityReservation[]>,
  claims: readonly NodeClaim[],
): ReadonlyMap<string, readonly CapacityReservation[]> {
  const pending = new Map<string, number>();
  for (const c of claims) {
    const id = c.state === 'Pending' ? c.options[0]?.reservationId : undefined;
    if (id !== undefined) pending.set(id, (pending.get(id) ?? 0) + 1);
  }
  if (pending.size === 0) return reservations;
  const out = new Map<string, readonly CapacityReservation[]>();
  for (const [nodeClass, list] of reservations)
    out.set(
      nodeClass,
      list.map((r) =>
        pending.has(r.id)
          ? { ...r, availableInstanceCount: Math.max(0, r.availableInstanceCount - (pending.get(r.id) ?? 0)) }
          : r,
      ),
    );
  return out;
}

/** Adds the NodePools joiner does not manage to the reasons of the unschedulable pods. */
function withUnmanagedReason(plan: SchedulePlan, snapshot: ClusterSnapshot): SchedulePlan {
  const sentence = unmanagedPoolsSentence(snapshot.unmanagedNodePools ?? []);
  if (sentence === undefined || plan.unschedulable.length === 0) return plan;
  return {
    ...plan,
    unschedulable: plan.unschedulable.map((u) => ({ ...u, reason: `${u.reason}; ${sentence}` })),
  };
}
