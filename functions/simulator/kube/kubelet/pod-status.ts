/** The pod statuses a kubelet writes: Running (Ready or not yet) for a started pod. */
import type { Pod } from '../../../core/model/kube-objects.js';
import { timestamp } from '../api/object-defaults.js';

/** Whether a pod is the Multus daemonset's pod (becomes Ready only after a further delay). */
export function isMultusPod(pod: Pod): boolean {
  const owner = pod.metadata.ownerReferences?.find((o) => o.kind === 'DaemonSet');
  return (
    (owner !== undefined && /multus/i.test(owner.name)) ||
    pod.metadata.labels?.app === 'multus' ||
    pod.metadata.labels?.name === 'multus'
  );
}

/** The status of a started pod on `hostIP` with `podIP`. */
export function runningStatus(
  pod: Pod,
  nowMs: number,
  ips: { hostIP: string; podIP: string },
  ready: boolean,
): Record<string, unknown> {
  const now = timestamp(nowMs);
  const flag = ready ? 'True' : 'False';
  const cond = (type: string, status: string) => ({
    type,
    status,
    lastProbeTime: null,
    lastTransitionTime: now,
  });
  return {
    ...pod.status,
    phase: 'Running',
    hostIP: ips.hostIP,
    hostIPs: [{ ip: ips.hostIP }],
    podIP: ips.podIP,
    podIPs: [{ ip: ips.podIP }],
    startTime: (pod.status?.startTime as string | undefined) ?? now,
    conditions: [
      cond('PodReadyToStartContainers', 'True'),
      cond('Initialized', 'True'),
      cond('Ready', flag),
      cond('ContainersReady', flag),
      cond('PodScheduled', 'True'),
    ],
    containerStatuses: pod.spec.containers.map((c) => ({
      name: c.name,
      image: c.image ?? '',
      imageID: '',
      containerID: `containerd://${pod.metadata.uid ?? ''}-${c.name}`,
      ready,
      started: true,
      restartCount: 0,
      state: { running: { startedAt: now } },
    })),
  };
}
