/**
 * The disruption function's sweep (every minute) and its timer wake-ups (timers queue): launches a
 * crash left unfinished are resumed first (resume-launches.ts), then the lifecycle timers (launch,
 * registration, termination) of every due claim, then the disruption round (drain steps, decisions, emptiness timers), then the orphan GC and the GC of
 * deleted NodeClasses' instance profiles, then the safety net, so pods a timeout released are offered to the provisioner in the same minute
 * (and static NodePools that lack nodes wake it too),
 * then the status kubectl shows (NodeClaim resources, NodePool and NodeClass status), then the
 * refusal of karpenter.sh NodeClaims created by hand (hand-made-nodeclaims.ts).
 */
import type { DisruptionOutcome } from '../disruption/run-disruption.js';
import { runDisruption } from '../disruption/run-disruption.js';
import type { PodRefDetail } from '../events/joiner-events.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { refuseHandMadeNodeClaims } from '../status/hand-made-nodeclaims.js';
import { podStartupSeconds, type TimeWindow } from '../status/pod-startup.js';
import { reportStatus, type StatusOutcome } from '../status/report-status.js';
import type { TimerOutcome } from './due-timers.js';
import { actOnDueTimers, actOnDueTimersOf } from './due-timers.js';
import { collectNodeClassResources } from './nodeclass-resources.js';
import type { OrphanOutcome } from './orphans.js';
import { collectOrphans } from './orphans.js';
import { type ResumeOutcome, resumeStalledLaunches } from './resume-launches.js';
import { republishUnschedulable } from './safety-net.js';
import { wakeStaticPools } from './static-wake.js';
import type { SweepDeps } from './sweep-deps.js';
import { sweepSettings } from './sweep-deps.js';

/** What one sweep did. */
export interface SweepOutcome {
  /** Pending claims whose launch a crash left unfinished, and which of them the sweep resumed. */
  readonly resumedLaunches: ResumeOutcome;
  readonly timers: readonly TimerOutcome[];
  readonly disruption: DisruptionOutcome;
  readonly orphans: OrphanOutcome;
  /** Cloud resources of deleted NodeClasses deleted (instance profile names). */
  readonly nodeClassResources: readonly string[];
  readonly republished: readonly PodRefDetail[];
  /** Static NodePools that lacked nodes: a provisioning run was woken for them. */
  readonly staticPoolsWoken: readonly string[];
  readonly status: StatusOutcome;
  /** Seconds from creation to Ready of the pods that turned Ready in the sweep's window. */
  readonly podStartups: readonly number[];
  /** karpenter.sh NodeClaims created by hand that this sweep refused (see hand-made-nodeclaims.ts). */
  readonly handMadeNodeClaims?: readonly string[];
}

/** A timers-queue message: wake up `nodeClaimId` at `dueAt`. */
export interface TimerMessage {
  readonly nodeClaimId: string;
  readonly dueAt: number;
}

/**
 * Runs one sweep (see the file comment). One failing claim does not stop the others. `window` is
 * the time whose pod startups the sweep measures (the schedule's interval before its scheduled time).
 */
export async function runSweep(deps: SweepDeps, window?: TimeWindow): Promise<SweepOutcome> {
  // Stalled launches are resumed before their launch timeout is looked at.
  const resumedLaunches = await resumeStalledLaunches(deps);
  const due = await deps.store.listDueNodeClaims(deps.clock.now(), sweepSettings(deps).dueLimit);
  const timers: TimerOutcome[] = [];
  for (let i = 0; i < due.length; i += CONCURRENCY) {
    const outcomes = await Promise.all(due.slice(i, i + CONCURRENCY).map((c) => ownTimers(deps, c.id)));
    for (const o of outcomes) if (o) timers.push(o);
  }
  const disruption = await runDisruption(deps, due, { full: true });
  const orphans = await collectOrphans(deps);
  const nodeClassResources = await collectNodeClassResources(deps);
  const republished = await republishUnschedulable(deps);
  const staticPools = await wakeStaticPools(deps).catch((error: unknown) => {
    deps.log.warn('could not check static NodePools, the next sweep does', { error: String(error) });
    return [];
  });
  const status = await reportStatus(deps);
  const handMadeNodeClaims = await refuseHandMadeNodeClaims(
    deps.cluster,
    deps.log,
    deps.karpenterKinds,
    deps.clock.now(),
  );
  const podStartups = window ? await measurePodStartups(deps, window) : [];
  return {
    resumedLaunches,
    timers,
    disruption,
    orphans,
    nodeClassResources,
    republished,
    staticPoolsWoken: staticPools,
    status,
    podStartups,
    ...(handMadeNodeClaims.length > 0 ? { handMadeNodeClaims } : {}),
  };
}

