/**
 * One disruption round's decisions, Karpenter's methods in order: NodePool deleted, nodes of an
 * ending Capacity Block (deleted as Karpenter deletes their NodeClaims), interrupted and expired
 * nodes, then nodes unhealthy past their toleration (node repair; forceful: not budgeted, not
 * blocked by do-not-disrupt) → drifted → empty (voluntary:
 * within the NodePool's budgets for the reason, not blocked). Pure: the caller reads the view,
 * computes drift and acts on the result.
 */
import { isNodeReady } from '../lifecycle/node-labels.js';
import type { Node, Pod } from '../model/kube-objects.js';
import { isStatic, type NodePool } from '../model/node-pool.js';
import type { DisruptionCause } from '../nodeclaim/disruption-record.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { staticCount } from '../provisioning/static-pools.js';
import { allowedDisruptions, type BudgetReason } from './budgets.js';
import { capacityBlockExpiry } from './capacity-block-expiry.js';
import type { DisruptionView } from './disruption-view.js';
import { emptinessEnabled } from './emptiness.js';
import { expiryOf } from './expiration.js';
import { repairOf } from './node-repair.js';
import { isEmptyNode } from './pod-policy.js';
import { staticScaleDown } from './static-scale-down.js';
import { voluntaryBlocker } from './voluntary-blockers.js';

/** A node to drain now. */
export interface Decision {
  readonly claim: NodeClaim;
  readonly node: Node;
  readonly pods: readonly Pod[];
  readonly cause: DisruptionCause;
  readonly message: string;
  readonly forceful: boolean;
  /** When the pods left are deleted regardless (node repair: at once). */
  readonly forceAt?: number;
  /** When eviction starts whether or not replacement capacity is up (a deletion: at once). */
  readonly replaceBy?: number;
}

/** A claim to end at once, without a drain: it has no node to drain (any more). */
export interface Retirement {
  readonly claim: NodeClaim;
  readonly message: string;
}

/** A node a due timer or a finding wanted to disrupt, but that may not be disrupted now. */
export interface Blocked {
  readonly claim: NodeClaim;
  readonly node: Node;
  readonly cause: DisruptionCause;
  readonly message: string;
  readonly pod?: Pod;
}

/** What a round decided. */
export interface RoundDecisions {
  readonly decisions: Decision[];
  readonly blocked: Blocked[];
  /** Claims whose due emptiness timer found pods on the node again: the timer goes. */
  readonly notEmpty: NodeClaim[];
  /** Deleted claims without a node to drain: their instance is terminated at once. */
  readonly retire: Retirement[];
}

/** What a round decides from. */
export interface RoundInput {
  readonly view: DisruptionView;
  /** Drift found per claim id. */
  readonly drift: ReadonlyMap<string, { readonly message: string }>;
  /** Claims whose emptiness timer is due. */
  readonly dueEmptiness: ReadonlySet<string>;
  /** A node is no candidate until it has been initialized this long (pods nominated to it bind). */
  readonly settleMs: number;
  /** Replace nodes unhealthy past their toleration (node-repair.ts). Default true. */
  readonly nodeRepair?: boolean;
}

const BUDGET_REASON: Partial<Record<DisruptionCause, BudgetReason>> = { empty: 'Empty', drifted: 'Drifted' };

/** The taint a node carries while it is disrupted (by joiner, or by another round or invocation). */
const DISRUPTED_TAINT_KEY = 'karpenter.sh/disrupted';

/** The states of claims whose node, while it is there, counts toward its pool's budgets. */
const COUNTED: readonly string[] = ['Initialized', 'Draining', 'Terminating'];

/**
 * Per NodePool: the initialized nodes of its claims that are still there, and those already
 * disrupting, as Karpenter counts them: not Ready, or marked for disruption or deletion — a claim
 * draining or terminating, a Node being deleted (`kubectl delete node`), or a Node tainted
 * `karpenter.sh/disrupted` whatever its claim says. A node counts until its Node object is gone.
 */
export function poolCounts(view: DisruptionView): Map<string, { nodes: number; disrupting: number }> {
  const counts = new Map<string, { nodes: number; disrupting: number }>();
  for (const claim of view.claims) {
    if (!COUNTED.includes(claim.state)) continue;
    const node = view.nodeOf(claim);
    if (!node) continue;
    const c = counts.get(claim.nodePool) ?? { nodes: 0, disrupting: 0 };
    c.nodes++;
    if (claim.state !== 'Initialized' || isMarkedForDeletion(node) || !isNodeReady(node)) c.disrupting++;
    counts.set(claim.nodePool, c);
  }
  return counts;
}

