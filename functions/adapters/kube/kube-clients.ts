import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  PolicyV1Api,
} from '@kubernetes/client-node';

/** The typed API clients the adapter uses, all made from one KubeConfig. */
export interface KubeClients {
  readonly core: CoreV1Api;
  readonly apps: AppsV1Api;
  readonly policy: PolicyV1Api;
  readonly custom: CustomObjectsApi;
  readonly objects: KubernetesObjectApi;
}

/**
 * Hands out API clients. A source over a kubeconfig file always returns the same clients; an EKS
 * source returns new clients when its bearer token was refreshed.
 */
export type KubeClientSource = () => Promise<KubeClients>;

/** The clients of one KubeConfig. */
export function kubeClients(config: KubeConfig): KubeClients {
  return {
    core: config.makeApiClient(CoreV1Api),
    apps: config.makeApiClient(AppsV1Api),
    policy: config.makeApiClient(PolicyV1Api),
    custom: config.makeApiClient(CustomObjectsApi),
    objects: KubernetesObjectApi.makeApiClient(config),
  };
}

/** Clients from a kubeconfig file (the simulated cloud, local runs). */
export function kubeconfigFileSource(path: string): KubeClientSource {
  const config = new KubeConfig();
  try {
    config.loadFromFile(path);
  } catch (error) {
    throw new Error(`cannot read the kubeconfig ${path}: ${(error as Error).message}`);
  }
  if (!config.getCurrentCluster()) throw new Error(`kubeconfig ${path} has no current cluster`);
  const clients = kubeClients(config);
  return async () => clients;
}

/** Where an EKS API server is. */
export interface EksAddress {
  /** `https://...eks.amazonaws.com`. */
  readonly endpoint: string;
  /** Base64 PEM of the cluster CA. */
  readonly certificateAuthority: string;
}

/** Where an EKS API server is and how to get a bearer token for it. */
export interface EksConnection {
  readonly clusterName: string;
  /** The API server, or its lookup (made on the first request, e.g. eks:DescribeCluster). */
  readonly address: EksAddress | (() => Promise<EksAddress>);
  /** A (cached) bearer token; called before every request batch. */
  readonly token: () => Promise<string>;
}

/**
 * Clients for an EKS cluster, rebuilt whenever the token changes. A lazy address is resolved on
 * the first request; a failed lookup fails that request and is tried again on the next.
 */
export function eksSource(connection: EksConnection): KubeClientSource {
  let current: { token: string; clients: KubeClients } | undefined;
  let known = typeof connection.address === 'function' ? undefined : connection.address;
  return async () => {
    const [address, token] = await Promise.all([known ?? addressOf(connection), connection.token()]);
    known = address;
    if (current?.token !== token)
      current = { token, clients: kubeClients(eksConfig(connection, address, token)) };
    return current.clients;
  };
}

function addressOf(connection: EksConnection): Promise<EksAddress> {
  const { address } = connection;
  return typeof address === 'function' ? address() : Promise.resolve(address);
}

function eksConfig(connection: EksConnection, address: EksAddress, token: string): KubeConfig {
  const config = new KubeConfig();
  const name = connection.clusterName;
  config.loadFromOptions({
    clusters: [
      { name, server: address.endpoint, caData: address.certificateAuthority, skipTLSVerify: false },
    ],
    users: [{ name: 'joiner', token }],
    contexts: [{ name, cluster: name, user: 'joiner' }],
    currentContext: name,
  });
  return config;
}
