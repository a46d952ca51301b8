/**
 * A disruption round, run by the disruption function: the due drain steps first, then — one round
 * at a time per cluster, under the disruption lease — the decisions (NodePool deleted, expired,
 * drifted, empty; see decide.ts), the drains they start, and the emptiness timers brought in line
 * with the nodes (armed on empty nodes, disarmed where pods are back, re-armed with a reason where
 * a budget, a do-not-disrupt annotation or a PDB blocks them). Every due timer is acted on or
 * moved later, so the due index never fills with stale entries.
 */
import { randomUUID } from 'node:crypto';
import { retireClaim } from '../lifecycle/retire-claim.js';
import { updateClaim } from '../lifecycle/update-claim.js';
import type { DisruptionCause } from '../nodeclaim/disruption-record.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { withTimer } from '../nodeclaim/state-machine.js';
import { systemClock } from '../ports/clock.js';
import { beginDrain } from './begin-drain.js';
import { consolidate } from './consolidation/consolidation-round.js';
import { type Blocked, type Decision, decideRound, type Retirement } from './decide.js';
import type { DisruptionDeps } from './disruption-deps.js';
import { disruptionSettings } from './disruption-deps.js';
import { type DisruptionView, readDisruptionView } from './disruption-view.js';
import { drainStep } from './drain-step.js';
import { findDrift } from './drift-findings.js';
import { emptyFor } from './emptiness.js';
import { blockedEvents } from './evictions.js';
import { isCurrent, restamped } from './hash-versions.js';
import { reportInvalidDoNotDisrupt } from './invalid-do-not-disrupt.js';
import { isEmptyNode, isReschedulable } from './pod-policy.js';
import { withSharedReplacementRun } from './replacements.js';

/** What a round did. */
export interface DisruptionOutcome {
  /** Drain steps taken (due ones and the first step of new drains). */
  readonly steps: number;
  /** Nodes whose drain ended with their termination, with how long the drain took. */
  readonly terminated: readonly {
    readonly nodePool: string;
    readonly cause: string;
    readonly drainMs: number;
  }[];
  /** Evictions PodDisruptionBudgets refused. */
  readonly evictionsRefused: number;
  readonly started: readonly {
    readonly nodeClaim: string;
    readonly nodePool: string;
    readonly cause: DisruptionCause;
  }[];
  /**
   * Voluntary disruption decisions acted on (emptiness, drift, consolidation), as Karpenter counts
   * them: `replace` when the pods need new capacity, else `delete`; one per consolidation move.
   */
  readonly decisions: readonly VoluntaryDecision[];
  /** Nodes that may not be disrupted now (their timers re-armed). */
  readonly blocked: number;
  readonly armed: number;
  readonly disarmed: number;
  /** False when another round held the disruption lease (no decisions were made). */
  readonly decided: boolean;
}

/** One voluntary disruption decision (see {@link DisruptionOutcome.decisions}). */
export interface VoluntaryDecision {
  readonly decision: 'delete' | 'replace';
  readonly reason: 'empty' | 'drifted' | 'underutilized';
  /** Nodes the decision disrupts. */
  readonly nodes: number;
}

/** Causes Karpenter disrupts voluntarily (the others are forceful or involuntary). */
const VOLUNTARY = new Set<DisruptionCause>(['empty', 'drifted', 'underutilized']);

/** How a round is run. */
export interface RoundOptions {
  /** Look for drift and arm emptiness timers on every node (the sweep); otherwise only act on `due`. */
  readonly full: boolean;
  /** A node is no voluntary candidate until it has been initialized this long. Default 30 s. */
  readonly settleMs?: number;
}

const DECISION_TIMERS = ['emptiness', 'expiration', 'interruption', 'consolidation', 'deletion'] as const;
const LEASE = 'disruption';
/** When a deletion's round found the lease taken, its next try. */
const LEASE_BUSY_RETRY_MS = 5_000;
const CONCURRENCY = 8;
/** First drain steps a round takes itself. */
const INLINE_FIRST_STEPS = 8;

