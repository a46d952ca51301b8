import { type Cluster, DescribeClusterCommand, EKSClient } from '@aws-sdk/client-eks';
import { CACHED_MIDDLEWARE, leanSdkClient } from './lean-client.js';

/** What joiner needs to know of an EKS cluster, as DescribeCluster reports it. */
export interface ClusterDescription {
  /** API server URL, e.g. `https://ABC.gr7.us-west-2.eks.amazonaws.com`. */
  readonly endpoint: string;
  /** Base64 PEM of the cluster CA. */
  readonly certificateAuthority: string;
  /** Kubernetes minor version, e.g. `1.31`. */
  readonly kubernetesVersion: string;
  /** Service CIDR of the cluster's IP family. */
  readonly serviceCidr: string;
  readonly ipFamily: 'ipv4' | 'ipv6';
}

/** Where the cluster is and how to reach the EKS API. */
export interface ClusterDescriptionOptions {
  readonly clusterName: string;
  readonly region: string;
  /** EKS API endpoint override (tests). */
  readonly endpoint?: string;
  readonly credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** SDK attempts per call (default 3). */
  readonly maxAttempts?: number;
}

/** The one call the lookup makes (an EKSClient satisfies it). */
export interface DescribeClusterApi {
  send(command: DescribeClusterCommand): Promise<{ cluster?: Cluster }>;
}

/** An EKS client for the lookup. */
export function createEksClient(options: ClusterDescriptionOptions): EKSClient {
  return leanSdkClient(
    new EKSClient({
      ...CACHED_MIDDLEWARE,
      region: options.region,
      maxAttempts: options.maxAttempts ?? 3,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    }),
  );
}

/**
 * Describes the cluster once. Throws an error naming the cluster and region when the call fails,
 * the cluster is not ACTIVE, or the answer lacks a value joiner needs.
 */
export async function describeCluster(
  api: DescribeClusterApi,
  clusterName: string,
  region: string,
): Promise<ClusterDescription> {
  const where = `EKS cluster ${clusterName} in ${region}`;
  let cluster: Cluster | undefined;
  try {
    cluster = (await api.send(new DescribeClusterCommand({ name: clusterName }))).cluster;
  } catch (error) {
    throw new Error(
      `cannot describe ${where}: ${(error as Error).message}. Check the cluster name and region and ` +
        'that the function may call eks:DescribeCluster, or set the cluster endpoint, CA, version ' +
        'and service CIDR in the stack',
    );
  }
  if (!cluster) throw new Error(`cannot describe ${where}: the answer has no cluster`);
  if (cluster.status !== 'ACTIVE') {
    throw new Error(`${where} is ${cluster.status ?? 'in an unknown state'}, not ACTIVE: retry when it is`);
  }
  return descriptionOf(cluster, where);
}

function descriptionOf(cluster: Cluster, where: string): ClusterDescription {
  const network = cluster.kubernetesNetworkConfig;
  const ipFamily = network?.ipFamily === 'ipv6' ? 'ipv6' : 'ipv4';
  const serviceCidr = ipFamily === 'ipv6' ? network?.serviceIpv6Cidr : network?.serviceIpv4Cidr;
  const need = (value: string | undefined, field: string): string => {
    if (!value) throw new Error(`DescribeCluster of ${where} has no ${field}`);
    return value;
  };
  return {
    endpoint: need(cluster.endpoint, 'endpoint'),
    certificateAuthority: need(cluster.certificateAuthority?.data, 'certificateAuthority.data'),
    kubernetesVersion: need(cluster.version, 'version'),
    serviceCidr: need(
      serviceCidr,
      `kubernetesNetworkConfig.${ipFamily === 'ipv6' ? 'serviceIpv6Cidr' : 'serviceIpv4Cidr'}`,
    ),
    ipFamily,
  };
}

/**
 * Descriptions of this process, per region, EKS endpoint, cluster and caller (a Lambda process has
 * one caller; a process hosting several simulated functions looks up once per function, as each
 * deployed function does); failures are not kept.
 */
const descriptions = new Map<string, Promise<ClusterDescription>>();

/**
 * The cluster's description, looked up once per process (once per Lambda cold start) and shared
 * by every caller asking for the same cluster. A failed lookup is forgotten, so the next call
 * tries again.
 */
export function cachedClusterDescription(options: ClusterDescriptionOptions): Promise<ClusterDescription> {
  const key = JSON.stringify([
    options.region,
    options.endpoint ?? '',
    options.clusterName,
    options.credentials?.accessKeyId ?? '',
  ]);
  let description = descriptions.get(key);
  if (!description) {
    description = lookUp(options).catch((error: unknown) => {
      descriptions.delete(key);
      throw error;
    });
    descriptions.set(key, description);
  }
  return description;
}

async function lookUp(options: ClusterDescriptionOptions): Promise<ClusterDescription> {
  const client = createEksClient(options);
  try {
    return await describeCluster(client, options.clusterName, options.region);
  } finally {
    client.destroy();
  }
}
