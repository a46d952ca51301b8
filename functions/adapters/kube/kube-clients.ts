import type { RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { cachedUntilFailure } from '../../shared/cached-until-failure.js';
import { type KubeCredentials, type KubeServer, KubeTransport } from './kube-transport.js';

/**
 * Hands out the REST client of a cluster. The same client is handed out each time: its
 * connections are kept alive, and it reads fresh credentials before every request.
 */
export type KubeClientSource = () => Promise<KubeTransport>;

/**
 * The REST client of a loaded KubeConfig: its current context's server, TLS settings (CA, client
 * certificate) and credentials (token, exec plugin...), applied by client-node before each request.
 */
export async function kubeClients(config: KubeConfig): Promise<KubeTransport> {
  const cluster = config.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  if (cluster.proxyUrl)
    throw new Error(`kubeconfig cluster ${cluster.name} uses proxy-url, which joiner does not support`);
  const options = await authenticated(config);
  const { ca, cert, key, rejectUnauthorized, servername } = options;
  const name = `kubeconfig cluster ${cluster.name}`;
  const server: KubeServer = { url: cluster.server, name, ca, cert, key, rejectUnauthorized, servername };
  // Only an exec plugin or auth provider yields credentials that change; a static token or basic
  // auth keeps the headers read above.
  const user = config.getCurrentUser();
  const fixed = headersOf(options);
  const credentials: KubeCredentials =
    user?.exec || user?.authProvider ? async () => headersOf(await authenticated(config)) : async () => fixed;
  return new KubeTransport(server, credentials);
}

async function authenticated(config: KubeConfig): Promise<RequestOptions> {
  const options: RequestOptions = {};
  await config.applyToHTTPSOptions(options);
  return options;
}

function headersOf(options: RequestOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {}))
    if (value !== undefined) headers[name] = String(value);
  if (options.auth) headers.Authorization = `Basic ${Buffer.from(options.auth).toString('base64')}`;
  return headers;
}

/**
 * The client of a kubeconfig file (the simulated cloud, local runs). client-node reads the file
 * and its credentials; it is loaded on the first request, so a Lambda that talks to EKS never
 * loads it.
 */
export function kubeconfigFileSource(path: string): KubeClientSource {
  return cachedUntilFailure(() => loadKubeconfig(path));
}

async function loadKubeconfig(path: string): Promise<KubeTransport> {
  try {
    const { readKubeconfig } = await import('./kubeconfig-file.js');
    return await kubeClients(readKubeconfig(path));
  } catch (error) {
    throw new Error(`cannot use the kubeconfig ${path}: ${(error as Error).message}`);
  }
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
  /** A (cached) bearer token; called before every request. */
  readonly token: () => Promise<string>;
}

/**
 * The client of an EKS cluster: HTTPS to its endpoint trusting only the cluster CA, with a bearer
 * token read before every request. A lazy address is resolved on the first request; a failed
 * lookup fails that request and is tried again on the next.
 */
export function eksSource(connection: EksConnection): KubeClientSource {
  const credentials: KubeCredentials = async () => ({ Authorization: `Bearer ${await connection.token()}` });
  return cachedUntilFailure(async () => {
    const address = await addressOf(connection);
    const server: KubeServer = {
      url: address.endpoint,
      name: `EKS cluster ${connection.clusterName}`,
      ca: Buffer.from(address.certificateAuthority, 'base64'),
    };
    return new KubeTransport(server, credentials);
  });
}

function addressOf(connection: EksConnection): Promise<EksAddress> {
  const { address } = connection;
  return typeof address === 'function' ? address() : Promise.resolve(address);
}
