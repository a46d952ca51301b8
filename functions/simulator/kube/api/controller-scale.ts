/**
 * The scale of the controllers that own pods (ReplicaSets — and so Deployments — StatefulSets,
 * ReplicationControllers), for the PodDisruptionBudget arithmetic that counts expected pods by
 * what the controllers want, as Kubernetes' disruption controller does.
 */
import type { ControllerScale } from './disruption-budget.js';
import type { KubeApi } from './kube-api.js';

const SCALED = [
  ['apps/v1', 'ReplicaSet'],
  ['apps/v1', 'StatefulSet'],
  ['v1', 'ReplicationController'],
] as const;

/** The scale of each controller of `namespace`, by uid. */
export function controllerScales(api: KubeApi, namespace: string | undefined): ControllerScale {
  const scales = new Map<string, number>();
  for (const [apiVersion, kind] of SCALED) {
    let type: ReturnType<KubeApi['typeOf']>;
    try {
      type = api.typeOf(apiVersion, kind);
    } catch {
      continue;
    }
    for (const o of api.view(type, { namespace })) {
      const replicas = (o.spec as { replicas?: number } | undefined)?.replicas;
      if (o.metadata.uid) scales.set(o.metadata.uid, replicas ?? 1);
    }
  }
  return (uid) => scales.get(uid);
}
