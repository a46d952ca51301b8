import { CONTROLLER_ROLE_NAME, missingRuleText } from '../../core/install/rbac.js';
import type { ConfigDocument } from '../../core/ports/cluster-api.js';
import { isNotFound, KubeApiError, kubeError, statusOf } from './kube-errors.js';
import { listAll } from './kube-lists.js';
import { resourcePath } from './kube-paths.js';
import type { KubeTransport } from './kube-transport.js';

/** A cluster-scoped custom resource joiner reads configuration from; versions in order of preference. */
export interface ConfigResource {
  readonly group: string;
  readonly plural: string;
  readonly versions: readonly string[];
}

/** NodePool-like resources: joiner's own, Karpenter's NodePool (v1, v1beta1) and Provisioner (v1alpha5). */
export const NODE_POOL_RESOURCES: readonly ConfigResource[] = [
  { group: 'joiner.sh', plural: 'nodepools', versions: ['v1'] },
  { group: 'karpenter.sh', plural: 'nodepools', versions: ['v1', 'v1beta1'] },
  { group: 'karpenter.sh', plural: 'provisioners', versions: ['v1alpha5'] },
];

/** NodeClass-like resources: joiner's own, EC2NodeClass (v1, v1beta1) and AWSNodeTemplate (v1alpha1). */
export const NODE_CLASS_RESOURCES: readonly ConfigResource[] = [
  { group: 'joiner.sh', plural: 'nodeclasses', versions: ['v1'] },
  { group: 'karpenter.k8s.aws', plural: 'ec2nodeclasses', versions: ['v1', 'v1beta1'] },
  { group: 'karpenter.k8s.aws', plural: 'awsnodetemplates', versions: ['v1alpha1'] },
];

/** Karpenter's NodeOverlays (v1alpha1, Karpenter v1.7). */
export const NODE_OVERLAY_RESOURCES: readonly ConfigResource[] = [
  { group: 'karpenter.sh', plural: 'nodeoverlays', versions: ['v1alpha1'] },
];

/** Karpenter's NodeClaims (v1, v1beta1): joiner refuses those created by hand (see hand-made-nodeclaims.ts). */
export const KARPENTER_NODE_CLAIM_RESOURCES: readonly ConfigResource[] = [
  { group: 'karpenter.sh', plural: 'nodeclaims', versions: ['v1', 'v1beta1'] },
];

/**
 * Lists the documents of each resource. A resource is read at its first served version only (the
 * API server converts every object to each served version, so reading two would duplicate them);
 * a group or version that is not installed (404) is skipped. A refusal (403) is an error naming
 * the rule joiner's ClusterRole lacks: skipping it would plan with NodePools missing.
 */
export async function listConfigDocuments(
  rest: KubeTransport,
  resources: readonly ConfigResource[],
): Promise<ConfigDocument[]> {
  const lists = await Promise.all(resources.map((resource) => listFirstServed(rest, resource)));
  return lists.flat();
}

async function listFirstServed(rest: KubeTransport, resource: ConfigResource): Promise<ConfigDocument[]> {
  for (const version of resource.versions) {
    const apiVersion = `${resource.group}/${version}`;
    try {
      const items = await listAll<ConfigDocument>(
        rest,
        resourcePath({ apiVersion, plural: resource.plural }),
      );
      return items.map((item) => withTypeMeta(item, apiVersion));
    } catch (error) {
      if (statusOf(error) === 403) throw new MissingRuleError(resource, error as KubeApiError);
      if (!isNotFound(error)) throw kubeError(`listing ${resource.plural}.${apiVersion}`, error);
    }
  }
  return [];
}

/** List items may lack apiVersion/kind; the config loader needs them. */
function withTypeMeta(item: ConfigDocument, apiVersion: string): ConfigDocument {
  return { ...item, apiVersion: item.apiVersion ?? apiVersion, kind: item.kind };
}

/**
 * A config read the API server refused (403): names the rule joiner's ClusterRole lacks, e.g.
 * `joiner cannot list nodepools.karpenter.sh (403 Forbidden): the ClusterRole joiner-controller
 * needs {apiGroups: [karpenter.sh], resources: [nodepools], verbs: [list]}`.
 */
export class MissingRuleError extends KubeApiError {
  constructor(resource: ConfigResource, error: KubeApiError) {
    super(`listing ${resource.plural}.${resource.group}`, 403, error.serverMessage, error.reason);
    const rule = missingRuleText({ apiGroup: resource.group, resource: resource.plural, verb: 'list' });
    this.name = 'MissingRuleError';
    this.message =
      `joiner cannot list ${resource.plural}.${resource.group} (403 Forbidden): the ClusterRole ` +
      `${CONTROLLER_ROLE_NAME} needs ${rule} (the API server said: ${error.serverMessage})`;
  }
}
