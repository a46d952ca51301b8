import { JOINER_API_GROUP, type KubeManifest, managedMetadata } from './kube-manifest.js';

/** Name of the ClusterRole (and its binding) that joiner's Lambda functions act with. */
export const CONTROLLER_ROLE_NAME = 'joiner-controller';

/** Default Kubernetes group the Lambda role is mapped to by its EKS access entry. */
export const DEFAULT_LAMBDA_GROUP = 'joiner-controllers';

const READ = ['get', 'list', 'watch'];

/** What the provisioner, lifecycle, interruption and disruption functions need, and no more. */
const rules = [
  { apiGroups: [''], resources: ['persistentvolumes', 'persistentvolumeclaims', 'namespaces'], verbs: READ },
  // delete: pods still running when a drained node's terminationGracePeriod ends.
  { apiGroups: [''], resources: ['pods'], verbs: [...READ, 'delete'] },
  { apiGroups: [''], resources: ['nodes'], verbs: [...READ, 'patch', 'update', 'delete'] },
  { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
  { apiGroups: ['apps'], resources: ['daemonsets', 'replicasets', 'statefulsets'], verbs: READ },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: READ },
  {
    apiGroups: ['storage.k8s.io'],
    resources: ['storageclasses', 'csinodes', 'volumeattachments'],
    verbs: READ,
  },
  { apiGroups: [JOINER_API_GROUP], resources: ['nodepools', 'nodeclasses'], verbs: READ },
  {
    apiGroups: [JOINER_API_GROUP],
    resources: ['nodepools/status', 'nodeclasses/status'],
    verbs: ['get', 'patch', 'update'],
  },
];

/** Validates a Kubernetes group name the way EKS access entries do. */
export function assertLambdaGroup(group: string): void {
  if (!/^[a-zA-Z0-9][a-zA-Z0-9:._-]{0,127}$/.test(group)) {
    throw new Error(`lambdaGroup '${group}' is not a valid Kubernetes group name (letters, digits, ':._-')`);
  }
  if (/^(system|eks|aws|amazon|iam):/.test(group)) {
    throw new Error(`lambdaGroup '${group}' uses a prefix EKS access entries reserve; choose another name`);
  }
}

/** The ClusterRole with the permissions of joiner's Lambda functions. */
export function controllerClusterRole(): KubeManifest {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: managedMetadata(CONTROLLER_ROLE_NAME),
    rules,
  };
}

/** Binds the controller ClusterRole to the Kubernetes group of the Lambda role's access entry. */
export function controllerClusterRoleBinding(group: string): KubeManifest {
  assertLambdaGroup(group);
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: managedMetadata(CONTROLLER_ROLE_NAME),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: CONTROLLER_ROLE_NAME },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: group }],
  };
}
