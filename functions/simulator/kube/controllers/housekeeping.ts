/**
 * Small control-plane loops: pod garbage collection (pods bound to nodes that no longer exist, and
 * pods of deleted owners) and PodDisruptionBudget status from the live pods.
 */
import type { Pod, PodDisruptionBudget } from '../../../core/model/kube-objects.js';
import { controllerScales } from '../api/controller-scale.js';
import { budgetStatus, pendingDisruptedPods } from '../api/disruption-budget.js';
import type { KubeApi } from '../api/kube-api.js';
import type { KubeObject } from '../api/object-store.js';

/**
 * Removes pods whose node is gone, and objects whose controller owner is gone. With `changedPods`
 * (store keys, `namespace/name`) only those pods are checked: the caller knows no node or owner
 * went away since every other pod was last checked.
 */
export async function collectGarbage(api: KubeApi, changedPods?: ReadonlySet<string>): Promise<void> {
  const podType = api.typeOf('v1', 'Pod');
  const nodes = new Set(api.view(api.typeOf('v1', 'Node')).map((n) => n.metadata.name));
  const owners = new Set<string>();
  for (const [v, k] of [
    ['apps/v1', 'ReplicaSet'],
    ['apps/v1', 'Deployment'],
    ['apps/v1', 'DaemonSet'],
    ['apps/v1', 'StatefulSet'],
  ]) {
    for (const o of api.view(api.typeOf(v, k))) owners.add(o.metadata.uid ?? '');
  }
  const orphaned = (o: KubeObject): boolean =>
    (o.metadata.ownerReferences ?? []).some(
      (r) =>
        r.controller &&
        ['ReplicaSet', 'Deployment', 'DaemonSet', 'StatefulSet'].includes(r.kind) &&
        !owners.has(r.uid ?? ''),
    );
  const pods =
    changedPods === undefined
      ? api.view(podType)
      : [...changedPods].sort().flatMap((key) => {
          const slash = key.indexOf('/');
          const pod = api.peek(podType, key.slice(0, slash), key.slice(slash + 1));
          return pod ? [pod] : [];
        });
  for (const pod of pods) {
    const nodeName = (pod as unknown as Pod).spec.nodeName;
    if (nodeName && !nodes.has(nodeName)) api.remove(podType, pod, 'node-gone');
    else if (orphaned(pod)) api.remove(podType, pod, 'owner');
  }
  const rsType = api.typeOf('apps/v1', 'ReplicaSet');
  for (const rs of api.view(rsType)) if (orphaned(rs)) api.remove(rsType, rs, 'owner');
}

/** Writes each PDB's status (expected, healthy, desired, disruptions allowed) when it changed. */
export async function updateBudgets(api: KubeApi): Promise<void> {
  const pdbType = api.typeOf('policy/v1', 'PodDisruptionBudget');
  const pods = api.view(api.typeOf('v1', 'Pod'));
  for (const pdb of api.view(pdbType) as unknown as readonly PodDisruptionBudget[]) {
    const disruptedPods = pendingDisruptedPods(pdb, pods, api.clock.now());
    const pending = { ...pdb, status: { ...pdb.status, disruptedPods } };
    const status = {
      ...pdb.status,
      ...budgetStatus(pending, pods, controllerScales(api, pdb.metadata.namespace)),
      disruptedPods,
      observedGeneration: (pdb.metadata as { generation?: number }).generation,
    } as Record<string, unknown>;
    if (Object.keys(disruptedPods).length === 0) delete status.disruptedPods;
    if (JSON.stringify(status) === JSON.stringify(pdb.status)) continue;
    await api.replace(
      pdbType,
      pdb.metadata.namespace,
      pdb.metadata.name,
      { ...(pdb as unknown as KubeObject), status },
      'status',
      { user: 'system:serviceaccount:kube-system:disruption-controller' },
    );
  }
}
