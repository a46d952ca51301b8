/**
 * PodUnschedulable hints that joiner sends itself (the sweep's safety net, a provisioning run's
 * hand-over, a relaunch after lost capacity), in the shape the webhook sends: the pod's reference,
 * nothing else. Any one hint wakes a provisioning run that plans every pending pod.
 */
import { DETAIL_TYPES } from '../../shared/event-rules.js';
import type { JoinerEvent } from '../ports/event-publisher.js';
import type { PodRefDetail } from './joiner-events.js';

/** One PodUnschedulable event per pod, stamped `time`. */
export function podUnschedulableHints(pods: readonly PodRefDetail[], time: number): JoinerEvent[] {
  return pods.map(({ namespace, name, uid }) => ({
    detailType: DETAIL_TYPES.podUnschedulable,
    detail: { namespace, name, uid },
    time,
  }));
}