function isMarkedForDeletion(node: Node): boolean {
  return (
    node.metadata.deletionTimestamp !== undefined ||
    (node.spec?.taints ?? []).some((t) => t.key === DISRUPTED_TAINT_KEY)
  );
}

/** Decides the round (see the file comment). */
export function decideRound(input: RoundInput): RoundDecisions {
  const { view } = input;
  const counts = poolCounts(view);
  const out: RoundDecisions = { decisions: [], blocked: [], notEmpty: [], retire: [] };
  const candidates = view.claims
    .filter((c) => c.state === 'Initialized')
    .map((claim) => ({ claim, node: view.nodeOf(claim) }))
    .filter((c): c is { claim: NodeClaim; node: Node } => c.node !== undefined)
    .sort((a, b) => (a.claim.timestamps.Pending ?? 0) - (b.claim.timestamps.Pending ?? 0));
  const take = (
    claim: NodeClaim,
    node: Node,
    cause: DisruptionCause,
    message: string,
    forceful: boolean,
    forceAt?: number,
  ) => {
    const pods = view.podsOn(node.metadata.name);
    out.decisions.push({
      claim,
      node,
      pods,
      cause,
      message,
      forceful,
      ...(forceAt === undefined ? {} : { forceAt }),
      ...(cause === 'deleted' || cause === 'overprovisioned' ? { replaceBy: view.now } : {}),
    });
    const c = counts.get(claim.nodePool);
    if (c) c.disrupting++;
  };
  const decided = deletions(input, out, take);
  for (const { claim, node } of candidates) {
    if (decided.has(claim.id)) continue;
    const forced = forcefulCause(claim, view);
    if (forced) {
      take(claim, node, forced.cause, forced.message, true);
      decided.add(claim.id);
      continue;
    }
    if (input.nodeRepair === false) continue;
    const repair = repairOf(node, poolNodes(view, claim.nodePool), view.now);
    if (!repair) continue;
    decided.add(claim.id);
    if (repair.repair) take(claim, node, 'unhealthy', repair.message, true, view.now);
    else out.blocked.push({ claim, node, cause: 'unhealthy', message: repair.blocked });
  }
  for (const r of staticScaleDown({
    pools: view.config.nodePools,
    claims: view.claims,
    nodeOf: (c) => view.nodeOf(c),
    podsOn: (n) => view.podsOn(n),
    now: view.now,
    decided,
  })) {
    decided.add(r.claim.id);
    if (r.node) take(r.claim, r.node, 'overprovisioned', r.message, true);
    else out.retire.push({ claim: r.claim, message: r.message });
  }
  const room = staticRoom(view, decided);
  const voluntary: { claim: NodeClaim; node: Node; cause: DisruptionCause; message: string }[] = [];
  for (const { claim, node } of candidates) {
    if (decided.has(claim.id)) continue;
    const drift = input.drift.get(claim.id);
    if (drift) {
      voluntary.push({ claim, node, cause: 'drifted', message: drift.message });
      continue;
    }
    if (!input.dueEmptiness.has(claim.id)) continue;
    const pool = view.poolOf(claim);
    if (!pool || !emptinessEnabled(pool) || !isEmptyNode(view.podsOn(node.metadata.name))) {
      out.notEmpty.push(claim);
      continue;
    }
    voluntary.push({ claim, node, cause: 'empty', message: 'node is empty' });
  }
  for (const v of voluntary) {
    const blocker =
      blockerOf(v.claim, v.node, v.cause, input, counts) ?? staticBlocker(v.claim.nodePool, room);
    if (blocker) out.blocked.push({ ...v, message: blocker.message, pod: blocker.pod });
    else take(v.claim, v.node, v.cause, v.message, false);
  }
  return out;
}

/**
 * Per static NodePool, how many drifted nodes it may replace now (Karpenter's static drift): none
 * while it is over its replicas (its scale-down goes first), else the room `limits.nodes` leaves
 * for replacements, counting the nodes being removed.
 */
function staticRoom(view: DisruptionView, decided: ReadonlySet<string>): Map<string, number> {
  const room = new Map<string, number>();
  for (const pool of view.config.nodePools.filter(isStatic)) {
    const all = staticCount(pool, view.claims);
    const active = staticCount(
      pool,
      view.claims.filter((c) => !decided.has(c.id)),
    ).active;
    room.set(pool.name, active > all.replicas ? 0 : all.nodeLimit - all.active - all.deleting);
  }
  return room;
}

/** Why a static pool's drifted node waits (and takes its room when it does not). */
function staticBlocker(pool: string, room: Map<string, number>): { message: string; pod?: Pod } | undefined {
  const left = room.get(pool);
  if (left === undefined) return undefined;
  if (left < 1)
    return {
      message: 'static NodePool has no room under limits.nodes for a replacement, or is scaling down',
    };
  room.set(pool, left - 1);
  return undefined;
}

