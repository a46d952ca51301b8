/**
 * Nodeclaims that are launching or launched but whose node is not there yet: capacity the
 * scheduler counts on, so pods waiting for them are not planned twice.
 */

import { LABEL_ZONE_ID } from '../catalog/well-known-labels.js';
import { claimZoneId, EPHEMERAL_TAINT_KEYS } from '../lifecycle/node-labels.js';
import { CAPACITY_RESERVATION_ID, CAPACITY_RESERVATION_TYPE } from '../model/capacity-reservation.js';
import type { Node, Pod } from '../model/kube-objects.js';
import { EFA, type Resources } from '../model/resources.js';
import type { Taint } from '../model/taint.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { podRequests } from '../scheduling/pod-requests.js';
import type { ExistingNode, InFlightClaim, SchedulingPool } from '../scheduling/types.js';
import { CAPACITY_TYPE, INSTANCE_TYPE, NODEPOOL, ZONE } from '../scheduling/well-known.js';

/** The states in which a claim may still be waiting for its node. */
export const IN_FLIGHT_STATES = ['Pending', 'Launched', 'Registered'] as const;

/** The in-flight part of the cluster. */
export interface InFlightView {
  readonly inFlight: InFlightClaim[];
  /** Uids of pending pods that wait for an in-flight claim (not planned again). */
  readonly waiting: ReadonlySet<string>;
}

/** Whether one of `nodes` is the node of `claim` (by name or by the instance id in its providerID). */
export function hasNode(claim: NodeClaim, nodes: readonly Node[]): boolean {
  const instanceId = claim.instance?.instanceId;
  return nodes.some(
    (n) =>
      (claim.nodeName !== undefined && n.metadata.name === claim.nodeName) ||
      (instanceId !== undefined && (n.spec?.providerID ?? '').endsWith(`/${instanceId}`)),
  );
}

/**
 * The claims among `claims` that are in flight: live and without a node in `nodes`. With `states`,
 * claims in those states count too (a just-initialized claim whose node the run has not seen yet).
 */
export function inFlightClaims(
  claims: readonly NodeClaim[],
  nodes: readonly Node[],
  states: readonly string[] = IN_FLIGHT_STATES,
): NodeClaim[] {
  return claims.filter((c) => states.includes(c.state) && !hasNode(c, nodes));
}

/** What the cluster shows of the pods a claim was planned for (see {@link inFlightView}). */
export interface PlannedPodsContext {
  /** Pods bound to nodes, as the run read them. */
  readonly boundPods: readonly Pod[];
  /** The nodes the run read. */
  readonly nodes: readonly Node[];
  /**
   * The claims as stored, before the run dropped pods that no longer wait for them (by id): the
   * pods they list hold room until released.
   */
  readonly stored?: readonly NodeClaim[];
  /** Uids of pending pods already kept on the starting node of their claim: they wait for no other. */
  readonly placed?: ReadonlySet<string>;
}

/**
 * The scheduler's view of in-flight claims. Each keeps the pending pods it was planned for (a
 * pending pod waits for one claim only: the first that lists it, unless it is kept on the
 * starting node of another, see `placed`). Its free capacity is what its
 * planned requests (pods and daemonset overhead) leave of the smallest instance type it may still
 * become (the launched type once launched), plus the room of the planned pods that no longer need
 * it: deleted or evicted (a drain evicts before its replacement is up, and the ReplicaSet's new
 * pod has a new uid), bound to another node, or waiting for another claim. That room is offered to
 * any pending pod that fits and whose constraints the claim satisfies, as Karpenter's cluster state
 * nominates pending pods onto in-flight capacity. A planned pod bound to a node the run did not
 * read (the claim's own, just registered) keeps its room; so does every pod of a claim written
 * before pods' requests were recorded.
 */
export function inFlightView(
  claims: readonly NodeClaim[],
  pending: readonly Pod[],
  pools: readonly SchedulingPool[],
  context: PlannedPodsContext = { boundPods: [], nodes: [] },
): InFlightView {
  const byUid = new Map(pending.map((p) => [p.metadata.uid ?? '', p]));
  const released = releasedRefs(context);
  const stored = new Map((context.stored ?? []).map((c) => [c.id, c]));
  const waiting = new Set<string>();
  const taken = new Set(context.placed ?? []);
  const inFlight = claims.map((claim) => {
    const pods: Pod[] = [];
    for (const ref of claim.pods) {
      const pod = byUid.get(ref.uid);
      if (!pod || taken.has(ref.uid)) continue;
      taken.add(ref.uid);
      waiting.add(ref.uid);
      pods.push(pod);
    }
    const mine = new Set(pods.map((p) => p.metadata.uid ?? ''));
    const allocatable = subtract(smallestAllocatable(claim, pools), claim.requests);
    for (const ref of (stored.get(claim.id) ?? claim).pods) {
      const pod = byUid.get(ref.uid);
      // The scheduler counts a waiting pod's requests as it places it on the claim.
      if (pod && mine.has(ref.uid)) addInto(allocatable, ref.requests ?? safeRequests(pod));
      else if (ref.requests && !mine.has(ref.uid) && (pod !== undefined || released(ref.uid)))
        addInto(allocatable, ref.requests);
    }
    return {
      name: claim.id,
      nodePool: claim.nodePool,
      labels: claimLabels(claim),
      requirements: claim.requirements,
      taints: claim.taints,
      allocatable,
      capacity: limitCapacity(claim, pools),
      pods,
    };
  });
  return { inFlight, waiting };
}

