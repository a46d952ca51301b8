/**
 * Scale-down of static NodePools (Karpenter v1.8 static deprovisioning): a static pool with more
 * active claims than `replicas` (after `kubectl scale nodepool --replicas=N`) removes the surplus.
 * Karpenter deletes the NodeClaims, so the removal is forceful like a deletion: not budgeted and
 * not held by do-not-disrupt on the node; the drain still evicts through PDBs, and pods with
 * do-not-disrupt or a blocking PDB hold it until the pool's terminationGracePeriod. Which claims
 * go, in Karpenter's order:
 *   1. claims without a node yet (nothing runs on them), oldest last;
 *   2. empty nodes (only DaemonSet, mirror, finished pods; none with do-not-disrupt);
 *   3. the others, nodes without do-not-disrupt pods first, then by disruption cost (the eviction
 *      costs of their pods times the share of the node's life remaining), lowest first.
 * Pure.
 */
import type { Node, Pod } from '../model/kube-objects.js';
import { isStatic, type NodePool } from '../model/node-pool.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { ACTIVE_STATES as ACTIVE, staticCount } from '../provisioning/static-pools.js';
import { disruptionCost } from './consolidation/candidates.js';
import { blockingDoNotDisrupt, isEmptyNode } from './pod-policy.js';

/** What a static pool gives up in this round. */
export interface StaticRemoval {
  readonly claim: NodeClaim;
  /** The node to drain; absent for a claim without a node (it is retired at once). */
  readonly node?: Node;
  readonly pods: readonly Pod[];
  readonly message: string;
}

/** What choosing the removals reads (a disruption view). */
export interface StaticScaleDownInput {
  readonly pools: readonly NodePool[];
  readonly claims: readonly NodeClaim[];
  nodeOf(claim: NodeClaim): Node | undefined;
  podsOn(nodeName: string): readonly Pod[];
  readonly now: number;
  /** Claims the round already removes (deleted, expired, ...): no longer active. */
  readonly decided: ReadonlySet<string>;
}

/** The removals of every static pool over its replicas (see the file comment). */
export function staticScaleDown(input: StaticScaleDownInput): StaticRemoval[] {
  const out: StaticRemoval[] = [];
  for (const pool of input.pools.filter(isStatic)) {
    const live = input.claims.filter((c) => c.nodePool === pool.name && !input.decided.has(c.id));
    const count = staticCount(pool, live);
    const surplus = count.active - count.replicas;
    if (surplus <= 0) continue;
    const message = `static NodePool ${pool.name} scaled down to ${count.replicas} replica(s) from ${count.active}`;
    out.push(...choose(pool, live, surplus, input).map((r) => ({ ...r, message })));
  }
  return out;
}

type Chosen = Omit<StaticRemoval, 'message'>;

function choose(
  pool: NodePool,
  live: readonly NodeClaim[],
  surplus: number,
  input: StaticScaleDownInput,
): Chosen[] {
  const chosen: Chosen[] = [];
  const withNode: { claim: NodeClaim; node: Node; pods: readonly Pod[] }[] = [];
  const unresolved: NodeClaim[] = [];
  for (const claim of live) {
    if (!ACTIVE.includes(claim.state)) continue;
    const node = claim.state === 'Pending' ? undefined : input.nodeOf(claim);
    if (node) withNode.push({ claim, node, pods: input.podsOn(node.metadata.name) });
    else unresolved.push(claim);
  }
  // Newest first: the least launched. A Pending claim takes its share of the surplus but is
  // retired only once it has launched (a later round), so no running node goes in its place.
  unresolved.sort((a, b) => created(b) - created(a) || a.id.localeCompare(b.id));
  for (const claim of unresolved.slice(0, surplus)) chosen.push({ claim, pods: [] });
  const empty = withNode
    .filter((n) => isEmptyNode(n.pods) && !blockingDoNotDisrupt(n.pods, input.now))
    .sort((a, b) => created(a.claim) - created(b.claim) || a.claim.id.localeCompare(b.claim.id));
  const busy = withNode
    .filter((n) => !empty.includes(n))
    .map((n) => ({
      ...n,
      protected: blockingDoNotDisrupt(n.pods, input.now) !== undefined,
      cost: disruptionCost(n.claim, pool, n.pods, input.now),
    }))
    .sort(
      (a, b) =>
        Number(a.protected) - Number(b.protected) || a.cost - b.cost || a.claim.id.localeCompare(b.claim.id),
    );
  for (const n of [...empty, ...busy]) {
    if (chosen.length >= surplus) break;
    chosen.push({ claim: n.claim, node: n.node, pods: n.pods });
  }
  return chosen.filter((c) => c.claim.state !== 'Pending');
}

const created = (c: NodeClaim): number => c.timestamps.Pending ?? 0;
