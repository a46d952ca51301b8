/**
 * A kubeconfig for the simulated API server: plain HTTP on loopback (client-node only allows http:
 * servers with insecure-skip-tls-verify set) and the bearer token of one identity.
 */
import { stringify } from 'yaml';
import { CLUSTER_CREATOR_TOKEN } from './auth/access-entries.js';

/** Kubeconfig YAML whose current context points at `url`, acting with `token` (default: cluster admin). */
export function kubeconfigYaml(
  url: string,
  token = CLUSTER_CREATOR_TOKEN,
  clusterName = 'joiner-sim',
): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: clusterName, cluster: { server: url, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'joiner', user: { token } }],
    contexts: [
      { name: clusterName, context: { cluster: clusterName, user: 'joiner', namespace: 'default' } },
    ],
    'current-context': clusterName,
    preferences: {},
  });
}
