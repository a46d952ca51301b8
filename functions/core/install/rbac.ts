import { JOINER_API_GROUP, type KubeManifest, managedMetadata } from './kube-manifest.js';

/** Name of the ClusterRole (and its binding) that joiner's Lambda functions act with. */
export const CONTROLLER_ROLE_NAME = 'joiner-controller';

/** Default Kubernetes group the Lambda role is mapped to by its EKS access entry. */
export const DEFAULT_LAMBDA_GROUP = 'joiner-controllers';

/** One rule of the ClusterRole. */
export interface ControllerRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
}

/**
 * What the provisioner, lifecycle, interruption and disruption functions read and write, and no
 * more: every request the Kubernetes adapter sends is one of these. joiner never watches (each
 * invocation lists what it needs); the only status it writes is that of NodePools and NodeClasses.
 */
const rules: readonly ControllerRule[] = [
  // list: pending pods, pods per node (provisioning, consolidation, drains); get: one pod while
  // draining; delete: pods still running when a drained node's terminationGracePeriod ends.
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'delete'] },
  // Drains evict through the Eviction API, so PodDisruptionBudgets are honoured.
  { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
  // list/get: cluster state and node registration; patch: labels, annotations, taints (cordon,
  // disruption taints) and finalizers; delete: a terminated instance's node.
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'patch', 'delete'] },
  // Events on pods and nodes (launch, disruption, failures).
  { apiGroups: [''], resources: ['events'], verbs: ['create'] },
  // Volume topology of pending pods' claims.
  { apiGroups: [''], resources: ['persistentvolumes', 'persistentvolumeclaims'], verbs: ['list'] },
  // Where claims waiting for their first consumer can be provisioned (allowedTopologies).
  { apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: ['list'] },
  // DaemonSet overhead of each new node.
  { apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['list'] },
  // Disruption budgets of pods on nodes being drained or consolidated.
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: ['list'] },
  // Configuration: joiner's own NodePools and NodeClasses.
  { apiGroups: [JOINER_API_GROUP], resources: ['nodepools', 'nodeclasses'], verbs: ['list'] },
  // Configuration written for Karpenter: NodePools (v1, v1beta1) and Provisioners (v1alpha5)...
  { apiGroups: ['karpenter.sh'], resources: ['nodepools', 'provisioners'], verbs: ['list'] },
  // ...and EC2NodeClasses (v1, v1beta1) and AWSNodeTemplates (v1alpha1).
  { apiGroups: ['karpenter.k8s.aws'], resources: ['ec2nodeclasses', 'awsnodetemplates'], verbs: ['list'] },
  // ...and NodeOverlays (v1alpha1): price and extended-resource changes to instance types.
  { apiGroups: ['karpenter.sh'], resources: ['nodeoverlays'], verbs: ['list'] },
  // Karpenter's NodeClaims: one created by hand is refused in its status (hand-made-nodeclaims.ts).
  { apiGroups: ['karpenter.sh'], resources: ['nodeclaims'], verbs: ['list'] },
  // The NodeClaim resources mirroring the state table (created, updated, deleted; listed by the sweep).
  { apiGroups: [JOINER_API_GROUP], resources: ['nodeclaims'], verbs: ['list', 'create', 'patch', 'delete'] },
  // Status kubectl shows: NodePools (resources in use, conditions) and NodeClasses (what they resolve to).
  { apiGroups: [JOINER_API_GROUP], resources: ['nodepools/status', 'nodeclasses/status'], verbs: ['patch'] },
  {
    apiGroups: ['karpenter.sh'],
    resources: ['nodepools/status', 'provisioners/status', 'nodeoverlays/status', 'nodeclaims/status'],
    verbs: ['patch'],
  },
  {
    apiGroups: ['karpenter.k8s.aws'],
    resources: ['ec2nodeclasses/status', 'awsnodetemplates/status'],
    verbs: ['patch'],
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
    rules: rules.map((r) => ({
      apiGroups: [...r.apiGroups],
      resources: [...r.resources],
      verbs: [...r.verbs],
    })),
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

/**
 * The rule a refused request needed, as an operator would add it to the ClusterRole, e.g.
 * `{apiGroups: [karpenter.sh], resources: [nodepools], verbs: [list]}`.
 */
export function missingRuleText(rule: { apiGroup: string; resource: string; verb: string }): string {
  return `{apiGroups: [${rule.apiGroup === '' ? '""' : rule.apiGroup}], resources: [${rule.resource}], verbs: [${rule.verb}]}`;
}
