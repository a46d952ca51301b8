import { type KubeManifest, managedMetadata } from './kube-manifest.js';
import {
  BOUND_POD_DELETED,
  type MatchCondition,
  MULTUS_POD_READY,
  NODE_REGISTERED_OR_READY,
  POD_UNSCHEDULABLE,
} from './match-conditions.js';

/** Name of joiner's ValidatingWebhookConfiguration. */
export const WEBHOOK_CONFIGURATION_NAME = 'joiner';

/** Where the API server sends AdmissionReviews. */
export interface WebhookEndpoint {
  /** HTTPS URL of the webhook endpoint (the shared secret is part of its path). */
  readonly url: string;
  /** Base64 PEM bundle of the CA that signed the endpoint's certificate; omit for public CAs. */
  readonly caBundle?: string;
}

interface Rule {
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

function webhook(
  name: string,
  endpoint: WebhookEndpoint,
  rules: Rule[],
  conditions: readonly MatchCondition[],
) {
  return {
    name: `${name}.joiner.sh`,
    clientConfig: endpoint.caBundle
      ? { url: endpoint.url, caBundle: endpoint.caBundle }
      : { url: endpoint.url },
    rules,
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
 * node creations and Ready transitions, Multus pods turning Ready, and deletions of bound pods.
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
        'multus-pod-ready',
        endpoint,
        [core(['UPDATE'], ['pods/status'], 'Namespaced')],
        MULTUS_POD_READY,
      ),
      webhook('pod-deleted', endpoint, [core(['DELETE'], ['pods'], 'Namespaced')], BOUND_POD_DELETED),
    ],
  };
}
