import type { ClusterLookup } from '../../adapters/aws/ec2-cloud-provider.js';
import type { EksAddress } from '../../adapters/kube/kube-clients.js';
import type { ClusterInfo } from '../../core/launch/cluster-info.js';
import { cachedUntilFailure } from '../../shared/cached-until-failure.js';
import type { Settings } from './settings.js';

/** What the functions need to know of the cluster they scale. */
export interface ClusterFacts {
  /** API server URL. */
  readonly endpoint: string;
  /** Base64 PEM of the cluster CA. */
  readonly certificateAuthority: string;
  /** Kubernetes minor version, e.g. `1.31`. */
  readonly kubernetesVersion: string;
  /** Service CIDR of the cluster's IP family. */
  readonly serviceCidr: string;
}

type FactName = keyof ClusterFacts;

/**
 * The EKS lookup's module, imported on the first lookup only: one import per process, then the
 * same settled promise (an `import()` per call would go through the module loader every time).
 */
const clusterDescriptionModule = cachedUntilFailure(
  () => import('../../adapters/aws/cluster-description.js'),
);

/** The facts the environment gives (JOINER_CLUSTER_ENDPOINT, JOINER_CLUSTER_CA, ...). */
function givenFacts(settings: Settings): Partial<ClusterFacts> {
  return {
    endpoint: settings.clusterEndpoint,
    certificateAuthority: settings.clusterCa,
    kubernetesVersion: settings.kubernetesVersion,
    serviceCidr: settings.serviceCidr,
  };
}

/** The `wanted` facts when the environment gives them all, else undefined. */
function givenOnly<K extends FactName>(
  settings: Settings,
  wanted: readonly K[],
): Pick<ClusterFacts, K> | undefined {
  const given = givenFacts(settings);
  return wanted.every((name) => given[name]) ? pick(given as ClusterFacts, wanted) : undefined;
}

/**
 * The `wanted` facts of cluster `clusterName` (default: the configured one). Values in the
 * environment win; when one is missing, eks:DescribeCluster fills the gaps. The lookup is made at
 * most once per process and cluster, and not at all when the environment has everything wanted.
 */
export async function clusterFacts<K extends FactName>(
  settings: Settings,
  wanted: readonly K[],
  clusterName?: string,
): Promise<Pick<ClusterFacts, K>> {
  const complete = givenOnly(settings, wanted);
  if (complete) return complete;
  // Loaded only when a fact is missing: with the facts configured, no cold start loads the EKS client.
  const { cachedClusterDescription } = await clusterDescriptionModule();
  const described = await cachedClusterDescription({
    clusterName: clusterName ?? settings.clusterName,
    region: settings.region,
    endpoint: settings.endpoints.eks,
    credentials: settings.credentials,
  });
  const given = givenFacts(settings);
  const merged = Object.fromEntries(wanted.map((name) => [name, given[name] || described[name]]));
  return merged as Pick<ClusterFacts, K>;
}

/** The API server of a cluster: from the environment, or looked up on the first request. */
export function eksAddressOf(
  settings: Settings,
  clusterName?: string,
): EksAddress | (() => Promise<EksAddress>) {
  const wanted = ['endpoint', 'certificateAuthority'] as const;
  return givenOnly(settings, wanted) ?? (() => clusterFacts(settings, wanted, clusterName));
}

/** What nodes need to join the configured cluster: from the environment, or looked up on first launch. */
export function clusterInfoOf(settings: Settings): ClusterInfo | ClusterLookup {
  const name = settings.clusterName;
  const wanted = ['endpoint', 'certificateAuthority', 'serviceCidr'] as const;
  const given = givenOnly(settings, wanted);
  if (given) return { name, ...given };
  return { name, info: async () => ({ name, ...pick(await clusterFacts(settings, wanted), wanted) }) };
}

/** The configured cluster's Kubernetes version: from the environment, or looked up when first needed. */
export function kubernetesVersionOf(settings: Settings): string | (() => Promise<string>) {
  const given = settings.kubernetesVersion;
  if (given) return given;
  return async () => (await clusterFacts(settings, ['kubernetesVersion'])).kubernetesVersion;
}

function pick<K extends FactName>(facts: Pick<ClusterFacts, K>, names: readonly K[]): Pick<ClusterFacts, K> {
  return Object.fromEntries(names.map((name) => [name, facts[name]])) as Pick<ClusterFacts, K>;
}