/** Runs a round for the `due` claims (see the file comment). One failing claim does not stop the others. */
export async function runDisruption(
  deps: DisruptionDeps,
  due: readonly NodeClaim[],
  options: RoundOptions,
): Promise<DisruptionOutcome> {
  const now = deps.clock.now();
  const draining = due.filter((c) => c.state === 'Draining' && (c.timers.drainStep ?? Infinity) <= now);
  const outcome = {
    steps: 0,
    terminated: [] as DisruptionOutcome['terminated'][number][],
    evictionsRefused: 0,
    started: [] as DisruptionOutcome['started'][number][],
    decisions: [] as VoluntaryDecision[],
  };
  // Each batch of steps shares one provisioning run (see withSharedReplacementRun).
  // A due claim is handed to its step as read: the step's first write is conditional on its version.
  const steps =
    (batch: DisruptionDeps) =>
    async (item: string | NodeClaim): Promise<void> => {
      const done =
        typeof item === 'string' ? await drainStep(batch, item) : await drainStep(batch, item.id, item);
      outcome.steps++;
      outcome.evictionsRefused += done.refused;
      if (done.drainMs !== undefined && done.nodePool && done.cause)
        outcome.terminated.push({ nodePool: done.nodePool, cause: done.cause, drainMs: done.drainMs });
    };
  await inParallel<string | NodeClaim>(draining, steps(withSharedReplacementRun(deps)), deps, retryStepSoon);
  const wantsDecision =
    options.full || due.some((c) => DECISION_TIMERS.some((k) => (c.timers[k] ?? Infinity) <= now));
  const idle = { ...outcome, blocked: 0, armed: 0, disarmed: 0, decided: false };
  if (!wantsDecision) return idle;
  const leaseClock = deps.leaseClock ?? systemClock;
  const ttlMs = disruptionSettings(deps).leaseTtlMs;
  let lease = await deps.store.acquireLease(LEASE, randomUUID(), leaseClock.now(), ttlMs);
  if (!lease) {
    deps.log.debug('another disruption round holds the lease');
    // A deletion asks for its termination at once: look again soon rather than at the sweep.
    const deleted = due.filter((c) => (c.timers.deletion ?? Infinity) <= now);
    await inParallel(
      deleted.map((c) => c.id),
      (id) => deps.timers.schedule(id, now + LEASE_BUSY_RETRY_MS),
      deps,
    );
    return idle;
  }
  // The first steps of the drains this round starts run once the lease is released.
  const startedIds: string[] = [];
  let held = true;
  /**
   * Renews the lease before a drain starts: a round whose lease ran out and was taken by another
   * round decided from counts that round no longer sees, so it starts nothing (budgets hold).
   */
  const stillHeld = async (): Promise<boolean> => {
    if (!lease || !held) return false;
    const renewed = await deps.store.renewLease(lease, leaseClock.now(), ttlMs);
    if (renewed) {
      lease = renewed;
      return true;
    }
    held = false;
    deps.log.warn('lost the disruption lease, starting no drain');
    return false;
  };
  try {
    const view = await readDisruptionView(deps);
    await reportInvalidDoNotDisrupt(deps, podsOfClaims(view), view.now);
    if (options.full) await restampHashes(deps, view);
    const drift = options.full ? await findDrift(deps, view) : new Map();
    const dueEmptiness = new Set(
      view.claims.filter((c) => (c.timers.emptiness ?? Infinity) <= view.now).map((c) => c.id),
    );
    const settleMs = options.settleMs ?? 30_000;
    const nodeRepair = disruptionSettings(deps).nodeRepair;
    const round = decideRound({ view, drift, dueEmptiness, settleMs, nodeRepair });
    await retireDeleted(deps, round.retire);
    const unstarted = new Set(round.decisions.map((d) => d.claim.id));
    for (const decision of round.decisions) {
      if (!(await stillHeld())) break;
      try {
        const started = await start(deps, view, decision);
        if (!started) continue;
        unstarted.delete(decision.claim.id);
        const { claim, cause } = decision;
        outcome.started.push({ nodeClaim: claim.id, nodePool: claim.nodePool, cause });
        startedIds.push(claim.id);
        if (VOLUNTARY.has(cause))
          outcome.decisions.push({
            decision: decision.pods.some(isReschedulable) ? 'replace' : 'delete',
            reason: cause as VoluntaryDecision['reason'],
            nodes: 1,
          });
      } catch (error) {
        deps.log.error('failed to start disruption', { nodeclaim: decision.claim.id, error: String(error) });
      }
    }
    // One method per round, as Karpenter: consolidation only when nothing else moved.
    if (round.decisions.length === 0 && held) {
      const consolidation = await consolidate(deps, view, { propose: options.full, settleMs, stillHeld });
      for (const claim of consolidation.started) {
        outcome.started.push({ nodeClaim: claim.id, nodePool: claim.nodePool, cause: 'underutilized' });
        startedIds.push(claim.id);
      }
      if (consolidation.method && consolidation.started.length > 0)
        outcome.decisions.push({
          decision: consolidation.method,
          reason: 'underutilized',
          nodes: consolidation.started.length,
        });
    }
    const decided = new Set(round.decisions.map((d) => d.claim.id));
    await clearDeletionHints(deps, view, unstarted);
    const blocked = await reportBlocked(deps, view, round.blocked);
    const timers = await alignTimers(deps, view, round.notEmpty, decided, options.full);
    if (held) await deps.store.releaseLease(lease);
    held = false;
    // A few first steps here; the others come with the wake-up each new drain scheduled.
    await inParallel(startedIds.slice(0, INLINE_FIRST_STEPS), steps(withSharedReplacementRun(deps)), deps);
    return { ...outcome, blocked, ...timers, decided: true };
  } finally {
    if (held && lease) await deps.store.releaseLease(lease);
  }
}

