/**
 * One step of a drain (state `Draining`), driven by the claim's `drainStep` timer. Each step is
 * short and re-reads everything, so a step that a crash cut short is simply taken again:
 * 1. `replacing`: the pods that must move get replacement capacity (launched, then initialized);
 *    a voluntary drain whose replacement does not come is cancelled, a forceful one evicts anyway
 *    once `replaceBy` has passed. A forceful drain near its deadline (a spot interruption: from
 *    its first step, as Karpenter does) evicts meanwhile, PDBs respected, and keeps launching.
 * 2. `evicting`: eviction waves through the Eviction API (see evictions.ts), re-tried every step.
 * 3. Nothing drainable left, or `forceAt` passed: the instance is terminated, the Node deleted and
 *    the claim retired (Terminating → Gone).
 */
import { claimNode } from '../lifecycle/claim-node.js';
import { DISRUPTED_TAINT, taintsOf } from '../lifecycle/node-labels.js';
import { retireClaim } from '../lifecycle/retire-claim.js';
import { updateClaim } from '../lifecycle/update-claim.js';
import type { Node } from '../model/kube-objects.js';
import type { DisruptionCause, DisruptionRecord } from '../nodeclaim/disruption-record.js';
import type { NodeClaim, NodeClaimFailure } from '../nodeclaim/nodeclaim.js';
import { transition, withTimer } from '../nodeclaim/state-machine.js';
import { taintNode } from './begin-drain.js';
import type { DisruptionDeps } from './disruption-deps.js';
import { disruptionSettings } from './disruption-deps.js';
import { blockedEvents, deleteDuePods, evictPass } from './evictions.js';
import { ensureReplacements } from './replacements.js';

/** Where a drain stands after a step. */
export type DrainStepState = 'not-draining' | 'busy' | 'replacing' | 'evicting' | 'terminated' | 'cancelled';

/** What a step did (for logs and metrics). */
export interface DrainStepOutcome {
  readonly state: DrainStepState;
  readonly nodePool?: string;
  readonly cause?: DisruptionCause;
  /** Evictions a PodDisruptionBudget refused in this step. */
  readonly refused: number;
  /** From the start of the drain to the termination (when this step terminated the node). */
  readonly drainMs?: number;
}

/** The failure reason a retired claim records for each cause. */
const REASONS: Record<DisruptionCause, string> = {
  empty: 'Empty',
  expired: 'Expired',
  drifted: 'Drifted',
  'deleted nodepool': 'NodePoolDeleted',
  interrupted: 'Interrupted',
  underutilized: 'Underutilized',
  unhealthy: 'Unhealthy',
  deleted: 'Deleted',
  overprovisioned: 'Overprovisioned',
  orphaned: 'Orphaned',
};

/**
 * Takes the next step of the drain of claim `id` (see the file comment). `known`: the claim as the
 * caller has just read it (a due claim of the round), not read again; the step's first write is
 * conditional on its version, so a claim changed meanwhile is read again there and the step goes on
 * from the claim as stored.
 */
