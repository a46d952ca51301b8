/**
 * Reads kubeconfig files with client-node. Loaded only through a dynamic `import()` when a
 * kubeconfig is used (the simulated cloud, local runs), so the Lambda bundle keeps client-node in
 * a chunk its cold start never reads.
 */
import { KubeConfig } from '@kubernetes/client-node';

/** The kubeconfig at `path` (throws when the file cannot be read or is not a kubeconfig). */
export function readKubeconfig(path: string): KubeConfig {
  const config = new KubeConfig();
  config.loadFromFile(path);
  return config;
}
