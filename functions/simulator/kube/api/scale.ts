/**
 * The `scale` subresource (autoscaling/v1 Scale) of Deployments, ReplicaSets and StatefulSets, and
 * of custom resources whose CRD declares `subresources.scale` (the replicas at its
 * `specReplicasPath`, the count at its `statusReplicasPath`, e.g. Karpenter's static NodePools).
 */
import type { LabelSelector } from '../../../core/model/kube-objects.js';
import { invalid } from './api-error.js';
import { deepCopy } from './deep-copy.js';
import type { KubeApi, WriteOptions } from './kube-api.js';
import { formatLabelSelector } from './label-selector.js';
import type { KubeObject } from './object-store.js';
import { applyPatch, type PatchType } from './patch.js';
import type { CrdScale, ResourceType } from './resource-registry.js';

/** The kind of the subresource object: autoscaling/v1 Scale. */
export const SCALE_KIND = { group: 'autoscaling', version: 'v1', kind: 'Scale' } as const;

/** The segments of a simple JSON path such as `.spec.replicas`. */
function segments(path: string): string[] {
  return path
    .replace(/^\./, '')
    .split('.')
    .filter((s) => s !== '');
}

function readPath(obj: unknown, path: string): unknown {
  let at = obj;
  for (const key of segments(path)) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

function writePath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = segments(path);
  let at = obj;
  for (const key of keys.slice(0, -1)) {
    const next = at[key];
    if (next === null || typeof next !== 'object') at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[keys[keys.length - 1]] = value;
}

/** The Scale view of a custom resource with a scale subresource (replicas 0 when unset). */
function customScaleOf(obj: KubeObject, scale: CrdScale): KubeObject {
  const replicas = readPath(obj, scale.specReplicasPath);
  const count = readPath(obj, scale.statusReplicasPath);
  const selector = scale.labelSelectorPath ? readPath(obj, scale.labelSelectorPath) : undefined;
  return scaleObject(obj, typeof replicas === 'number' ? replicas : 0, {
    replicas: typeof count === 'number' ? count : Number(count ?? 0) || 0,
    ...(typeof selector === 'string' ? { selector } : {}),
  });
}

/** An autoscaling/v1 Scale of `obj` (its identity and version) with `replicas` and `status`. */
function scaleObject(obj: KubeObject, replicas: number, status: Record<string, unknown>): KubeObject {
  const { name, namespace, uid, resourceVersion, creationTimestamp } = obj.metadata;
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas },
    status,
  };
}

/** The Scale view of a workload, or of a custom resource of `type` with a scale subresource. */
export function scaleOf(obj: KubeObject, type?: ResourceType): KubeObject {
  if (type?.scale) return customScaleOf(obj, type.scale);
  const spec = (obj.spec ?? {}) as { replicas?: number; selector?: LabelSelector };
  const status = (obj.status ?? {}) as { replicas?: number };
  return scaleObject(obj, spec.replicas ?? 1, {
    replicas: status.replicas ?? 0,
    selector: formatLabelSelector(spec.selector),
  });
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
    ? applyPatch(change.patchType, scaleOf(current, type), change.patch)
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
  // The real API server admits a scale write once, as an UPDATE of the `scale` subresource whose
  // object and oldObject are Scales (not as an update of the whole object).
  const stored = await api.updateThrough(
    type,
    namespace,
    name,
    'scale',
    (base) => {
      const next = deepCopy(base);
      if (type.scale)
        writePath(next as unknown as Record<string, unknown>, type.scale.specReplicasPath, replicas);
      else (next.spec as { replicas?: number }).replicas = replicas;
      return next;
    },
    { view: (obj) => scaleOf(obj, type), kind: SCALE_KIND },
    { ...opts, ...(rv ? { resourceVersion: rv } : {}) },
  );
  return scaleOf(stored, type);
}