/** The pods on the nodes of joiner's claims. */
function podsOfClaims(view: DisruptionView) {
  return view.claims.flatMap((c) => {
    const node = view.nodeOf(c);
    return node ? view.podsOn(node.metadata.name) : [];
  });
}

async function start(deps: DisruptionDeps, view: DisruptionView, d: Decision): Promise<boolean> {
  const grace = view.poolOf(d.claim)?.terminationGracePeriodMs;
  const stored = await beginDrain(deps, d.claim.id, {
    cause: d.cause,
    message: d.message,
    forceful: d.forceful,
    pods: d.pods.filter(isReschedulable).length,
    ...(d.forceAt !== undefined
      ? { forceAt: d.forceAt, replaceBy: d.forceAt }
      : grace === undefined
        ? {}
        : { forceAt: view.now + grace }),
    ...(d.replaceBy === undefined ? {} : { replaceBy: d.replaceBy }),
  });
  return stored !== undefined;
}

/**
 * Clears the due `deletion` timers (a deletion hint, see lifecycle/deletion-hint.ts) the round has
 * answered: the drain it started, or nothing deleted found in the API server. Claims whose drain
 * could not start keep theirs, so the next round tries again.
 */
async function clearDeletionHints(
  deps: DisruptionDeps,
  view: DisruptionView,
  keep: ReadonlySet<string>,
): Promise<void> {
  const due = view.claims.filter((c) => (c.timers.deletion ?? Infinity) <= view.now && !keep.has(c.id));
  await inParallel(
    due.map((c) => c.id),
    async (id) => {
      await updateClaim(deps.store, id, (c) =>
        (c.timers.deletion ?? Infinity) <= view.now ? withTimer(c, 'deletion', undefined) : undefined,
      );
    },
    deps,
  );
}

/** Ends deleted claims that have no node to drain: instance terminated, claim Gone. */
async function retireDeleted(deps: DisruptionDeps, retire: readonly Retirement[]): Promise<void> {
  await inParallel(
    retire.map((r) => ({ id: r.claim.id, message: r.message })),
    async ({ id, message }) => {
      const gone = await retireClaim(
        deps,
        id,
        { reason: 'Deleted', message },
        { warn: false, from: ['Launched', 'Registered', 'Initialized'] },
      );
      if (gone?.state === 'Gone') deps.log.info('terminated nodeclaim', { nodeclaim: id, reason: message });
    },
    deps,
  );
}

/** Blocked nodes: events, and a due emptiness / expiration timer moved later with the reason. */
async function reportBlocked(
  deps: DisruptionDeps,
  view: DisruptionView,
  blocked: readonly Blocked[],
): Promise<number> {
  if (blocked.length === 0) return 0;
  const retryAt = view.now + disruptionSettings(deps).blockedRetryMs;
  await inParallel(
    blocked,
    async (b) => {
      await updateClaim(deps.store, b.claim.id, (c) => {
        if (c.state !== 'Initialized') return undefined;
        const emptiness = c.timers.emptiness;
        const moved =
          emptiness !== undefined && emptiness <= view.now ? withTimer(c, 'emptiness', retryAt) : c;
        return { ...moved, blocked: { reason: b.message, at: view.now } };
      });
      await deps.cluster.createEvents(blockedEvents(b.node, b.pod, b.message));
    },
    deps,
  );
  const reasons = new Map<string, number>();
  for (const b of blocked) reasons.set(b.message, (reasons.get(b.message) ?? 0) + 1);
  deps.log.info('disruption blocked', {
    nodes: blocked.length,
    reasons: Object.fromEntries([...reasons].slice(0, 5)),
  });
  return blocked.length;
}

/**
 * Emptiness timers in line with the nodes: disarmed where pods came back; in a full round, armed
 * on empty initialized nodes that lack one (a node that never got a pod, pods that completed).
 * Due expiration timers of claims that are not candidates (still starting) are moved later.
 */
