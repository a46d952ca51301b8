import { JOINER_API_GROUP, type KubeManifest, managedMetadata } from './kube-manifest.js';
import {
  BOUND_POD_DELETED,
  CONFIGURATION_CHANGED,
  type MatchCondition,
  MULTUS_POD_LABEL,
  MULTUS_POD_READY,
  NODE_OR_NODECLAIM_DELETED,
  NODE_REGISTERED_OR_READY,
  POD_UNSCHEDULABLE,
} from './match-conditions.js';

/** The API groups and resources of the NodePool and NodeClass kinds joiner reads. */
export const CONFIGURATION_RULE: Rule = {
  apiGroups: ['joiner.sh', 'karpenter.sh', 'karpenter.k8s.aws'],
  apiVersions: ['*'],
  operations: ['CREATE', 'UPDATE'],
  resources: ['nodepools', 'provisioners', 'nodeclasses', 'ec2nodeclasses', 'awsnodetemplates'],
  scope: 'Cluster',
};

/**
 * Creations of Karpenter's NodeClaims: where joiner manages Karpenter's kinds, one created by hand
 * is refused at once (hand-made-nodeclaims.ts; the sweep is the fallback).
 */
export const KARPENTER_NODECLAIM_CREATED_RULE: Rule = {
  apiGroups: ['karpenter.sh'],
  apiVersions: ['*'],
  operations: ['CREATE'],
  resources: ['nodeclaims'],
  scope: 'Cluster',
};

/**
 * Scale writes of NodePools (`kubectl scale nodepool`, the scale subresource of both NodePool
 * kinds): the API server sends them as UPDATEs of `nodepools/scale` whose objects are
 * autoscaling/v1 Scales, which the NodePool rule above does not cover.
 */
export const NODE_POOL_SCALE_RULE: Rule = {
  apiGroups: ['joiner.sh', 'karpenter.sh'],
  apiVersions: ['*'],
  operations: ['UPDATE'],
  resources: ['nodepools/scale'],
  scope: 'Cluster',
};

/** Name of joiner's ValidatingWebhookConfiguration. */
export const WEBHOOK_CONFIGURATION_NAME = 'joiner';

/** Where the API server sends AdmissionReviews. */
export interface WebhookEndpoint {
  /** HTTPS URL of the webhook endpoint (the shared secret is part of its path). */
  readonly url: string;
  /** Base64 PEM bundle of the CA that signed the endpoint's certificate; omit for public CAs. */
  readonly caBundle?: string;
}

/** One rule of a webhook: which requests the API server sends it. */
export interface Rule {
  readonly apiGroups: readonly string[];
  readonly apiVersions: readonly string[];
  readonly operations: readonly string[];
  readonly resources: readonly string[];
  readonly scope: 'Cluster' | 'Namespaced' | '*';
}

const core = (operations: string[], resources: string[], scope: Rule['scope']): Rule => ({
  apiGroups: [''],
  apiVersions: ['v1'],
  operations,
  resources,
  scope,
});

/** A Kubernetes label selector. */
interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly { key: string; operator: string; values?: readonly string[] }[];
}

/** Which namespaces and objects the API server sends a webhook (absent: all). */
interface Selectors {
  readonly namespaceSelector?: LabelSelector;
  readonly objectSelector?: LabelSelector;
}

/**
 * Namespaces whose pod deletions joiner does not need: kube-system's pods are daemonsets, static
 * pods and a few controllers whose nodes the minute sweep still finds empty, and sending their
 * deletions would put the webhook in the path of the control plane's own churn.
 */
export const POD_DELETION_SKIPPED_NAMESPACES = ['kube-system'] as const;

function webhook(
  name: string,
  endpoint: WebhookEndpoint,
  rules: Rule[],
  conditions: readonly MatchCondition[],
  selectors: Selectors = {},
) {
  return {
    name: `${name}.joiner.sh`,
    clientConfig: endpoint.caBundle
      ? { url: endpoint.url, caBundle: endpoint.caBundle }
      : { url: endpoint.url },
    rules,
    ...selectors,
    matchConditions: conditions.map((c) => ({ ...c })),
    // The webhook only observes: it always allows and must never block the API server.
    failurePolicy: 'Ignore',
    matchPolicy: 'Equivalent',
    sideEffects: 'None',
    timeoutSeconds: 2,
    admissionReviewVersions: ['v1'],
  };
}

/** Validates the endpoint the way the API server would, with an error naming the bad field. */
export function assertWebhookEndpoint(endpoint: WebhookEndpoint): void {
  let url: URL;
  try {
    url = new URL(endpoint.url);
  } catch {
    throw new Error(`webhookUrl '${endpoint.url}' is not a valid URL`);
  }
  if (url.protocol !== 'https:') throw new Error(`webhookUrl '${endpoint.url}' must use https`);
  if (url.search || url.hash)
    throw new Error(`webhookUrl '${endpoint.url}' must not have a query or fragment`);
  if (endpoint.caBundle !== undefined && !/^[A-Za-z0-9+/]+={0,2}$/.test(endpoint.caBundle)) {
    throw new Error('caBundle must be base64-encoded PEM');
  }
}

/**
 * joiner's ValidatingWebhookConfiguration: pod status updates that mark a pod Unschedulable,
 * node creations and Ready transitions, NodePool / NodeClass creations and spec changes (and
 * NodePool scale writes, and karpenter.sh NodeClaim creations), Multus pods (by label) turning Ready, deletions of bound pods outside
 * kube-system that were not evicted (see BOUND_POD_DELETED), and deletions of joiner's Nodes and
 * NodeClaim resources.
 */
export function webhookConfiguration(endpoint: WebhookEndpoint): KubeManifest {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: managedMetadata(WEBHOOK_CONFIGURATION_NAME),
    webhooks: [
      webhook(
        'pod-unschedulable',
        endpoint,
        [core(['UPDATE'], ['pods/status'], 'Namespaced')],
        POD_UNSCHEDULABLE,
      ),
      webhook(
        'node',
        endpoint,
        [core(['CREATE', 'UPDATE'], ['nodes'], 'Cluster'), core(['UPDATE'], ['nodes/status'], 'Cluster')],
        NODE_REGISTERED_OR_READY,
      ),
      webhook(
        'configuration',
        endpoint,
        [CONFIGURATION_RULE, NODE_POOL_SCALE_RULE, KARPENTER_NODECLAIM_CREATED_RULE],
        CONFIGURATION_CHANGED,
      ),
      webhook(
        'multus-pod-ready',
        endpoint,
        [core(['UPDATE'], ['pods/status'], 'Namespaced')],
        MULTUS_POD_READY,
        { objectSelector: { matchLabels: { [MULTUS_POD_LABEL.key]: MULTUS_POD_LABEL.value } } },
      ),
      webhook(
        'node-deleted',
        endpoint,
        [
          core(['DELETE'], ['nodes'], 'Cluster'),
          {
            apiGroups: [JOINER_API_GROUP],
            apiVersions: ['*'],
            operations: ['DELETE'],
            resources: ['nodeclaims'],
            scope: 'Cluster',
          },
        ],
        NODE_OR_NODECLAIM_DELETED,
      ),
      webhook('pod-deleted', endpoint, [core(['DELETE'], ['pods'], 'Namespaced')], BOUND_POD_DELETED, {
        namespaceSelector: {
          matchExpressions: [
            {
              key: 'kubernetes.io/metadata.name',
              operator: 'NotIn',
              values: [...POD_DELETION_SKIPPED_NAMESPACES],
            },
          ],
        },
      }),
    ],
  };
}