export async function drainStep(
  deps: DisruptionDeps,
  id: string,
  known?: NodeClaim,
): Promise<DrainStepOutcome> {
  const read = known?.id === id ? known : await deps.store.getNodeClaim(id);
  const first = read?.disruption;
  if (read?.state !== 'Draining' || !first) {
    if (read?.timers.drainStep !== undefined) await rearm(deps, id, undefined, read);
    return { state: 'not-draining', refused: 0 };
  }
  const now = deps.clock.now();
  // The claim as this step stored it: the step's later writes start from it without reading it again.
  const { taken, current } = await takeStep(deps, read, now);
  if (!taken && current && current.state !== 'Draining') {
    // The round's claim was older than the stored one, which no longer drains: as a step that had
    // read it would, its leftover timer is cleared.
    if (current.timers.drainStep !== undefined) await rearm(deps, id, undefined, current);
    return { state: 'not-draining', refused: 0 };
  }
  const claim = taken ?? read;
  const record = taken?.disruption ?? first;
  const result = (state: DrainStepState, refused = 0): DrainStepOutcome => ({
    state,
    nodePool: claim.nodePool,
    cause: record.cause,
    refused,
    ...(state === 'terminated' ? { drainMs: deps.clock.now() - record.startedAt } : {}),
  });
  if (!taken) return result('busy');
  const node = await nodeOf(deps, claim);
  if (!node || (record.forceAt !== undefined && now >= record.forceAt)) {
    await finish(deps, claim, record, node);
    return result('terminated');
  }
  // The node as just read already carries the taint (every step after the first): not read again.
  const tainted = taintsOf(node).some(
    (t) => t.key === DISRUPTED_TAINT.key && t.effect === DISRUPTED_TAINT.effect,
  );
  if (!tainted) await taintNode(deps, node.metadata.name, claim.instance?.instanceId);
  const pods = await deps.cluster.listPodsOnNode(node.metadata.name);
  const step = disruptionSettings(deps).drainStepMs;
  const pdbs = async () => deps.cluster.listPodDisruptionBudgets();
  // The claim as this step last stored it: its later writes (the timer re-armed, the evicting
  // phase, the retire) start from it without reading it again.
  let latest: NodeClaim = claim;
  if (record.phase === 'replacing') {
    const early = evictsWhileReplacing(deps, record, now);
    // Pods whose end of the termination grace period has come go, replacement or not (an
    // eviction pass below deletes them itself).
    if (!early) await deleteDuePods(deps, node, pods, now, record.forceAt);
    const replacement = await ensureReplacements(deps, claim, pods);
    if (replacement.status === 'waiting' && replacement.drain) latest = replacement.drain;
    if (replacement.status === 'waiting' && now < record.replaceBy) {
      if (!early) {
        // Launched replacements wake the drain when they are initialized (lifecycle/wake-drains.ts):
        // until then only a safety re-check, for a wake-up lost.
        const pause = replacement.wakes ? disruptionSettings(deps).replacementRecheckMs : step;
        await rearm(deps, id, next(now + pause, record), latest, taken.timers.drainStep);
        return result('replacing');
      }
      // The deadline is near: evict (PDBs respected) while the replacement comes; the evicted
      // pods go pending and land on it, the ones a budget keeps are tried again at each step.
      const pass = await evictPass(deps, node, pods, await pdbs(), now, record.forceAt);
      if (pass.remaining === 0) {
        await finish(deps, latest, record, node);
        return result('terminated', pass.refused);
      }
      await rearm(deps, id, next(now + step, record), latest, taken.timers.drainStep);
      return result('replacing', pass.refused);
    }
    if (replacement.status !== 'ready' && !record.forceful) {
      const why =
        replacement.status === 'unschedulable'
          ? `pods cannot be rescheduled: ${replacement.pods.join(', ')}: ${replacement.reason}`
          : 'replacement capacity was not initialized in time';
      await cancelDrain(deps, claim, node.metadata.name, why);
      return result('cancelled');
    }
    latest =
      (await updateClaim(
        deps.store,
        id,
        (c) =>
          c.disruption?.phase === 'replacing'
            ? { ...c, disruption: { ...c.disruption, phase: 'evicting', evictingSince: now } }
            : undefined,
        latest,
      )) ?? latest;
  }
  const pass = await evictPass(deps, node, pods, await pdbs(), now, record.forceAt);
  if (pass.remaining === 0) {
    await finish(deps, latest, record, node);
    return result('terminated', pass.refused);
  }
  await rearm(deps, id, next(now + step, { ...record, phase: 'evicting' }), latest, taken.timers.drainStep);
  return result('evicting', pass.refused);
}

/**
 * Whether a drain evicts while its replacement is still on its way: a forceful one whose deadline
 * is within `forcefulEvictionWindowMs` (a spot interruption at once). Waiting for the replacement
 * to be initialized first would leave the PDB-bounded waves no time before the pods left are
 * deleted at the deadline (see DisruptionSettings.forcefulEvictionWindowMs).
 */
export function evictsWhileReplacing(
  deps: Pick<DisruptionDeps, 'disruptionSettings'>,
  record: DisruptionRecord,
  now: number,
): boolean {
  if (!record.forceful || record.forceAt === undefined) return false;
  return record.forceAt - now <= disruptionSettings(deps).forcefulEvictionWindowMs;
}

/**
 * Takes the step: moves the due drainStep timer a step later with one conditional write, so of two
 * deliveries of the same step only one acts (the other finds the timer moved), and a step a crash
 * cut short is taken again then. `taken`: the claim as stored, undefined when the step is not due
 * (another delivery took it) or the claim no longer drains; `current`: the claim as last read or
 * stored.
 */
