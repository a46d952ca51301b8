/**
 * Consolidation in a disruption round. A move found now is only proposed: it is written on its
 * claims with a `consolidation` timer a short wait later (Karpenter re-validates after 15 s before
 * tainting anything). When the timer is due the move is computed again on the cluster as it is
 * then, and acted on only if it still holds — every node of it still a candidate, its pods still
 * placeable — else dropped. Nothing is proposed while the cluster is moving (pods pending, nodes
 * launching or draining), so consolidation never takes capacity a pod is waiting for. A search
 * runs in every sweep, and also when a `consolidation` timer without a proposal is due: the
 * lifecycle arms one when a pod leaves a node (debounced: one timer per node, `consolidateAfter`
 * later), so a scale-in is looked at then rather than at the next sweep. A complete search that
 * found nothing is remembered by its cluster's fingerprint (search-fingerprint.ts), and the next
 * search on the same cluster is skipped: a large steady cluster does not pay a search every minute.
 */
import { updateClaim } from '../../lifecycle/update-claim.js';
import type { NodeClass } from '../../model/node-class.js';
import { isStatic } from '../../model/node-pool.js';
import type { NodeClaim } from '../../nodeclaim/nodeclaim.js';
import { withTimer } from '../../nodeclaim/state-machine.js';
import { IN_FLIGHT_STATES } from '../../provisioning/in-flight.js';
import { schedulingPools } from '../../scheduling/prepare.js';
import type { PlannedNodeClaim } from '../../scheduling/types.js';
import { beginDrain } from '../begin-drain.js';
import { allowedDisruptions } from '../budgets.js';
import { poolCounts } from '../decide.js';
import type { DisruptionDeps } from '../disruption-deps.js';
import type { DisruptionView } from '../disruption-view.js';
import { drainAgrees, plannedNewNodesPrice } from './as-drained.js';
import { type Candidate, consolidationCandidates } from './candidates.js';
import { withOverlaidPrices } from './overlaid-prices.js';
import { type ConsolidationMove, evaluate, planConsolidation } from './plan-consolidation.js';
import { prepareCluster, type SimulationCluster } from './removal-simulation.js';
import { SearchBudget } from './search-budget.js';
import { searchFingerprint } from './search-fingerprint.js';

/** How long a proposal waits before it is re-validated and acted on (Karpenter: 15 s). */
export const REVALIDATE_AFTER_MS = 15_000;

/** What consolidation did in a round. */
export interface ConsolidationOutcome {
  readonly proposed?: ConsolidationMove;
  /** Claims whose drain started (a re-validated proposal). */
  readonly started: readonly NodeClaim[];
  /** The method of the move whose drains started. */
  readonly method?: ConsolidationMove['method'];
  /** Proposals dropped because they no longer hold. */
  readonly dropped: number;
}

const NONE: ConsolidationOutcome = { started: [], dropped: 0 };

