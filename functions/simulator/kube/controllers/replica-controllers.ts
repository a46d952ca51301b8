/**
 * The Deployment and ReplicaSet controllers: a Deployment owns a ReplicaSet `<deploy>-<hash>` of
 * its pod template; a ReplicaSet keeps `spec.replicas` pods `<rs>-<5 chars>` alive, recreating
 * deleted or evicted pods (Pending) and deleting surplus ones in the ReplicaSet controller's order
 * (scale-down-rank.ts).
 */
import type { LabelSelector, Pod, PodTemplate } from '../../../core/model/kube-objects.js';
import { deepCopy } from '../api/deep-copy.js';
import type { KubeApi } from '../api/kube-api.js';
import { matchesLabelSelector } from '../api/label-selector.js';
import type { KubeObject } from '../api/object-store.js';
import { isActive, isReady, type ReplicaIndex } from './replica-index.js';
import { podsToDelete } from './scale-down-rank.js';

const USER = 'system:serviceaccount:kube-system:replicaset-controller';

interface Workload extends KubeObject {
  spec: { replicas?: number; selector?: LabelSelector; template: PodTemplate };
  status?: Record<string, unknown>;
}

/** The hash Kubernetes appends to ReplicaSet names (FNV-1a of the template, safe characters). */
export function templateHash(template: unknown): string {
  let h = 0x811c9dc5;
  for (const ch of JSON.stringify(template)) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let out = '';
  for (let i = 0; i < 10; i++) {
    out += alphabet[h % alphabet.length];
    h = Math.floor(h / alphabet.length) || (h ^ (0x9e3779b9 >>> i)) >>> 0;
  }
  return out;
}

const ownerRef = (o: KubeObject) => ({
  apiVersion: o.apiVersion!,
  kind: o.kind!,
  name: o.metadata.name,
  uid: o.metadata.uid,
  controller: true,
  blockOwnerDeletion: true,
});
const ownedBy = (o: KubeObject, owner: KubeObject): boolean =>
  (o.metadata.ownerReferences ?? []).some((r) => r.uid === owner.metadata.uid);

/**
 * Reconciles every Deployment and ReplicaSet once; `pods` is the pod index the caller keeps from
 * the store's changes.
 */
export async function reconcileReplicas(api: KubeApi, pods: ReplicaIndex): Promise<void> {
  const rsType = api.typeOf('apps/v1', 'ReplicaSet');
  const deployType = api.typeOf('apps/v1', 'Deployment');
  for (const d of api.view(deployType) as readonly Workload[]) await reconcileDeployment(api, d);
  for (const rs of api.view(rsType) as readonly Workload[]) await reconcileReplicaSet(api, rs, pods);
  for (const d of api.view(deployType) as readonly Workload[])
    await writeStatus(
      api,
      d,
      api.view(rsType, { namespace: d.metadata.namespace }).filter((rs) => ownedBy(rs, d)) as Workload[],
    );
}

async function reconcileDeployment(api: KubeApi, d: Workload): Promise<void> {
  if (d.metadata.deletionTimestamp) return;
  const rsType = api.typeOf('apps/v1', 'ReplicaSet');
  const hash = templateHash(d.spec.template);
  const name = `${d.metadata.name}-${hash}`;
  const owned = api
    .view(rsType, { namespace: d.metadata.namespace })
    .filter((rs) => ownedBy(rs, d)) as Workload[];
  const replicas = d.spec.replicas ?? 1;
  const current = owned.find((rs) => rs.metadata.name === name);
  if (!current) {
    const labels = { ...d.spec.template.metadata?.labels, 'pod-template-hash': hash };
    await api.create(
      rsType,
      d.metadata.namespace,
      {
        metadata: {
          name,
          namespace: d.metadata.namespace,
          labels,
          ownerReferences: [ownerRef(d)],
          annotations: { 'deployment.kubernetes.io/desired-replicas': String(replicas) },
        },
        spec: {
          replicas,
          selector: {
            ...d.spec.selector,
            matchLabels: { ...d.spec.selector?.matchLabels, 'pod-template-hash': hash },
          },
          template: { ...d.spec.template, metadata: { ...d.spec.template.metadata, labels } },
        },
      },
      { user: USER },
    );
  } else if (current.spec.replicas !== replicas) {
    await api.replace(
      rsType,
      current.metadata.namespace,
      name,
      { ...current, spec: { ...current.spec, replicas } },
      '',
      { user: USER },
    );
  }
  for (const old of owned.filter((rs) => rs.metadata.name !== name && (rs.spec.replicas ?? 0) > 0)) {
    await api.replace(
      rsType,
      old.metadata.namespace,
      old.metadata.name,
      { ...old, spec: { ...old.spec, replicas: 0 } },
      '',
      { user: USER },
    );
  }
}

