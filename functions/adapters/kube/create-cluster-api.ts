import { defaultProvider } from '@aws-sdk/credential-provider-node';
import type { Clock } from '../../core/ports/clock.js';
import type { Log } from '../../core/ports/log.js';
import { cachedEksTokens } from '../aws/eks-token.js';
import { eksSource, type KubeClientSource, kubeconfigFileSource } from './kube-clients.js';
import { KubeClusterApi } from './kube-cluster-api.js';

/** How to reach the API server: a kubeconfig file, or an EKS endpoint + CA with IAM tokens. */
export type KubeConnectionOptions =
  | { readonly kubeconfigPath: string }
  | {
      readonly clusterName: string;
      readonly region: string;
      readonly endpoint: string;
      /** Base64 PEM of the cluster CA. */
      readonly certificateAuthority: string;
    };

/** Client source for a connection (the kubeconfig wins when both are given). */
export function kubeClientSource(connection: KubeConnectionOptions, clock: Clock): KubeClientSource {
  if ('kubeconfigPath' in connection) return kubeconfigFileSource(connection.kubeconfigPath);
  const tokens = cachedEksTokens(
    { clusterName: connection.clusterName, region: connection.region, credentials: defaultProvider() },
    () => clock.now(),
  );
  return eksSource({
    clusterName: connection.clusterName,
    endpoint: connection.endpoint,
    certificateAuthority: connection.certificateAuthority,
    token: tokens,
  });
}

/** The ClusterApi adapter for a connection. */
export function createClusterApi(
  connection: KubeConnectionOptions,
  deps: { readonly log: Log; readonly clock: Clock },
): KubeClusterApi {
  return new KubeClusterApi(kubeClientSource(connection, deps.clock), deps);
}
