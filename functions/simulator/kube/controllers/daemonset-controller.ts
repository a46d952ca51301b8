/**
 * The DaemonSet controller: one pod per node the daemonset's template selects and tolerates,
 * created already bound to its node (with the node-name affinity the real controller sets) and
 * with the tolerations daemonset pods get automatically.
 */
import type { DaemonSet, Node, Pod } from '../../../core/model/kube-objects.js';
import type { Toleration } from '../../../core/model/taint.js';
import { matchesNodeAffinity } from '../../../core/scheduling/node-affinity.js';
import { untoleratedTaint } from '../../../core/scheduling/tolerations.js';
import { deepCopy } from '../api/deep-copy.js';
import type { KubeApi } from '../api/kube-api.js';
import type { KubeObject } from '../api/object-store.js';

const USER = 'system:serviceaccount:kube-system:daemon-set-controller';

const AUTO_TOLERATIONS: Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' },
];

/** Whether the daemonset should run a pod on the node. */
export function daemonSetWantsNode(ds: DaemonSet, node: Node): boolean {
  if (node.metadata.deletionTimestamp) return false;
  const pod = { metadata: { name: ds.metadata.name }, spec: ds.spec.template.spec } as Pod;
  const labels = { 'kubernetes.io/hostname': node.metadata.name, ...(node.metadata.labels ?? {}) };
  if (!matchesNodeAffinity(pod, labels)) return false;
  const taints = node.spec?.taints ?? [];
  return (
    untoleratedTaint([...(ds.spec.template.spec.tolerations ?? []), ...AUTO_TOLERATIONS], taints) ===
    undefined
  );
}

/** Creates the missing daemonset pods and removes those of nodes no longer selected. */
export async function reconcileDaemonSets(api: KubeApi): Promise<void> {
  const podType = api.typeOf('v1', 'Pod');
  const dsType = api.typeOf('apps/v1', 'DaemonSet');
  const nodes = api.view(api.typeOf('v1', 'Node')) as unknown as readonly Node[];
  for (const ds of api.view(dsType) as unknown as readonly DaemonSet[]) {
    const pods = (
      api.view(podType, { namespace: ds.metadata.namespace }) as unknown as readonly Pod[]
    ).filter((p) => (p.metadata.ownerReferences ?? []).some((r) => r.uid === ds.metadata.uid));
    const byNode = new Map<string, Pod[]>();
    for (const p of pods) {
      if (!p.spec.nodeName || p.metadata.deletionTimestamp) continue;
      byNode.set(p.spec.nodeName, [...(byNode.get(p.spec.nodeName) ?? []), p]);
    }
    for (const node of nodes) {
      const mine = byNode.get(node.metadata.name) ?? [];
      const wanted = daemonSetWantsNode(ds, node);
      if (wanted && mine.length === 0)
        await api.create(podType, ds.metadata.namespace, daemonPod(ds, node.metadata.name), { user: USER });
      if (!wanted)
        for (const p of mine)
          await api.delete(podType, p.metadata.namespace, p.metadata.name, { user: USER, cause: 'owner' });
    }
    const scheduled = nodes.filter((n) => daemonSetWantsNode(ds, n)).length;
    const status = {
      desiredNumberScheduled: scheduled,
      currentNumberScheduled: scheduled,
      numberReady: pods.filter((p) => p.status?.phase === 'Running').length,
      numberMisscheduled: 0,
    };
    const fresh = api.find(dsType, ds.metadata.namespace, ds.metadata.name);
    if (
      fresh &&
      JSON.stringify({ ...(fresh.status as object), ...status }) !== JSON.stringify(fresh.status)
    ) {
      await api.replace(
        dsType,
        ds.metadata.namespace,
        ds.metadata.name,
        { ...fresh, status: { ...(fresh.status as object), ...status } },
        'status',
        { user: USER },
      );
    }
  }
}

function daemonPod(ds: DaemonSet, nodeName: string): KubeObject {
  const spec = deepCopy(ds.spec.template.spec);
  spec.nodeName = nodeName;
  spec.tolerations = [...(spec.tolerations ?? []), ...AUTO_TOLERATIONS];
  spec.affinity = {
    ...spec.affinity,
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
      },
    },
  };
  return {
    metadata: {
      generateName: `${ds.metadata.name}-`,
      name: '',
      namespace: ds.metadata.namespace,
      labels: { ...ds.spec.template.metadata?.labels },
      annotations: { ...ds.spec.template.metadata?.annotations },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          name: ds.metadata.name,
          uid: ds.metadata.uid,
          controller: true,
        },
      ],
    },
    spec,
  };
}
