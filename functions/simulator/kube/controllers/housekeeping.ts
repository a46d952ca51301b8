/**
 * Small control-plane loops: pod garbage collection (pods bound to nodes that no longer exist, and
 * pods of deleted owners) and PodDisruptionBudget status from the live pods.
 */
import type { Pod, PodDisruptionBudget } from '../../../core/model/kube-objects.js';
import { ApiError } from '../api/api-error.js';
import { controllerScales } from '../api/controller-scale.js';
import { budgetStatus, pendingDisruptedPods } from '../api/disruption-budget.js';
import type { DeleteOptions, KubeApi } from '../api/kube-api.js';
import type { KubeObject } from '../api/object-store.js';
import type { ResourceType } from '../api/resource-registry.js';

/** The kube-controller-manager's pod garbage collector (pods of a gone node). */
export const POD_GC_USER = 'system:serviceaccount:kube-system:pod-garbage-collector';
/** The kube-controller-manager's garbage collector (objects of a gone owner). */
export const GENERIC_GC_USER = 'system:serviceaccount:kube-system:generic-garbage-collector';

/**
 * Deletes pods whose node is gone, and objects whose controller owner is gone, through the API's
 * DELETE with admission (validating webhooks see each one), as the kube-controller-manager's
 * collectors call the API server: a pod of a gone node is deleted at once (grace period 0, as the
 * pod GC does), an object of a gone owner as any DELETE without options (a pod on a running node
 * terminates over its grace period); an object already being deleted is left to that deletion.
 * With `changedPods` (store keys, `namespace/name`) only those pods are checked: the caller knows
 * no node or owner went away since every other pod was last checked. Returns the pods whose delete
 * was refused (store keys), for the next pass to check again.
 */
export async function collectGarbage(
  api: KubeApi,
  changedPods?: ReadonlySet<string>,
): Promise<ReadonlySet<string>> {
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
  const refused = new Set<string>();
  for (const pod of pods) {
    const nodeName = (pod as unknown as Pod).spec.nodeName;
    const opts: DeleteOptions | undefined =
      nodeName && !nodes.has(nodeName)
        ? { user: POD_GC_USER, cause: 'node-gone', gracePeriodSeconds: 0 }
        : orphaned(pod) && !pod.metadata.deletionTimestamp
          ? { user: GENERIC_GC_USER, cause: 'owner' }
          : undefined;
    if (opts && !(await deleteGarbage(api, podType, pod, opts)))
      refused.add(`${pod.metadata.namespace ?? ''}/${pod.metadata.name}`);
  }
  const rsType = api.typeOf('apps/v1', 'ReplicaSet');
  for (const rs of api.view(rsType))
    if (orphaned(rs) && !rs.metadata.deletionTimestamp)
      await deleteGarbage(api, rsType, rs, { user: GENERIC_GC_USER, cause: 'owner' });
  return refused;
}

/**
 * One collector's DELETE of `obj`, with its UID as the precondition (as the collectors send it):
 * an object already gone or replaced by a namesake is skipped; false when the delete was refused
 * (e.g. an admission webhook denied it), for a later pass to try again.
 */
async function deleteGarbage(
  api: KubeApi,
  type: ResourceType,
  obj: KubeObject,
  opts: DeleteOptions,
): Promise<boolean> {
  try {
    await api.delete(type, obj.metadata.namespace, obj.metadata.name, {
      ...opts,
      preconditions: { uid: obj.metadata.uid },
    });
    return true;
  } catch (error) {
    // Gone or replaced since (404, 409): nothing to collect.
    if (error instanceof ApiError && (error.code === 404 || error.code === 409)) return true;
    if (error instanceof ApiError) return false;
    throw error;
  }
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
