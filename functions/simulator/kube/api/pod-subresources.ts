/**
 * The pod subresources that are not plain status updates: `pods/binding` (what the scheduler
 * posts) and `pods/eviction` (policy/v1 Eviction, refused with 429 while a PodDisruptionBudget
 * allows no disruption).
 */
import type { PodDisruptionBudget } from '../../../core/model/kube-objects.js';
import { ApiError, conflict, notFound, successStatus } from './api-error.js';
import { controllerScales } from './controller-scale.js';
import { budgetStatus, disruptedPodsOf, isHealthyPod, podsOfBudget } from './disruption-budget.js';
import type { KubeApi, WriteOptions } from './kube-api.js';
import { timestamp } from './object-defaults.js';
import type { KubeObject } from './object-store.js';
import { storageKey } from './resource-registry.js';

/** Binds a pod to a node (POST pods/{name}/binding). 409 when the pod is already bound. */
export async function bindPod(
  api: KubeApi,
  namespace: string,
  name: string,
  binding: KubeObject,
  opts: WriteOptions = {},
): Promise<Record<string, unknown>> {
  const podType = api.typeOf('v1', 'Pod');
  const pod = storedPod(api, namespace, name);
  const target = (binding.target ?? {}) as { kind?: string; name?: string };
  if (!target.name)
    throw new ApiError(422, 'Invalid', `Binding "${name}" is invalid: target.name: Required value`);
  const spec = pod.spec as { nodeName?: string };
  if (spec.nodeName)
    throw conflict('pods/binding', '', name, `pod ${name} is already assigned to node "${spec.nodeName}"`);
  const bindingObj: KubeObject = {
    apiVersion: 'v1',
    kind: 'Binding',
    ...binding,
    metadata: { ...binding.metadata, name, namespace },
  };
  await api.admit('CREATE', podType, 'binding', bindingObj, undefined, opts, {
    requestKind: { group: '', version: 'v1', kind: 'Binding' },
  });
  if (opts.dryRun) return successStatus();
  // Built on the stored pod without changing it (the store copies what it stores, keeping the
  // parts that did not change by reference); the pod read before admission is the one bound.
  const status = (pod.status ?? {}) as {
    conditions?: { type: string; status: string; [k: string]: unknown }[];
  };
  const conditions = (status.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
  conditions.push({ type: 'PodScheduled', status: 'True', lastTransitionTime: timestamp(api.clock.now()) });
  const next: KubeObject = {
    ...pod,
    apiVersion: 'v1',
    kind: 'Pod',
    spec: { ...(pod.spec as object), nodeName: target.name },
    status: { ...status, conditions },
  };
  api.store.write('/pods', next);
  return successStatus();
}

/**
 * The stored pod itself, read-only (the subresources build new versions on it; see
 * ObjectStore.write); 404 when absent.
 */
function storedPod(api: KubeApi, namespace: string, name: string): KubeObject {
  const pod = api.peek(api.typeOf('v1', 'Pod'), namespace, name);
  if (!pod) throw notFound('pods', '', name);
  return pod;
}

/** Evicts a pod (POST pods/{name}/eviction), honouring the PodDisruptionBudgets that select it. */
export async function evictPod(
  api: KubeApi,
  namespace: string,
  name: string,
  eviction: KubeObject,
  opts: WriteOptions = {},
): Promise<Record<string, unknown>> {
  const podType = api.typeOf('v1', 'Pod');
  const pdbType = api.typeOf('policy/v1', 'PodDisruptionBudget');
  const pod = storedPod(api, namespace, name);
  const evictionObj: KubeObject = {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    ...eviction,
    metadata: { ...eviction.metadata, name, namespace },
  };
  await api.admit('CREATE', podType, 'eviction', evictionObj, undefined, opts, {
    requestKind: { group: 'policy', version: 'v1', kind: 'Eviction' },
  });
  const phase = (pod.status as { phase?: string })?.phase;
  const deleteOptions = (eviction.deleteOptions ?? {}) as { gracePeriodSeconds?: number };
  const terminal =
    phase === 'Succeeded' ||
    phase === 'Failed' ||
    phase === 'Pending' ||
    Boolean(pod.metadata.deletionTimestamp);
  if (!terminal) {
    // Read without copies: an eviction reads every pod of the namespace only when a budget covers
    // the pod, and copies none of them.
    const budgets = (api.view(pdbType, { namespace }) as unknown as PodDisruptionBudget[]).filter(
      (b) => podsOfBudget(b, [pod]).length > 0,
    );
    if (budgets.length > 1) {
      throw new ApiError(
        500,
        'InternalError',
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      );
    }
    const pdb = budgets[0];
    if (pdb) {
      const pods = api.view(podType, { namespace });
      const status = budgetStatus(pdb, pods, controllerScales(api, namespace));
      const healthy = isHealthyPod(pod);
      if (status.disruptionsAllowed <= 0 && (healthy || status.currentHealthy < status.desiredHealthy)) {
        throw new ApiError(
          429,
          'TooManyRequests',
          "Cannot evict pod as it would violate the pod's disruption budget.",
          {
            causes: [
              {
                reason: 'DisruptionBudget',
                message: `The disruption budget ${pdb.metadata.name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`,
              },
            ],
          },
        );
      }
      if (!opts.dryRun) {
        // Written before the pod's deletion is admitted (which may wait for webhooks), so that
        // concurrent evictions see this one: the pod is in disruptedPods and no longer healthy.
        const disruptedPods = {
          ...disruptedPodsOf(pdb),
          ...(healthy ? { [name]: timestamp(api.clock.now()) } : {}),
        };
        const next = {
          ...pdb,
          status: {
            ...pdb.status,
            ...status,
            disruptionsAllowed: status.disruptionsAllowed - (healthy ? 1 : 0),
            disruptedPods,
            observedGeneration: 1,
          },
        };
        api.store.write('policy/poddisruptionbudgets', next as unknown as KubeObject);
      }
    }
  }
  if (!opts.dryRun) {
    // As the API server's eviction does: the pod is marked with why it goes, then deleted by the
    // API server itself, whose deletion does not go through admission again.
    markEvicted(api, namespace, name);
    await api.delete(podType, namespace, name, {
      ...opts,
      gracePeriodSeconds: deleteOptions.gracePeriodSeconds,
      cause: 'evict',
      admitted: false,
    });
  }
  return successStatus();
}

/**
 * The condition the eviction writes on its pod before deleting it (Kubernetes 1.26 and later),
 * written here from the API server's behaviour, not from joiner's match conditions that rely on it.
 */
const EVICTION_CONDITION = {
  type: 'DisruptionTarget',
  status: 'True',
  reason: 'EvictionByEvictionAPI',
  message: 'Eviction API: evicting',
} as const;

/** Writes {@link EVICTION_CONDITION} on a pod (a storage write: no admission, as in the API server). */
function markEvicted(api: KubeApi, namespace: string, name: string): void {
  const podType = api.typeOf('v1', 'Pod');
  const stored = api.store.peek(storageKey(podType), namespace, name);
  if (!stored) return;
  const status = (stored.status ?? {}) as { conditions?: Array<Record<string, unknown>> };
  const others = (status.conditions ?? []).filter((c) => c.type !== EVICTION_CONDITION.type);
  const condition = { ...EVICTION_CONDITION, lastTransitionTime: timestamp(api.clock.now()) };
  // A new version built on the stored one, which is not changed (see ObjectStore.write).
  api.store.write(storageKey(podType), {
    ...stored,
    status: { ...status, conditions: [...others, condition] },
  });
}