/** States in which a deleted claim or Node is drained (a forceful drain takes over a voluntary one). */
const DELETABLE: readonly string[] = ['Registered', 'Initialized', 'Draining'];

/**
 * Karpenter's termination flow: a NodeClaim resource or a Node someone deleted (`kubectl delete`;
 * the termination finalizer keeps it) is drained at once, forcefully (no budget, no
 * do-not-disrupt node block; PDBs and do-not-disrupt pods hold evictions until the NodePool's
 * terminationGracePeriod). A deleted claim with no node yet, or whose Node was deleted without
 * the finalizer (it is gone for good), is retired at once. Returns the claim ids decided.
 */
function deletions(
  input: RoundInput,
  out: RoundDecisions,
  take: (claim: NodeClaim, node: Node, cause: DisruptionCause, message: string, forceful: boolean) => void,
): Set<string> {
  const { view } = input;
  const decided = new Set<string>();
  for (const claim of view.claims) {
    const node = view.nodeOf(claim);
    const claimDeleted = view.deletedClaims.has(claim.id);
    if (node && DELETABLE.includes(claim.state)) {
      if (claim.state === 'Draining' && claim.disruption?.forceful) continue;
      const message = node.metadata.deletionTimestamp
        ? `Node ${node.metadata.name} was deleted`
        : claimDeleted
          ? `NodeClaim ${claim.id} was deleted`
          : undefined;
      if (!message) continue;
      take(claim, node, 'deleted', message, true);
      decided.add(claim.id);
      continue;
    }
    if (node) continue;
    const registeredAt = claim.timestamps.Registered;
    const nodeVanished =
      (claim.state === 'Registered' || claim.state === 'Initialized') &&
      claim.nodeName !== undefined &&
      registeredAt !== undefined &&
      view.now - registeredAt >= input.settleMs;
    if (nodeVanished) {
      out.retire.push({ claim, message: `Node ${claim.nodeName} was deleted` });
      decided.add(claim.id);
    } else if (claimDeleted && (claim.state === 'Launched' || claim.state === 'Registered')) {
      out.retire.push({ claim, message: `NodeClaim ${claim.id} was deleted` });
      decided.add(claim.id);
    }
  }
  return decided;
}

/** The nodes of a NodePool (by their `karpenter.sh/nodepool` label). */
function poolNodes(view: DisruptionView, pool: string): Node[] {
  return view.nodes.filter((n) => n.metadata.labels?.['karpenter.sh/nodepool'] === pool);
}

function forcefulCause(
  claim: NodeClaim,
  view: DisruptionView,
): { cause: DisruptionCause; message: string } | undefined {
  if (!view.config.nodePoolNames.has(claim.nodePool)) {
    return { cause: 'deleted nodepool', message: `NodePool ${claim.nodePool} was deleted` };
  }
  const blockEnding = capacityBlockExpiry(claim, view.now);
  if (blockEnding) return { cause: 'deleted', message: blockEnding };
  const interruption = claim.timers.interruption;
  if (interruption !== undefined && interruption <= view.now) {
    return { cause: 'interrupted', message: 'an AWS Health scheduled change starts' };
  }
  const expiry = expiryOf(claim, view.poolOf(claim));
  if (expiry !== undefined && expiry <= view.now) {
    return { cause: 'expired', message: `nodeclaim expired at ${new Date(expiry).toISOString()}` };
  }
  return undefined;
}

function blockerOf(
  claim: NodeClaim,
  node: Node,
  cause: DisruptionCause,
  input: RoundInput,
  counts: Map<string, { nodes: number; disrupting: number }>,
): { message: string; pod?: Pod } | undefined {
  const { view } = input;
  const initialized = claim.timestamps.Initialized ?? 0;
  if (view.now - initialized < input.settleMs) return { message: 'node was initialized moments ago' };
  const pool = view.poolOf(claim) as NodePool;
  // Karpenter: with a terminationGracePeriod, drift goes ahead whatever the pods' do-not-disrupt or PDBs.
  const podsMayBlock = !(cause === 'drifted' && pool.terminationGracePeriodMs !== undefined);
  const found = voluntaryBlocker(node, view.podsOn(node.metadata.name), view.pdbs, view.now, podsMayBlock);
  if (found) return found;
  const reason = BUDGET_REASON[cause] as BudgetReason;
  const c = counts.get(claim.nodePool) ?? { nodes: 0, disrupting: 0 };
  if (allowedDisruptions(pool.disruption.budgets, reason, c, view.now) < 1)
    return { message: 'no allowed disruptions due to budget' };
  return undefined;
}
