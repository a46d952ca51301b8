import { defaultProvider } from '@aws-sdk/credential-provider-node';
import type { Clock } from '../../core/ports/clock.js';
import type { Log } from '../../core/ports/log.js';
import { cachedEksTokens } from '../aws/eks-token.js';
import { type EksAddress, eksSource, type KubeClientSource, kubeconfigFileSource } from './kube-clients.js';
import { KubeClusterApi } from './kube-cluster-api.js';

/** How to reach the API server: a kubeconfig file, or an EKS cluster's address with IAM tokens. */
export type KubeConnectionOptions = { readonly kubeconfigPath: string } | EksConnectionOptions;

/** An EKS cluster: its address given, or looked up on the first request. */
export type EksConnectionOptions = {
  readonly clusterName: string;
  readonly region: string;
  /** Credentials the tokens are signed with. @default the SDK's default chain */
  readonly credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
} & (EksAddress | { readonly address: () => Promise<EksAddress> });

/** Client source for a connection (the kubeconfig wins when both are given). */
export function kubeClientSource(connection: KubeConnectionOptions, clock: Clock): KubeClientSource {
  if ('kubeconfigPath' in connection) return kubeconfigFileSource(connection.kubeconfigPath);
  const tokens = cachedEksTokens(
    {
      clusterName: connection.clusterName,
      region: connection.region,
      credentials: connection.credentials ?? defaultProvider(),
    },
    () => clock.now(),
  );
  const address =
    'address' in connection
      ? connection.address
      : { endpoint: connection.endpoint, certificateAuthority: connection.certificateAuthority };
  return eksSource({ clusterName: connection.clusterName, address, token: tokens });
}

/** The ClusterApi adapter for a connection. */
export function createClusterApi(
  connection: KubeConnectionOptions,
  deps: { readonly log: Log; readonly clock: Clock },
): KubeClusterApi {
  return new KubeClusterApi(kubeClientSource(connection, deps.clock), deps);
}