async function takeStep(
  deps: DisruptionDeps,
  claim: NodeClaim,
  now: number,
): Promise<{ readonly taken?: NodeClaim; readonly current?: NodeClaim }> {
  let taken = false;
  const stored = await updateClaim(
    deps.store,
    claim.id,
    (c) => {
      taken = false;
      const due = c.timers.drainStep;
      if (c.state !== 'Draining' || (due !== undefined && due > now)) return undefined;
      taken = true;
      return withTimer(c, 'drainStep', now + disruptionSettings(deps).drainStepMs);
    },
    claim,
  );
  return taken ? { taken: stored, current: stored } : { current: stored };
}

/** The next step's time: a step later, but no later than the deadlines of the record. */
function next(at: number, record: DisruptionRecord): number {
  const deadlines = [at, record.forceAt ?? at, record.phase === 'replacing' ? record.replaceBy : at];
  return Math.max(Math.min(...deadlines), 0);
}

/**
 * Sets (or with undefined, clears) the drainStep timer and wakes the claim then. `known`: the claim
 * as this step last stored or read it (not read again when its timer is already `dueAt`). `took`:
 * the timer as this step took it (default `known`'s). A timer moved earlier than that since (a
 * replacement woke the drain meanwhile) is not put off: that wake-up's step is taken instead.
 */
async function rearm(
  deps: DisruptionDeps,
  id: string,
  dueAt: number | undefined,
  known?: NodeClaim,
  took = known?.timers.drainStep,
): Promise<void> {
  let woken = false;
  await updateClaim(
    deps.store,
    id,
    (c) => {
      const due = c.timers.drainStep;
      woken = dueAt !== undefined && due !== undefined && took !== undefined && due < took && due < dueAt;
      return woken || due === dueAt ? undefined : withTimer(c, 'drainStep', dueAt);
    },
    known,
  );
  if (dueAt !== undefined && !woken) await deps.timers.schedule(id, dueAt);
}

/**
 * The claim's node: its instance's Node (claim-node.ts), never another instance's Node that reused
 * the name after the claim's instance went.
 */
function nodeOf(deps: DisruptionDeps, claim: NodeClaim): Promise<Node | undefined> {
  return claimNode(deps.cluster, claim);
}

/**
 * Terminates the instance, deletes the Node and retires the claim; `claim` is the claim as this
 * step last stored it (the retire's first write is conditional on its version).
 */
async function finish(
  deps: DisruptionDeps,
  claim: NodeClaim,
  record: DisruptionRecord,
  node: Node | undefined,
): Promise<void> {
  const failure: NodeClaimFailure = {
    reason: record.reason ?? REASONS[record.cause],
    message: record.message,
  };
  await retireClaim(deps, claim.id, failure, { warn: false, from: ['Draining'], known: claim });
  deps.log.info('terminated node', {
    node: node?.metadata.name ?? claim.nodeName,
    nodeclaim: claim.id,
    nodepool: claim.nodePool,
    reason: record.cause,
    'drain-seconds': Math.round((deps.clock.now() - record.startedAt) / 1000),
  });
}

/** Returns a voluntary drain's node to service: taint removed, claim Initialized again. */
async function cancelDrain(
  deps: DisruptionDeps,
  claim: NodeClaim,
  nodeName: string,
  why: string,
): Promise<void> {
  const now = deps.clock.now();
  await updateClaim(deps.store, claim.id, (c) =>
    c.state === 'Draining'
      ? { ...transition(c, 'Initialized', now), blocked: { reason: why, at: now } }
      : undefined,
  );
  // The node as it is now: this step may have tainted it after it was first read.
  const node = await deps.cluster.getNode(nodeName);
  const taints = node ? taintsOf(node) : [];
  const kept = taints.filter((t) => !(t.key === DISRUPTED_TAINT.key && t.effect === DISRUPTED_TAINT.effect));
  if (kept.length !== taints.length) await deps.cluster.patchNode(nodeName, { taints: kept });
  deps.log.warn('cancelled disruption, node stays', {
    node: nodeName,
    nodeclaim: claim.id,
    reason: claim.disruption?.cause,
    why,
  });
  await deps.cluster.createEvents(blockedEvents(node, undefined, why));
}