/**
 * The pods whose nodes rank a ReplicaSet's surplus (Kubernetes' related pods): those of every
 * ReplicaSet with the same controlling owner (a Deployment's old and new ones), or its own.
 */
function relatedPods(api: KubeApi, rs: Workload, index: ReplicaIndex, adopted: readonly Pod[]): Pod[] {
  const owner = (rs.metadata.ownerReferences ?? []).find((r) => r.controller);
  if (!owner) return [...index.activePods(rs.metadata.uid ?? ''), ...adopted];
  const siblings = api
    .view(api.typeOf('apps/v1', 'ReplicaSet'), { namespace: rs.metadata.namespace })
    .filter((o) => (o.metadata.ownerReferences ?? []).some((r) => r.uid === owner.uid));
  return [...siblings.flatMap((o) => index.activePods(o.metadata.uid ?? '')), ...adopted];
}

async function reconcileReplicaSet(api: KubeApi, rs: Workload, index: ReplicaIndex): Promise<void> {
  const podType = api.typeOf('v1', 'Pod');
  const uid = rs.metadata.uid ?? '';
  // Pods with no owner that the selector matches count too (read from the index, usually none).
  const adopted = index
    .unownedPods(rs.metadata.namespace)
    .filter((p) => isActive(p) && matchesLabelSelector(rs.spec.selector, p.metadata.labels));
  const activeCount = index.activeCount(uid) + adopted.length;
  const ready = index.readyCount(uid) + adopted.filter(isReady).length;
  const want = rs.metadata.deletionTimestamp ? 0 : (rs.spec.replicas ?? 1);
  for (let i = activeCount; i < want; i++) {
    await api.create(
      podType,
      rs.metadata.namespace,
      {
        metadata: {
          generateName: `${rs.metadata.name}-`,
          name: '',
          namespace: rs.metadata.namespace,
          labels: { ...rs.spec.template.metadata?.labels },
          annotations: { ...rs.spec.template.metadata?.annotations },
          ownerReferences: [ownerRef(rs)],
        },
        spec: deepCopy(rs.spec.template.spec),
      },
      { user: USER },
    );
  }
  // The pods are listed and ranked only when there is a surplus: a pass over a ReplicaSet at its
  // size (most passes) reads two counts. The ranking is the ReplicaSet controller's (scale-down-rank.ts).
  const surplus =
    activeCount > want
      ? podsToDelete(
          [...index.activePods(uid), ...adopted],
          activeCount - want,
          api.clock.now(),
          relatedPods(api, rs, index, adopted),
        )
      : [];
  for (const p of surplus)
    await api.delete(podType, p.metadata.namespace, p.metadata.name, { user: USER, cause: 'owner' });
  const status = {
    replicas: Math.min(activeCount, Math.max(want, activeCount - surplus.length)),
    readyReplicas: ready,
    availableReplicas: ready,
    observedGeneration: rs.metadata.generation,
  };
  await setStatus(api, rs, status);
}

async function writeStatus(api: KubeApi, d: Workload, owned: Workload[]): Promise<void> {
  const sum = (k: string) =>
    owned.reduce((n, rs) => n + Number((rs.status as Record<string, number> | undefined)?.[k] ?? 0), 0);
  const replicas = sum('replicas');
  await setStatus(api, d, {
    replicas,
    updatedReplicas: replicas,
    readyReplicas: sum('readyReplicas'),
    availableReplicas: sum('availableReplicas'),
    observedGeneration: d.metadata.generation,
  });
}

async function setStatus(api: KubeApi, obj: Workload, status: Record<string, unknown>): Promise<void> {
  const next = { ...obj.status, ...status };
  if (JSON.stringify(next) === JSON.stringify(obj.status)) return;
  const type = api.typeOf(obj.apiVersion!, obj.kind!);
  const fresh = api.find(type, obj.metadata.namespace, obj.metadata.name);
  if (!fresh) return;
  await api.replace(type, obj.metadata.namespace, obj.metadata.name, { ...fresh, status: next }, 'status', {
    user: USER,
  });
}
