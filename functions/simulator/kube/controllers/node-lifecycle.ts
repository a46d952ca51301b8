/**
 * What the node lifecycle controller does when a node stops posting status: the pods bound to it
 * are marked not Ready (their Running phase stays), so that they stop counting as healthy for
 * PodDisruptionBudgets and as endpoints, before pod garbage collection removes them with the node.
 */
import type { Pod } from '../../../core/model/kube-objects.js';
import { ApiError } from '../api/api-error.js';
import type { KubeApi } from '../api/kube-api.js';
import { timestamp } from '../api/object-defaults.js';
import type { KubeObject } from '../api/object-store.js';

const USER = 'system:serviceaccount:kube-system:node-controller';
const NOT_READY = new Set(['Ready', 'ContainersReady']);

/** Marks every non-terminal pod on `nodeName` Ready=False (change cause `node-gone`). */
export async function markPodsNotReady(api: KubeApi, nodeName: string): Promise<void> {
  const podType = api.typeOf('v1', 'Pod');
  const now = timestamp(api.clock.now());
  const pods = api.view(podType, { fieldSelector: `spec.nodeName=${nodeName}` }) as unknown as readonly Pod[];
  for (const pod of pods) {
    const current = api.find(podType, pod.metadata.namespace, pod.metadata.name) as unknown as
      | Pod
      | undefined;
    const phase = current?.status?.phase;
    if (!current || current.metadata.uid !== pod.metadata.uid || phase === 'Succeeded' || phase === 'Failed')
      continue;
    const conditions = current.status?.conditions ?? [];
    const ready = (c: { type: string; status: string }): boolean =>
      NOT_READY.has(c.type) && c.status === 'True';
    if (!conditions.some(ready)) continue;
    const next = conditions.map((c) =>
      ready(c) ? { ...c, status: 'False', reason: 'NodeNotReady', lastTransitionTime: now } : c,
    );
    const body = {
      ...current,
      metadata: { ...current.metadata, resourceVersion: undefined },
      status: { ...current.status, conditions: next },
    } as unknown as KubeObject;
    try {
      await api.replace(podType, pod.metadata.namespace, pod.metadata.name, body, 'status', {
        user: USER,
        cause: 'node-gone',
      });
    } catch (error) {
      // Deleted meanwhile (an eviction, pod GC): nothing left to mark.
      if (!(error instanceof ApiError && error.code === 404)) throw error;
    }
  }
}