/** Runs consolidation for a round that holds the disruption lease (see the file comment). */
export async function consolidate(
  deps: DisruptionDeps,
  view: DisruptionView,
  options: {
    readonly propose: boolean;
    readonly settleMs: number;
    /** Whether the round still holds the disruption lease (renewing it); no drain starts otherwise. */
    readonly stillHeld?: () => Promise<boolean>;
  },
): Promise<ConsolidationOutcome> {
  const isDue = (c: NodeClaim): boolean => (c.timers.consolidation ?? Infinity) <= view.now;
  const due = view.claims.filter((c) => c.consolidation && isDue(c));
  // Checks a pod's departure asked for: due timers without a proposal.
  const checks = view.claims.filter((c) => !c.consolidation && isDue(c));
  if (checks.length > 0) await drop(deps, checks);
  const pendingProposal = view.claims.some((c) => c.consolidation);
  const search = (options.propose || checks.length > 0) && !pendingProposal;
  if (due.length === 0 && !search) return NONE;
  if (!(await settled(deps, view))) {
    const dropped = await drop(deps, due);
    return { started: [], dropped };
  }
  const found = consolidationCandidates(view, options.settleMs).candidates;
  if (found.length === 0) return { started: [], dropped: await drop(deps, due) };
  const { prepared: context, pools, cluster } = await simulationContext(deps, view);
  const candidates = withOverlaidPrices(found, pools);
  const counts = poolCounts(view);
  const allowed = (pool: string): number => {
    const p = view.config.nodePools.find((n) => n.name === pool);
    return p
      ? allowedDisruptions(
          p.disruption.budgets,
          'Underutilized',
          counts.get(pool) ?? { nodes: 0, disrupting: 0 },
          view.now,
        )
      : 0;
  };
  if (due.length > 0) return act(deps, view, due, candidates, context, allowed, options.stillHeld);
  const memory = deps.consolidationMemory;
  // Hashed only when there is an empty search to compare with, or one to remember.
  const fingerprint = memory?.emptySearch ? searchFingerprint({ cluster, candidates, allowed }) : undefined;
  if (fingerprint && memory?.emptySearch === fingerprint) {
    deps.log.debug('consolidation: nothing changed since the last search found no move, not searched again');
    return NONE;
  }
  // A count of candidate evaluations, not a time: the same search on any host (search-budget.ts).
  const budget = new SearchBudget({ remainingMs: deps.remainingMs });
  const move = planConsolidation(budget.counting(context), candidates, { allowed, expired: budget.expired });
  if (budget.cutBy)
    deps.log.info('consolidation search stopped before it looked at every set', {
      by: budget.cutBy,
      evaluations: budget.spent,
      candidates: candidates.length,
    });
  // A search cut short by its budget may have missed a move: only a complete one is remembered.
  if (memory)
    memory.emptySearch =
      !move && !budget.cutBy
        ? (fingerprint ?? searchFingerprint({ cluster, candidates, allowed }))
        : undefined;
  if (!move) return NONE;
  await propose(deps, view, move);
  return { proposed: move, started: [], dropped: 0 };
}

/** Nothing pending, launching or draining. */
async function settled(deps: DisruptionDeps, view: DisruptionView): Promise<boolean> {
  const moving = view.claims.some(
    (c) => c.state === 'Draining' || (IN_FLIGHT_STATES as readonly string[]).includes(c.state),
  );
  if (moving) return false;
  return (await deps.cluster.listPendingPods()).length === 0;
}

async function simulationContext(deps: DisruptionDeps, view: DisruptionView) {
  const [daemonSets, persistentVolumes, persistentVolumeClaims, storageClasses, unavailable, zones] =
    await Promise.all([
      deps.cluster.listDaemonSets(),
      deps.cluster.listPersistentVolumes(),
      deps.cluster.listPersistentVolumeClaims(),
      deps.cluster.listStorageClasses(),
      deps.store.listUnavailableOfferings(view.now),
      launchZonesOf(deps, view.config.nodeClasses),
    ]);
  const marks = new Set(unavailable.map((u) => `${u.instanceType}|${u.zone}|${u.capacityType}`));
  // A static pool launches no replacement (its count is its own); its nodes still take pods.
  const dynamic = view.config.nodePools.filter((p) => !isStatic(p));
  const pools = schedulingPools(dynamic, view.config.nodeClasses, deps.catalog, {
    isUnavailable: (type, zone, capacityType) => marks.has(`${type}|${zone}|${capacityType}`),
    allowedNodeRoles: deps.nodeRoles,
    launchZones: (nodeClass) => zones.get(nodeClass),
    overlays: view.config.nodeOverlays,
  });
  const boundPods = view.nodes.flatMap((n) => [...view.podsOn(n.metadata.name)]);
  const cluster: SimulationCluster = {
    nodes: view.nodes,
    boundPods,
    daemonSets,
    persistentVolumes,
    persistentVolumeClaims,
    storageClasses,
    pools,
    leaving: new Set(),
    claims: view.claims,
  };
  return { prepared: prepareCluster(cluster), pools, cluster };
}

