import type { KubeConnectionOptions } from '../../adapters/kube/create-cluster-api.js';
import { eksAddressOf } from './cluster-facts.js';
import type { Settings } from './settings.js';

/**
 * How the Kubernetes adapter connects: the kubeconfig when given, else the EKS endpoint + CA with
 * an IAM token for `clusterName` (default: the configured cluster). Endpoint and CA come from the
 * environment, or from eks:DescribeCluster on the first request when the environment lacks them.
 */
export function kubeConnectionOf(settings: Settings, clusterName?: string): KubeConnectionOptions {
  if (settings.kubeconfigPath) return { kubeconfigPath: settings.kubeconfigPath };
  const name = clusterName ?? settings.clusterName;
  const address = eksAddressOf(settings, name);
  const where = {
    clusterName: name,
    region: settings.region,
    // The function's own credentials when its environment carries them (Lambda sets them).
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
  };
  return typeof address === 'function' ? { ...where, address } : { ...where, ...address };
}
