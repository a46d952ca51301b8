/** Where a run sent each pod: the plan's log lines and the pods' Kubernetes Events. */

import { LAUNCH_FAILURE_REASONS } from '../launch/launch-denial.js';
import type { Pod } from '../model/kube-objects.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { ClusterApi, ClusterEvent } from '../ports/cluster-api.js';
import type { Log } from '../ports/log.js';
import type { SchedulingPool } from '../scheduling/types.js';
import type { RunPlan } from './plan-run.js';
import { failedSchedulingEvents, type Nomination, nominatedEvents } from './pod-events.js';
import type { FailedClaimResult } from './types.js';

/** Unschedulable pods logged one by one; the rest are counted. */
const MAX_LOGGED_FAILURES = 20;

/** The nominations of a run. */
export interface Nominations {
  readonly all: Nomination[];
  /** Pods the plan put on existing nodes. */
  readonly onNodes: number;
  /** Pods the plan put on in-flight nodeclaims. */
  readonly onInFlight: number;
}

/** Logs the plan the way Karpenter does. */
export function logPlan(log: Log, planned: RunPlan): void {
  const { plan } = planned;
  const inFlight = new Set(planned.inFlight.map((c) => c.id));
  if (plan.nodeClaims.length > 0) {
    const pods = plan.nodeClaims.reduce((n, c) => n + c.pods.length, 0);
    log.info('computed new nodeclaim(s) to fit pod(s)', { nodeclaims: plan.nodeClaims.length, pods });
    log.info(`computed packing of ${plan.nodeClaims.length} node(s) for ${pods} pod(s)`, {
      'scheduling-ms': Math.round(planned.schedulingMs),
    });
  }
  for (const placement of plan.existingPlacements) {
    const kind = inFlight.has(placement.node) ? 'in-flight nodeclaim' : 'existing node';
    log.info(`pod(s) fit on ${kind}`, { target: placement.node, pods: placement.pods.length });
  }
  for (const u of plan.unschedulable.slice(0, MAX_LOGGED_FAILURES)) {
    log.error('could not schedule pod', { pod: u.pod, reason: u.reason });
  }
  if (plan.unschedulable.length > MAX_LOGGED_FAILURES) {
    log.error(`could not schedule ${plan.unschedulable.length} pod(s)`, {
      unlogged: plan.unschedulable.length - MAX_LOGGED_FAILURES,
    });
  }
}

/** Pods nominated to the claims created in this run, to in-flight claims and to existing nodes. */
export function nominationsOf(planned: RunPlan, created: readonly NodeClaim[]): Nominations {
  const byUid = new Map(planned.pending.map((p) => [p.metadata.uid ?? '', p]));
  const all: Nomination[] = [];
  for (const claim of created) {
    for (const ref of claim.pods) {
      const pod = byUid.get(ref.uid);
      if (pod) all.push({ pod, target: `nodeclaim/${claim.id}` });
    }
  }
  const inFlight = new Set(planned.inFlight.map((c) => c.id));
  let onNodes = 0;
  let onInFlight = 0;
  for (const placement of planned.plan.existingPlacements) {
    const isClaim = inFlight.has(placement.node);
    for (const id of placement.pods) {
      const pod = planned.podsById.get(id);
      if (!pod) continue;
      all.push({ pod, target: `${isClaim ? 'nodeclaim' : 'node'}/${placement.node}` });
      if (isClaim) onInFlight++;
      else onNodes++;
    }
  }
  return { all, onNodes, onInFlight };
}

/**
 * Creates the Nominated and FailedScheduling events, and a Warning event on the NodePool of each
 * claim whose launch failed for a reason no other offering fixes (a refused permission, named in
 * the message). Best effort: the adapter never throws.
 */
export async function reportEvents(
  cluster: ClusterApi,
  planned: RunPlan,
  nominations: readonly Nomination[],
  failed: readonly FailedClaimResult[] = [],
): Promise<void> {
  const failures = planned.plan.unschedulable
    .map((u) => ({ pod: planned.podsById.get(u.pod), reason: u.reason }))
    .filter((f): f is { pod: Pod; reason: string } => f.pod !== undefined);
  const events = [
    ...nominatedEvents(nominations),
    ...failedSchedulingEvents(failures),
    ...launchFailureEvents(planned.pools, failed),
  ];
  if (events.length > 0) await cluster.createEvents(events);
}

/** One Warning event per NodePool and distinct failure among `failed` (see {@link LAUNCH_FAILURE_REASONS}). */
export function launchFailureEvents(
  pools: readonly SchedulingPool[],
  failed: readonly FailedClaimResult[],
): ClusterEvent[] {
  const seen = new Set<string>();
  const events: ClusterEvent[] = [];
  for (const f of failed) {
    if (!f.failure || !f.nodePool || !LAUNCH_FAILURE_REASONS.includes(f.failure.reason)) continue;
    const key = `${f.nodePool}\n${f.failure.reason}\n${f.failure.message}`;
    const pool = pools.find((p) => p.pool.name === f.nodePool)?.pool;
    if (!pool || seen.has(key)) continue;
    seen.add(key);
    events.push({
      involvedObject: { kind: pool.source.kind, apiVersion: pool.source.apiVersion, name: pool.name },
      type: 'Warning',
      reason: f.failure.reason,
      message: `Launching nodeclaim ${f.nodeClaim} failed: ${f.failure.message}`,
    });
  }
  return events;
}