/**
 * The zones each NodeClass can launch in now (from the launch caches), so a replacement is only
 * planned where the provisioner can launch it. A NodeClass that does not resolve is left out
 * (every zone), and its launch reports the problem.
 */
async function launchZonesOf(
  deps: Pick<DisruptionDeps, 'cloud' | 'log'>,
  nodeClasses: readonly NodeClass[],
): Promise<ReadonlyMap<string, readonly string[]>> {
  const zones = new Map<string, readonly string[]>();
  const resolve = deps.cloud.resolveNodeClass?.bind(deps.cloud);
  if (!resolve) return zones;
  await Promise.all(
    nodeClasses.map(async (nodeClass) => {
      try {
        zones.set(nodeClass.name, (await resolve(nodeClass)).zones);
      } catch (error) {
        deps.log.debug('could not resolve NodeClass zones, consolidation plans every zone', {
          nodeclass: nodeClass.name,
          error: String(error),
        });
      }
    }),
  );
  return zones;
}

/** Writes the proposal on its claims, due after the re-validation wait. */
async function propose(deps: DisruptionDeps, view: DisruptionView, move: ConsolidationMove): Promise<void> {
  const dueAt = view.now + REVALIDATE_AFTER_MS;
  const proposal = {
    claims: move.candidates.map((c) => c.claim.id),
    method: move.method,
    proposedAt: view.now,
    message: describe(move),
    newNodesPrice: plannedNewNodesPrice(move),
  };
  for (const c of move.candidates) {
    await updateClaim(deps.store, c.claim.id, (claim) =>
      claim.state === 'Initialized'
        ? { ...withTimer(claim, 'consolidation', dueAt), consolidation: proposal }
        : undefined,
    );
    await deps.timers.schedule(c.claim.id, dueAt);
  }
  deps.log.info('found consolidation, re-validating before acting', {
    method: move.method,
    nodes: move.candidates.length,
    'savings-per-hour': Number(move.savings.toFixed(4)),
    detail: proposal.message,
  });
}

/** Re-validates the due proposal and starts its drains, or drops it. */
async function act(
  deps: DisruptionDeps,
  view: DisruptionView,
  due: readonly NodeClaim[],
  candidates: readonly Candidate[],
  context: ReturnType<typeof prepareCluster>,
  allowed: (pool: string) => number,
  stillHeld: () => Promise<boolean> = async () => true,
): Promise<ConsolidationOutcome> {
  const proposal = due[0].consolidation;
  const ids = proposal?.claims ?? [];
  const set = ids.map((id) => candidates.find((c) => c.claim.id === id));
  const perPool = new Map<string, number>();
  for (const c of set) if (c) perPool.set(c.pool.name, (perPool.get(c.pool.name) ?? 0) + 1);
  const withinBudget = [...perPool].every(([pool, n]) => n <= allowed(pool));
  const move =
    set.every((c): c is Candidate => c !== undefined) && withinBudget ? evaluate(context, set) : undefined;
  const members = view.claims.filter((c) => ids.includes(c.id) || due.includes(c));
  // As Karpenter validates a command: the move must still hold, the same way, and its drain (which
  // plans the pods again, as-drained.ts) must launch nothing dearer than the proposal planned.
  const planned = proposal?.newNodesPrice ?? (move ? plannedNewNodesPrice(move) : 0);
  if (!move || move.method !== proposal?.method || !drainAgrees(context, move, planned)) {
    deps.log.info('consolidation no longer holds, dropped', { nodeclaims: ids });
    return { started: [], dropped: await drop(deps, members) };
  }
  logMove(deps, move);
  const started: NodeClaim[] = [];
  for (const c of move.candidates) {
    if (!(await stillHeld())) break;
    const stored = await beginDrain(deps, c.claim.id, {
      cause: 'underutilized',
      message: describe(move),
      forceful: false,
      pods: c.pods.length,
      quiet: true,
      // A delete's pods fit on the nodes that stay (just re-validated): no replacement to wait for.
      evictNow: move.method === 'delete',
    });
    if (stored) started.push(stored);
  }
  return { started, method: move.method, dropped: 0 };
}

