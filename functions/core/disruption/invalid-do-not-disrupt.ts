/**
 * Pods whose `karpenter.sh/do-not-disrupt` value is neither `"true"` nor a positive Go duration.
 * Karpenter ignores such a value (the pod may be disrupted) and says so with a Warning event
 * `InvalidDoNotDisruptAnnotation` on the pod; joiner does the same, once per pod and value: a
 * record in the state store (shared by every invocation) keeps later rounds quiet.
 */
import type { Pod } from '../model/kube-objects.js';
import type { ClusterApi, ClusterEvent } from '../ports/cluster-api.js';
import type { Log } from '../ports/log.js';
import type { StateStore } from '../ports/state-store.js';
import { ANNOTATION_DO_NOT_DISRUPT, doNotDisrupt, isTerminalPod, isTerminatingPod } from './pod-policy.js';

/** The event's reason, Karpenter's. */
export const INVALID_DO_NOT_DISRUPT_REASON = 'InvalidDoNotDisruptAnnotation';
/** How long a reported pod and value stay reported (the pod's uid is in the key, so a new pod reports again). */
const REPORTED_FOR_MS = 30 * 24 * 3_600_000;
/** Longest annotation value quoted in a record key. */
const MAX_KEY_VALUE = 200;

/** The Warning event for a pod whose annotation is ignored because of `why`. */
export function invalidDoNotDisruptEvent(pod: Pod, why: string): ClusterEvent {
  return {
    involvedObject: {
      kind: 'Pod',
      name: pod.metadata.name,
      namespace: pod.metadata.namespace ?? 'default',
      ...(pod.metadata.uid ? { uid: pod.metadata.uid } : {}),
      apiVersion: 'v1',
    },
    type: 'Warning',
    reason: INVALID_DO_NOT_DISRUPT_REASON,
    message: `Invalid ${ANNOTATION_DO_NOT_DISRUPT} annotation: ${why}, ignoring annotation`,
  };
}

/**
 * Reports the live pods among `pods` whose do-not-disrupt value is invalid and not reported yet:
 * one Warning event each and one log line for them all. Best effort: a record that cannot be
 * written is reported by a later round; events the API server refuses are logged, not retried.
 * Returns how many were reported.
 */
export async function reportInvalidDoNotDisrupt(
  deps: {
    readonly store: Pick<StateStore, 'recordOnce'>;
    readonly cluster: Pick<ClusterApi, 'createEvents'>;
    readonly log: Log;
  },
  pods: readonly Pod[],
  now: number,
): Promise<number> {
  const events: ClusterEvent[] = [];
  for (const pod of pods) {
    if (isTerminalPod(pod) || isTerminatingPod(pod)) continue;
    const why = doNotDisrupt(pod, now).invalid;
    if (why === undefined) continue;
    const value = String(pod.metadata.annotations?.[ANNOTATION_DO_NOT_DISRUPT]).slice(0, MAX_KEY_VALUE);
    const id = pod.metadata.uid ?? `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`;
    try {
      if (await deps.store.recordOnce(`invalid-do-not-disrupt#${id}#${value}`, now, REPORTED_FOR_MS))
        events.push(invalidDoNotDisruptEvent(pod, why));
    } catch (error) {
      deps.log.warn('could not record an invalid do-not-disrupt report', { error: String(error) });
    }
  }
  if (events.length === 0) return 0;
  deps.log.warn(`ignoring invalid ${ANNOTATION_DO_NOT_DISRUPT} annotations`, {
    pods: events.slice(0, 10).map((e) => `${e.involvedObject.namespace}/${e.involvedObject.name}`),
    count: events.length,
  });
  try {
    await deps.cluster.createEvents(events);
  } catch (error) {
    deps.log.warn('could not create the invalid do-not-disrupt events', { error: String(error) });
  }
  return events.length;
}
