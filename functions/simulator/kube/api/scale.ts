/** The `scale` subresource of Deployments, ReplicaSets and StatefulSets (autoscaling/v1 Scale). */
import type { LabelSelector } from '../../../core/model/kube-objects.js';
import { invalid } from './api-error.js';
import type { KubeApi, WriteOptions } from './kube-api.js';
import { formatLabelSelector } from './label-selector.js';
import type { KubeObject } from './object-store.js';
import { applyPatch, type PatchType } from './patch.js';
import type { ResourceType } from './resource-registry.js';

/** The Scale view of a workload. */
export function scaleOf(obj: KubeObject): KubeObject {
  const spec = (obj.spec ?? {}) as { replicas?: number; selector?: LabelSelector };
  const status = (obj.status ?? {}) as { replicas?: number };
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: {
      name: obj.metadata.name,
      namespace: obj.metadata.namespace,
      uid: obj.metadata.uid,
      resourceVersion: obj.metadata.resourceVersion,
      creationTimestamp: obj.metadata.creationTimestamp,
    },
    spec: { replicas: spec.replicas ?? 1 },
    status: { replicas: status.replicas ?? 0, selector: formatLabelSelector(spec.selector) },
  };
}

/** Writes a new replica count from a Scale body (PUT) or a patch of the Scale (PATCH). */
export async function updateScale(
  api: KubeApi,
  type: ResourceType,
  namespace: string,
  name: string,
  change: { body?: KubeObject; patchType?: PatchType; patch?: unknown },
  opts: WriteOptions = {},
): Promise<KubeObject> {
  const current = api.get(type, namespace, name);
  const scale = change.patchType
    ? applyPatch(change.patchType, scaleOf(current), change.patch)
    : (change.body as KubeObject);
  const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw invalid(
      'Scale',
      name,
      'spec.replicas',
      `Invalid value: ${JSON.stringify(replicas)}: must be a non-negative integer`,
    );
  }
  const rv = (scale.metadata as { resourceVersion?: string } | undefined)?.resourceVersion;
  const next = structuredClone(current);
  (next.spec as { replicas?: number }).replicas = replicas;
  if (rv) next.metadata.resourceVersion = rv;
  const stored = await api.replace(type, namespace, name, next, '', opts);
  return scaleOf(stored);
}
