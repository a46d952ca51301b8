/** The Kubernetes Events a provisioning run leaves on pods (Karpenter's wording). */
import type { Pod } from '../model/kube-objects.js';
import type { ClusterEvent } from '../ports/cluster-api.js';

/** A pod and where it should schedule: `nodeclaim/<id>` or `node/<name>`. */
export interface Nomination {
  readonly pod: Pod;
  readonly target: string;
}

function involved(pod: Pod): ClusterEvent['involvedObject'] {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    name: pod.metadata.name,
    namespace: pod.metadata.namespace ?? 'default',
    ...(pod.metadata.uid ? { uid: pod.metadata.uid } : {}),
  };
}

/** `Normal Nominated: Pod should schedule on: nodeclaim/<id>` for each nomination. */
export function nominatedEvents(nominations: readonly Nomination[]): ClusterEvent[] {
  return nominations.map((n) => ({
    involvedObject: involved(n.pod),
    type: 'Normal',
    reason: 'Nominated',
    message: `Pod should schedule on: ${n.target}`,
  }));
}

/** `Warning FailedScheduling: Failed to schedule pod, <reason>` for each pod that cannot be placed. */
export function failedSchedulingEvents(failures: readonly { pod: Pod; reason: string }[]): ClusterEvent[] {
  return failures.map((f) => ({
    involvedObject: involved(f.pod),
    type: 'Warning',
    reason: 'FailedScheduling',
    message: `Failed to schedule pod, ${f.reason}`,
  }));
}