/**
 * Whether a planned pod that is not pending gave its room back: it is gone (deleted, or never
 * read), finished, terminating, or bound to a node the run read. A pod bound to a node the run
 * did not read may be on the claim's own node: it keeps its room.
 */
function releasedRefs(context: PlannedPodsContext): (uid: string) => boolean {
  const nodes = new Set(context.nodes.map((n) => n.metadata.name));
  const boundTo = new Map<string, string>();
  for (const p of context.boundPods)
    if (p.metadata.uid && p.spec?.nodeName) boundTo.set(p.metadata.uid, p.spec.nodeName);
  return (uid) => {
    const node = boundTo.get(uid);
    return node === undefined || nodes.has(node);
  };
}

function claimLabels(claim: NodeClaim): Record<string, string> {
  const labels: Record<string, string> = { ...claim.labels, [NODEPOOL]: claim.nodePool };
  if (claim.instance) {
    labels[INSTANCE_TYPE] = claim.instance.instanceType;
    labels[ZONE] = claim.instance.zone;
    const zoneId = claimZoneId(claim);
    if (zoneId) labels[LABEL_ZONE_ID] = zoneId;
    labels[CAPACITY_TYPE] = claim.instance.capacityType;
    if (claim.instance.reservationId) {
      labels[CAPACITY_RESERVATION_ID] = claim.instance.reservationId;
      labels[CAPACITY_RESERVATION_TYPE] = claim.instance.reservationType ?? 'default';
    }
  }
  return labels;
}

/**
 * What a claim counts toward its pool's limits: the capacity of its launched type, else the
 * element-wise maximum capacity of the types it may still launch as (CreateFleet may pick any).
 * Without its pool or types: its planned requests.
 */
export function limitCapacity(claim: NodeClaim, pools: readonly SchedulingPool[]): Resources {
  const types = pools.find((p) => p.pool.name === claim.nodePool)?.instanceTypes ?? [];
  const names = claim.instance
    ? new Set([claim.instance.instanceType])
    : new Set(claim.options.map((o) => o.instanceType));
  const found = types.filter((t) => names.has(t.name));
  if (found.length === 0) return { ...claim.requests };
  const out: Resources = {};
  for (const t of found) {
    for (const [key, v] of Object.entries(t.capacity)) out[key] = Math.max(out[key] ?? 0, v);
  }
  return out;
}

/** Element-wise minimum of the allocatable of the instance types the claim may still be. */
function smallestAllocatable(claim: NodeClaim, pools: readonly SchedulingPool[]): Resources {
  const types = pools.find((p) => p.pool.name === claim.nodePool)?.instanceTypes ?? [];
  const names = claim.instance
    ? new Set([claim.instance.instanceType])
    : new Set(claim.options.map((o) => o.instanceType));
  const found = types.filter((t) => names.has(t.name));
  // Without its pool or types the claim is counted as exactly full: nothing more is placed on it.
  if (found.length === 0) return { ...claim.requests };
  const out: Resources = { ...found[0].allocatable };
  for (const t of found.slice(1)) {
    for (const key of Object.keys(out)) out[key] = Math.min(out[key], t.allocatable[key] ?? 0);
  }
  // A node gets EFA interfaces only when its claim's pods request them (as Karpenter's nodeclaims
  // advertise EFA only then): a claim launched without them has no EFA to offer other pods.
  if (!claim.requests[EFA]) delete out[EFA];
  return out;
}

function subtract(from: Resources, minus: Readonly<Resources>): Resources {
  const out: Resources = { ...from };
  for (const [k, v] of Object.entries(minus)) out[k] = Math.max(0, (out[k] ?? 0) - v);
  return out;
}

function addInto(target: Resources, add: Readonly<Resources>): void {
  for (const [k, v] of Object.entries(add)) target[k] = (target[k] ?? 0) + v;
}

function safeRequests(pod: Pod): Resources {
  try {
    return podRequests(pod);
  } catch {
    return {};
  }
}

/**
 * Nodes of claims that registered but are not initialized yet (or initialized so recently that the
 * node list the run read may predate it: pass only such claims), as they will be: without their
 * startup taints (the claim's, and the Multus readiness taint of its NodeClass) and the taints of
 * a node that is still starting. Pods planned for such a node then wait for it instead of being
 * planned onto a new claim.
 */
export function withoutStartupTaints(
  nodes: readonly ExistingNode[],
  rawNodes: readonly Node[],
  claims: readonly NodeClaim[],
  pools: readonly SchedulingPool[],
): ExistingNode[] {
  const starting = claims.filter(
    (c) => c.state === 'Launched' || c.state === 'Registered' || c.state === 'Initialized',
  );
  return nodes.map((n) => {
    const raw = rawNodes.find((r) => r.metadata.name === n.name);
    const claim = raw && starting.find((c) => hasNode(c, [raw]));
    if (!claim) return n;
    const multus = pools.find((p) => p.pool.name === claim.nodePool)?.nodeClass?.multusReadyTaint;
    const ignored: Taint[] = [...claim.startupTaints, ...(multus ? [multus] : [])];
    const taints = n.taints.filter(
      (t) =>
        !EPHEMERAL_TAINT_KEYS.includes(t.key) &&
        !ignored.some((i) => i.key === t.key && i.effect === t.effect),
    );
    return { ...n, taints };
  });
}