/** Clears the proposal and its timer from `claims`; returns how many it cleared. */
async function drop(deps: DisruptionDeps, claims: readonly NodeClaim[]): Promise<number> {
  let n = 0;
  for (const claim of claims) {
    let cleared = false;
    // Decided on the round's read of the claim: the write is conditional on its version, so a
    // claim changed since is read again.
    await updateClaim(
      deps.store,
      claim.id,
      (c) => {
        cleared = false;
        if (!c.consolidation && c.timers.consolidation === undefined) return undefined;
        const { consolidation: _dropped, ...rest } = withTimer(c, 'consolidation', undefined);
        cleared = true;
        return rest;
      },
      claim,
    );
    if (cleared) n++;
  }
  return n;
}

function nodeText(c: Candidate): string {
  const i = c.claim.instance;
  return [c.node.metadata.name, i?.instanceType, i?.capacityType].filter(Boolean).join('/');
}

/**
 * Karpenter's wording of a move, then the prices it was decided with: what the nodes cost, what
 * the replacement costs, the savings, and which of them a NodeOverlay set.
 */
export function describe(move: ConsolidationMove): string {
  const pods = move.candidates.reduce((n, c) => n + c.pods.length, 0);
  const nodes = move.candidates.map(nodeText).join(', ');
  const head = `disrupting node(s) via ${move.method}, terminating ${move.candidates.length} node(s) (${pods} pods) ${nodes}`;
  const replacements = newNodes(move);
  if (replacements.length === 0) return `${head} (${prices(move)})`;
  const text = replacements.map((replacement) => {
    const capacity = replacement.instanceTypeOptions[0]?.capacityType ?? 'on-demand';
    const types = [...new Set(replacement.instanceTypeOptions.map((o) => o.instanceType))];
    const shown =
      types.slice(0, 5).join(', ') + (types.length > 5 ? ` and ${types.length - 5} other(s)` : '');
    return `${capacity} node from types ${shown}`;
  });
  // One new node in Karpenter's words; an exchange's two listed.
  const what = text.length === 1 ? text[0] : `${text.length} nodes: ${text.join('; ')}`;
  return `${head} and replacing with ${what} (${prices(move)})`;
}

/** The new nodes of a move (none for a delete). */
function newNodes(move: ConsolidationMove): readonly PlannedNodeClaim[] {
  return move.replacements ?? (move.replacement ? [move.replacement] : []);
}

const usd = (n: number): string => `$${n.toFixed(4)}/h`;

/** `$0.0765/h -> $0.0576/h, saves $0.0189/h; NodeOverlay prices: the replacement`. */
function prices(move: ConsolidationMove): string {
  const now = move.candidates.reduce((sum, c) => sum + c.price, 0);
  const best = newNodes(move).map((r) => r.instanceTypeOptions[0]);
  const after =
    best.length > 0 ? `${usd(now)} -> ${usd(best.reduce((s, o) => s + (o?.price ?? 0), 0))}` : usd(now);
  const overlaid = [
    ...move.candidates.filter((c) => c.priceOverlaid).map((c) => c.node.metadata.name),
    ...(best.some((o) => o?.priceOverlaid) ? ['the replacement'] : []),
  ];
  const note = overlaid.length > 0 ? `; NodeOverlay prices: ${overlaid.join(', ')}` : '';
  return `${after}, saves ${usd(move.savings)}${note}`;
}

function logMove(deps: DisruptionDeps, move: ConsolidationMove): void {
  deps.log.info(describe(move), {
    reason: 'underutilized',
    nodeclaims: move.candidates.map((c) => c.claim.id),
    'savings-per-hour': Number(move.savings.toFixed(4)),
  });
}
