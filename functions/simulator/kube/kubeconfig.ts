/**
 * A kubeconfig for the simulated API server: plain HTTP on loopback (client-node only allows http:
 * servers with insecure-skip-tls-verify set) and a static token.
 */
import { stringify } from 'yaml';

/** The static bearer token the simulated API server hands out (it accepts any token). */
export const SIMULATOR_TOKEN = 'joiner-simulator';

/** Kubeconfig YAML whose current context points at `url`. */
export function kubeconfigYaml(url: string, clusterName = 'joiner-sim'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: clusterName, cluster: { server: url, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'joiner', user: { token: SIMULATOR_TOKEN } }],
    contexts: [
      { name: clusterName, context: { cluster: clusterName, user: 'joiner', namespace: 'default' } },
    ],
    'current-context': clusterName,
    preferences: {},
  });
}