async function alignTimers(
  deps: DisruptionDeps,
  view: DisruptionView,
  notEmpty: readonly NodeClaim[],
  decided: ReadonlySet<string>,
  full: boolean,
): Promise<{ armed: number; disarmed: number }> {
  let armed = 0;
  let disarmed = 0;
  const retryAt = view.now + disruptionSettings(deps).blockedRetryMs;
  const changes: { claim: NodeClaim; kind: 'emptiness' | 'expiration'; dueAt: number | undefined }[] = [];
  for (const claim of notEmpty) changes.push({ claim, kind: 'emptiness', dueAt: undefined });
  for (const claim of view.claims) {
    if (decided.has(claim.id)) continue;
    const expiration = claim.timers.expiration;
    if (expiration !== undefined && expiration <= view.now && claim.state !== 'Initialized')
      changes.push({ claim, kind: 'expiration', dueAt: claim.state === 'Draining' ? undefined : retryAt });
    if (!full || claim.state !== 'Initialized' || notEmpty.includes(claim)) continue;
    const node = view.nodeOf(claim);
    const after = emptyFor(view.poolOf(claim));
    if (!node || after === undefined) continue;
    const empty = isEmptyNode(view.podsOn(node.metadata.name));
    if (empty && claim.timers.emptiness === undefined)
      changes.push({ claim, kind: 'emptiness', dueAt: view.now + after });
    else if (!empty && claim.timers.emptiness !== undefined)
      changes.push({ claim, kind: 'emptiness', dueAt: undefined });
  }
  await inParallel(
    changes,
    async ({ claim, kind, dueAt }) => {
      const stored = await updateClaim(deps.store, claim.id, (c) =>
        c.state !== claim.state || c.timers[kind] === dueAt ? undefined : withTimer(c, kind, dueAt),
      );
      if (kind !== 'emptiness' || !stored) return;
      if (dueAt === undefined) disarmed++;
      else {
        armed++;
        await deps.timers.schedule(claim.id, dueAt);
      }
    },
    deps,
  );
  if (armed + disarmed > 0) deps.log.debug('emptiness timers aligned', { armed, disarmed });
  return { armed, disarmed };
}

/** Re-stamps the hashes of initialized claims stamped under another hash version (hash-versions.ts). */
async function restampHashes(deps: DisruptionDeps, view: DisruptionView): Promise<void> {
  const stale = view.claims.filter((c) => c.state === 'Initialized' && !isCurrent(c));
  let done = 0;
  await inParallel(
    stale,
    async (claim) => {
      const stored = await updateClaim(deps.store, claim.id, (c) =>
        c.state === 'Initialized' ? restamped(c, view.poolOf(c), nodeClassOf(view, c)) : undefined,
      );
      if (stored && isCurrent(stored)) done++;
    },
    deps,
  );
  if (done > 0) deps.log.info('re-stamped nodeclaim hashes of another version', { nodeclaims: done });
}

function nodeClassOf(view: DisruptionView, claim: NodeClaim) {
  return view.config.nodeClasses.find((c) => c.name === claim.nodeClass);
}

/** How soon a drain step that failed (a 5xx, throttling) runs again, rather than at the next sweep. */
const STEP_RETRY_MS = 10_000;

/**
 * Arms a timer message for a claim whose drain step failed: a drain races a deadline (a spot
 * instance has two minutes), so it must not wait a whole minute for the sweep. Best effort: the
 * sweep still finds the claim due if the message is lost.
 */
async function retryStepSoon(deps: DisruptionDeps, id: string): Promise<void> {
  try {
    await deps.timers.schedule(id, deps.clock.now() + STEP_RETRY_MS);
  } catch (error) {
    deps.log.warn('could not arm the retry of a failed drain step, the sweep retries it', {
      nodeclaim: id,
      error: String(error),
    });
  }
}

/**
 * Runs `fn` over `items`, a few at a time; a failure is logged (and handed to `onFailure`) and
 * does not stop the others.
 */
async function inParallel<T extends string | { id?: string; claim?: { id: string } }>(
  items: readonly T[],
  fn: (item: T) => Promise<void>,
  deps: DisruptionDeps,
  onFailure?: (deps: DisruptionDeps, id: string) => Promise<void>,
): Promise<void> {
  const idOf = (item: T): string | undefined =>
    typeof item === 'string' ? item : (item.id ?? item.claim?.id);
  for (let i = 0; i < items.length; i += CONCURRENCY) {
    await Promise.all(
      items.slice(i, i + CONCURRENCY).map(async (item) => {
        try {
          await fn(item);
        } catch (error) {
          deps.log.error('disruption step failed', {
            nodeclaim: idOf(item),
            error: String(error),
          });
          const id = idOf(item);
          if (onFailure && id) await onFailure(deps, id);
        }
      }),
    );
  }
}
