/**
 * Waking the provisioner at once after EC2 terminated an instance during launch for want of
 * capacity (launch-terminated.ts): its offering is marked unavailable, so a provisioning run now
 * launches the claim's pods in another offering. Without the hint they would wait for the
 * one-minute sweep's safety net. The hint is a PodUnschedulable event per pod of the claim (a
 * ConfigurationChanged event for its NodePool when a static pool made it), as the webhook would
 * send (at most {@link MAX_HINTED_PODS}: any one wakes a run): the run re-reads every pending pod and plans them under the provisioning lease, so a
 * duplicate hint launches nothing twice.
 *
 * Bounded, so a pool whose every offering loses its capacity does not relaunch in a tight loop:
 * - each hint follows a marked offering, which stays unavailable for 3 minutes;
 * - only a NodePool's first {@link MAX_IMMEDIATE_RELAUNCHES} claims that failed so within those 3
 *   minutes get one; after them the sweep relaunches within a minute, as before;
 * - a NodeClass cause (KMS key, volume limit) sends none: its launch backoff (1, 2, 4, 8, 15
 *   minutes) would refuse the launch, and the sweep wakes the provisioner after it.
 */
import { DETAIL_TYPES } from '../../shared/event-rules.js';
import { podUnschedulableHints } from '../events/pod-unschedulable-hints.js';
import type { LaunchTermination } from '../launch/launch-termination.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { EventPublisher, JoinerEvent } from '../ports/event-publisher.js';
import type { Log } from '../ports/log.js';
import { type StateStore, UNAVAILABLE_OFFERING_TTL_MS } from '../ports/state-store.js';

/** Launch-time capacity failures of one NodePool within 3 minutes after which the sweep relaunches. */
export const MAX_IMMEDIATE_RELAUNCHES = 5;

/** Pods named in one hint (one PutEvents call); the run plans every pending pod anyway. */
export const MAX_HINTED_PODS = 10;

/** Failure reasons of a launch-time termination whose offering was marked (launch-termination.ts). */
const OFFERING_REASONS = ['InsufficientCapacity', 'LaunchServerError'];

/** What sending the hint needs. */
export interface RelaunchHintDeps {
  readonly store: Pick<StateStore, 'listNodeClaims'>;
  readonly clock: { now(): number };
  readonly log: Log;
  /** joiner's bus; without it (a caller that cannot publish) the sweep relaunches. */
  readonly events?: EventPublisher;
}

/** The NodePool document's API group and kind, for a static pool's ConfigurationChanged hint. */
export interface PoolRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
}

/**
 * Sends the relaunch hint for `claim` (just retired for `termination`) when the rules of the file
 * comment allow it; returns whether it was sent. Never throws: the sweep is the fallback.
 */
export async function hintRelaunch(
  deps: RelaunchHintDeps,
  claim: NodeClaim,
  termination: LaunchTermination,
  pool?: PoolRef,
): Promise<boolean> {
  if (!deps.events || termination.cause !== 'offering') return false;
  try {
    const now = deps.clock.now();
    const recent = (await deps.store.listNodeClaims(['Terminating', 'Gone'])).filter(
      (c) =>
        c.nodePool === claim.nodePool &&
        c.failure !== undefined &&
        OFFERING_REASONS.includes(c.failure.reason) &&
        now - (c.timestamps.Terminating ?? c.timestamps.Gone ?? 0) < UNAVAILABLE_OFFERING_TTL_MS,
    );
    if (recent.length > MAX_IMMEDIATE_RELAUNCHES) {
      deps.log.info('many launches of the NodePool lost their capacity, the sweep relaunches', {
        nodeclaim: claim.id,
        nodepool: claim.nodePool,
        failures: recent.length,
      });
      return false;
    }
    const events = hintsFor(claim, pool, now);
    if (events.length === 0) return false;
    await deps.events.publish(events);
    deps.log.info('asked the provisioner to relaunch in another offering', {
      nodeclaim: claim.id,
      pods: claim.pods.length,
    });
    return true;
  } catch (error) {
    deps.log.warn('could not ask for a relaunch, the sweep relaunches', {
      nodeclaim: claim.id,
      error: (error as Error).message,
    });
    return false;
  }
}

function hintsFor(claim: NodeClaim, pool: PoolRef | undefined, time: number): JoinerEvent[] {
  if (claim.pods.length > 0) return podUnschedulableHints(claim.pods.slice(0, MAX_HINTED_PODS), time);
  if (!pool) return [];
  return [
    {
      detailType: DETAIL_TYPES.configurationChanged,
      detail: { group: pool.apiVersion.split('/')[0], kind: pool.kind, name: pool.name },
      time,
    },
  ];
}
