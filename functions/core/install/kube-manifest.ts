import type { ObjectMeta } from '../model/kube-objects.js';

/**
 * A Kubernetes object joiner installs into a cluster, as plain JSON (what `kubectl apply -f`
 * would send). Cluster-scoped objects have no namespace.
 */
export interface KubeManifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: ObjectMeta;
  readonly [field: string]: unknown;
}

/** The API group of joiner's own kinds (NodePool, NodeClass). */
export const JOINER_API_GROUP = 'joiner.sh';

/** Labels every object joiner installs carries, so `kubectl delete -l` can remove them. */
export const JOINER_MANAGED_LABELS: Readonly<Record<string, string>> = {
  'app.kubernetes.io/managed-by': 'joiner',
  'app.kubernetes.io/part-of': 'joiner',
};

/** Metadata for a cluster-scoped object installed by joiner. */
export function managedMetadata(name: string): ObjectMeta {
  return { name, labels: { ...JOINER_MANAGED_LABELS } };
}
