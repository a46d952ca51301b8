/**
 * Capacity a nodeclaim keeps for the pods it was planned for until they are bound, as Karpenter's
 * cluster state keeps a nominated pod's room on an in-flight or initializing node. The pending
 * pods, the nodes and the claims are read at slightly different moments, so a run may see a claim
 * already initialized while its node still looks like it is starting, or not there at all; the
 * claim keeps its pods' room through all of that for {@link NOMINATION_WINDOW_MS} after it
 * initialized. After that the node is what the API server says it is.
 */
import type { Node, Pod } from '../model/kube-objects.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { podId } from '../scheduling/pod-class.js';
import type { ExistingNode, ExistingPlacement } from '../scheduling/types.js';
import { hasNode, IN_FLIGHT_STATES } from './in-flight.js';

/**
 * How long an initialized claim keeps the room of its still-pending pods: long enough to cover a
 * run's reads and the kube-scheduler binding them, short enough that a pod its node can no longer
 * take is planned again within the next passes.
 */
export const NOMINATION_WINDOW_MS = 60_000;

/** The claims that still keep room for their pending pods at `now`. */
export function nominatingClaims(claims: readonly NodeClaim[], now: number): NodeClaim[] {
  const states: readonly string[] = IN_FLIGHT_STATES;
  return claims.filter((c) => {
    if (states.includes(c.state)) return true;
    if (c.state !== 'Initialized') return false;
    const at = c.timestamps.Initialized;
    return at !== undefined && now - at < NOMINATION_WINDOW_MS;
  });
}

/**
 * The claims with only the pods they still keep room for. A pod the kube-scheduler bound to another
 * node needs no room on this claim any more; a claim with no node yet keeps the pods of nodes being
 * drained (it is their replacement), a claim whose node exists does not (they are planned afresh).
 */
export function stillNominated(
  claims: readonly NodeClaim[],
  bound: readonly Pod[],
  leaving: ReadonlySet<string>,
): NodeClaim[] {
  const nodeOf = new Map<string, string>();
  for (const p of bound) if (p.metadata.uid && p.spec?.nodeName) nodeOf.set(p.metadata.uid, p.spec.nodeName);
  return claims.map((c) => {
    const pods = c.pods.filter((r) => {
      const node = nodeOf.get(r.uid);
      return node === undefined || node === c.nodeName || (!c.nodeName && leaving.has(node));
    });
    return pods.length === c.pods.length ? c : { ...c, pods };
  });
}

/** Pending pods that the bound pods read in the same run show on a node: they are not pending. */
export function withoutBound(pending: readonly Pod[], bound: readonly Pod[]): Pod[] {
  const boundUids = new Set(bound.filter((p) => p.spec?.nodeName).map((p) => p.metadata.uid));
  return pending.filter((p) => p.metadata.uid === undefined || !boundUids.has(p.metadata.uid));
}

/** Nodes with the pending pods their claims were planned for placed on them, and those pods. */
export interface ReservedOnNodes {
  readonly nodes: ExistingNode[];
  /** Uids of the pending pods placed on the node of their claim (not planned again). */
  readonly placed: ReadonlySet<string>;
  /** Those pods by node, as the scheduler reports placements on existing nodes. */
  readonly placements: ExistingPlacement[];
}

/**
 * Puts the still-pending pods of each nominating claim whose node is in `rawNodes` on that node,
 * so no other pod takes their room and they are not planned again.
 */
export function reserveOnNodes(
  nodes: readonly ExistingNode[],
  rawNodes: readonly Node[],
  nominating: readonly NodeClaim[],
  pending: readonly Pod[],
): ReservedOnNodes {
  const byUid = new Map(pending.map((p) => [p.metadata.uid ?? '', p]));
  const waiting = new Set<string>();
  const placements: ExistingPlacement[] = [];
  const out = nodes.map((n) => {
    const raw = rawNodes.find((r) => r.metadata.name === n.name);
    const claim = raw && nominating.find((c) => hasNode(c, [raw]));
    if (!claim) return n;
    const pods = claim.pods
      .map((r) => byUid.get(r.uid))
      .filter((p): p is Pod => p !== undefined && !waiting.has(p.metadata.uid ?? ''));
    if (pods.length === 0) return n;
    for (const p of pods) waiting.add(p.metadata.uid ?? '');
    placements.push({ node: n.name, pods: pods.map(podId) });
    return { ...n, pods: [...n.pods, ...pods] };
  });
  return { nodes: out, placed: waiting, placements };
}
