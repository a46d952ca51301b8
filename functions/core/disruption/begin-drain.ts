/**
 * Starts a drain: the claim goes `Draining` with its disruption record (one conditional write),
 * the node gets the `karpenter.sh/disrupted:NoSchedule` taint, and the first drain step is due at
 * once. Starting a drain that is already running changes nothing, except that a forceful cause
 * takes over a voluntary drain (it may no longer be cancelled), and that a step already due is
 * scheduled again (the start may have died before scheduling it).
 */
import { isNodeOf } from '../lifecycle/claim-node.js';
import { DISRUPTED_TAINT, hasTaint, taintsOf } from '../lifecycle/node-labels.js';
import { updateClaim } from '../lifecycle/update-claim.js';
import type { DisruptionCause, DisruptionRecord } from '../nodeclaim/disruption-record.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { transition, withTimer } from '../nodeclaim/state-machine.js';
import type { DisruptionDeps } from './disruption-deps.js';
import { disruptionSettings } from './disruption-deps.js';
import { isReschedulable } from './pod-policy.js';

/** What starts a drain. */
export interface DrainStart {
  readonly cause: DisruptionCause;
  readonly message: string;
  /** The failure reason the retired claim records (default: the cause's). */
  readonly reason?: string;
  readonly forceful: boolean;
  /** Deadline after which the pods left are deleted and the instance terminated. */
  readonly forceAt?: number;
  /** The replacement must be initialized by then (default: now + replaceWithinMs). */
  readonly replaceBy?: number;
  /** Pods on the node when the decision was made (for the log line). */
  readonly pods?: number;
  /** The caller logs the decision itself (a consolidation move names all its nodes in one line). */
  readonly quiet?: boolean;
  /**
   * The pods already have room on the nodes that stay, checked just before (a consolidation
   * delete, re-validated on the cluster as it is): the drain evicts from its first step, without
   * a provisioning run per step, as Karpenter drains a delete command's nodes at once.
   */
  readonly evictNow?: boolean;
}

/** What starting a drain needs. */
export type BeginDrainDeps = Pick<DisruptionDeps, 'clock' | 'log' | 'timers' | 'disruptionSettings'> & {
  readonly store: Pick<DisruptionDeps['store'], 'getNodeClaim' | 'updateNodeClaim'>;
  readonly cluster: Pick<
    DisruptionDeps['cluster'],
    'getNode' | 'patchNode' | 'createEvents' | 'listPodsOnNode'
  >;
};

const DRAINABLE_STATES = ['Registered', 'Initialized', 'Draining'] as const;

/**
 * Starts (or escalates) the drain of claim `id`. Returns the claim as stored, Draining, or
 * undefined. `known`: the claim as the caller has just read it, not read again (the write is
 * conditional on its version).
 */
export async function beginDrain(
  deps: BeginDrainDeps,
  id: string,
  start: DrainStart,
  known?: NodeClaim,
): Promise<NodeClaim | undefined> {
  const now = deps.clock.now();
  let started = false;
  const stored = await updateClaim(
    deps.store,
    id,
    (c) => {
      started = false;
      if (!(DRAINABLE_STATES as readonly string[]).includes(c.state)) return undefined;
      if (c.state === 'Draining') return escalated(c, start);
      started = true;
      const record: DisruptionRecord = {
        cause: start.cause,
        message: start.message,
        ...(start.reason === undefined ? {} : { reason: start.reason }),
        forceful: start.forceful,
        startedAt: now,
        ...(start.evictNow ? { phase: 'evicting', evictingSince: now } : { phase: 'replacing' }),
        replaceBy: start.replaceBy ?? now + disruptionSettings(deps).replaceWithinMs,
        ...(start.forceAt === undefined ? {} : { forceAt: start.forceAt }),
      };
      const { blocked: _cleared, ...rest } = transition(c, 'Draining', now, { disruption: record });
      return withTimer(rest, 'drainStep', now);
    },
    known,
  );
  if (!stored || stored.state !== 'Draining') return undefined;
  // The recorded name only while it is still this instance's Node (names are reused by EC2).
  const own = stored.nodeName ? await taintNode(deps, stored.nodeName, stored.instance?.instanceId) : false;
  const nodeName = own ? stored.nodeName : undefined;
  if (started) {
    const pods =
      start.pods ??
      (nodeName ? (await deps.cluster.listPodsOnNode(nodeName)).filter(isReschedulable).length : 0);
    if (!start.quiet) logDisruption(deps, stored, { ...start, pods });
    await deps.cluster.createEvents(
      nodeName
        ? [
            {
              involvedObject: { kind: 'Node', name: nodeName, apiVersion: 'v1' },
              type: 'Normal',
              reason: 'DisruptionTerminating',
              message: `Disrupting Node: ${start.cause}: ${start.message}`,
            },
          ]
        : [],
    );
    await deps.timers.schedule(stored.id, now);
  } else if (stored.timers.drainStep !== undefined && stored.timers.drainStep <= now) {
    // A drain whose first step is due but may never have been scheduled: the delivery that started
    // it can have died after its write (after the taint, say), and a spot drain cannot wait for the
    // sweep. A redelivery schedules it again; a duplicate step is harmless (the step takes its turn
    // with a conditional write).
    await deps.timers.schedule(stored.id, stored.timers.drainStep);
  }
  return stored;
}

/** A running voluntary drain taken over by a forceful cause; undefined when nothing changes. */
function escalated(claim: NodeClaim, start: DrainStart): NodeClaim | undefined {
  const current = claim.disruption;
  if (!current || current.forceful || !start.forceful) return undefined;
  const forceAt =
    current.forceAt === undefined || start.forceAt === undefined
      ? (current.forceAt ?? start.forceAt)
      : Math.min(current.forceAt, start.forceAt);
  const disruption: DisruptionRecord = {
    ...current,
    cause: start.cause,
    message: start.message,
    forceful: true,
    ...(forceAt === undefined ? {} : { forceAt }),
    ...(start.replaceBy === undefined ? {} : { replaceBy: Math.min(current.replaceBy, start.replaceBy) }),
  };
  return { ...claim, disruption };
}

/**
 * Adds the disrupted taint to the node if it lacks it; with `instanceId`, only while the node of
 * that name is that instance's (claim-node.ts). Returns whether the node is there and the instance's.
 */
export async function taintNode(
  deps: Pick<BeginDrainDeps, 'cluster'>,
  nodeName: string,
  instanceId?: string,
): Promise<boolean> {
  const node = await deps.cluster.getNode(nodeName);
  if (!node || !isNodeOf(node, instanceId)) return false;
  const taints = taintsOf(node);
  if (!hasTaint(taints, DISRUPTED_TAINT))
    await deps.cluster.patchNode(nodeName, { taints: [...taints, DISRUPTED_TAINT] });
  return true;
}

/** Karpenter's line: `disrupting node(s) via delete, terminating 1 node(s) (3 pods) name/type/capacity`. */
function logDisruption(deps: Pick<BeginDrainDeps, 'log'>, claim: NodeClaim, start: DrainStart): void {
  const i = claim.instance;
  const what = [claim.nodeName ?? claim.id, i?.instanceType, i?.capacityType].filter(Boolean).join('/');
  deps.log.info(`disrupting node(s) via delete, terminating 1 node(s) (${start.pods ?? 0} pods) ${what}`, {
    reason: start.cause,
    detail: start.message,
    nodeclaim: claim.id,
    nodepool: claim.nodePool,
    forceful: start.forceful,
    ...(start.forceAt === undefined ? {} : { 'force-at': new Date(start.forceAt).toISOString() }),
  });
}