/** Pod startup durations of `window`; a failed read is logged and measures nothing (a metric only). */
async function measurePodStartups(deps: SweepDeps, window: TimeWindow): Promise<number[]> {
  try {
    return podStartupSeconds(await deps.cluster.listPodsOnNode(), window);
  } catch (error) {
    deps.log.warn('could not read pods to measure their startup', { error: String(error) });
    return [];
  }
}

/** Due claims whose lifecycle timers are acted on at once. */
const CONCURRENCY = 8;

async function ownTimers(deps: SweepDeps, id: string): Promise<TimerOutcome | undefined> {
  try {
    return await actOnDueTimers(deps, id);
  } catch (error) {
    deps.log.error('failed to act on nodeclaim timers', { nodeclaim: id, error: String(error) });
    return undefined;
  }
}

/**
 * Acts on the due timers of the claim a timers-queue message names. A message that arrives early
 * (clock skew) or for a claim whose timer moved finds nothing due and does nothing; the sweep
 * catches what is due later.
 */
export async function handleTimerMessage(
  deps: SweepDeps,
  message: TimerMessage,
): Promise<TimerOutcome & { readonly disruption?: DisruptionOutcome }> {
  const batch = await handleTimerMessages(deps, [message]);
  const outcome = batch.outcomes[0];
  if (outcome instanceof Error) throw outcome;
  return { ...outcome, ...(batch.disruption ? { disruption: batch.disruption } : {}) };
}

/** What a batch of timers-queue messages did: per message its outcome or its error, in order. */
export interface TimerBatchOutcome {
  readonly outcomes: readonly (TimerOutcome | Error)[];
  /** The one disruption round of the batch, when a claim had due disruption timers. */
  readonly disruption?: DisruptionOutcome;
}

/**
 * Acts on a batch of timers-queue messages: each claim's own timers (launch, registration,
 * termination check) first, then one disruption round for every claim of the batch whose due
 * timers are the round's (drain steps, emptiness, consolidation, ...). A burst of wake-ups (nodes
 * emptied one after another, drains stepping together) reads the cluster once per batch instead
 * of once per message. When that round fails, every message that was waiting for it fails (and is
 * delivered again).
 */
export async function handleTimerMessages(
  deps: SweepDeps,
  messages: readonly TimerMessage[],
): Promise<TimerBatchOutcome> {
  const outcomes: (TimerOutcome | Error)[] = [];
  const waiting: number[] = [];
  const ids = new Set<string>();
  // Claims as read by their message when it acted on nothing (the stored version, not read again).
  const unchanged = new Map<string, NodeClaim>();
  for (const message of messages) {
    try {
      const { outcome, unchanged: read } = await actOnDueTimersOf(deps, message.nodeClaimId);
      if (read) unchanged.set(read.id, read);
      else unchanged.delete(message.nodeClaimId);
      outcomes.push(outcome);
      if (outcome.deferred.length > 0) {
        waiting.push(outcomes.length - 1);
        ids.add(message.nodeClaimId);
      }
    } catch (error) {
      unchanged.delete(message.nodeClaimId);
      outcomes.push(error instanceof Error ? error : new Error(String(error)));
    }
  }
  if (ids.size === 0) return { outcomes };
  try {
    const claims = (
      await Promise.all([...ids].map(async (id) => unchanged.get(id) ?? (await deps.store.getNodeClaim(id))))
    ).filter((c) => c !== undefined);
    if (claims.length === 0) return { outcomes };
    const disruption = await runDisruption(deps, claims, { full: false });
    for (const i of waiting) {
      const o = outcomes[i] as TimerOutcome;
      outcomes[i] = { ...o, handled: [...o.handled, ...o.deferred], deferred: [] };
    }
    return { outcomes, disruption };
  } catch (error) {
    const failed = error instanceof Error ? error : new Error(String(error));
    for (const i of waiting) outcomes[i] = failed;
    return { outcomes };
  }
}
