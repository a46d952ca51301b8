import type { BootstrapInput } from './bootstrap.js';
import { taintFlag } from './bootstrap.js';

/** Single-quotes a shell word. */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function pairs(values: Readonly<Record<string, string>> | undefined, sep = '='): string | undefined {
  const keys = Object.keys(values ?? {}).sort();
  return keys.length ? keys.map((k) => `${k}${sep}${values![k]}`).join(',') : undefined;
}

/** The kubelet flags of an AL2 node. */
function kubeletArgs(input: BootstrapInput): string {
  const k = input.kubelet;
  const labels = pairs(input.labels);
  const args = [
    labels ? `--node-labels=${labels}` : undefined,
    input.taints.length ? `--register-with-taints=${input.taints.map(taintFlag).join(',')}` : undefined,
    `--max-pods=${input.maxPods}`,
    pairs(k.systemReserved) ? `--system-reserved=${pairs(k.systemReserved)}` : undefined,
    pairs(k.kubeReserved) ? `--kube-reserved=${pairs(k.kubeReserved)}` : undefined,
    pairs(k.evictionHard, '<') ? `--eviction-hard=${pairs(k.evictionHard, '<')}` : undefined,
    pairs(k.evictionSoft, '<') ? `--eviction-soft=${pairs(k.evictionSoft, '<')}` : undefined,
    pairs(k.evictionSoftGracePeriod)
      ? `--eviction-soft-grace-period=${pairs(k.evictionSoftGracePeriod)}`
      : undefined,
    k.evictionMaxPodGracePeriod !== undefined
      ? `--eviction-max-pod-grace-period=${k.evictionMaxPodGracePeriod}`
      : undefined,
    k.imageGCHighThresholdPercent !== undefined
      ? `--image-gc-high-threshold=${k.imageGCHighThresholdPercent}`
      : undefined,
    k.imageGCLowThresholdPercent !== undefined
      ? `--image-gc-low-threshold=${k.imageGCLowThresholdPercent}`
      : undefined,
    k.cpuCFSQuota !== undefined ? `--cpu-cfs-quota=${k.cpuCFSQuota}` : undefined,
  ];
  return args.filter((a) => a !== undefined).join(' ');
}

/**
 * AL2 user data: a bash script (the NodeClass's own script first, without its shebang) ending
 * with `/etc/eks/bootstrap.sh`.
 */
export function al2UserData(input: BootstrapInput): string {
  const custom = (input.customUserData ?? '')
    .replace(/\r\n/g, '\n')
    .replace(/^#!.*\n/, '')
    .trim();
  const bootstrap = [
    '/etc/eks/bootstrap.sh',
    quote(input.cluster.name),
    '--apiserver-endpoint',
    quote(input.cluster.endpoint),
    '--b64-cluster-ca',
    quote(input.cluster.certificateAuthority),
    '--use-max-pods',
    'false',
    ...(input.kubelet.clusterDNS?.length ? ['--dns-cluster-ip', quote(input.kubelet.clusterDNS[0])] : []),
    '--kubelet-extra-args',
    quote(kubeletArgs(input)),
    // bootstrap.sh builds the RAID0 array of the instance store disks for the kubelet and containerd.
    ...(input.instanceStorePolicy === 'RAID0' ? ['--local-disks', 'raid0'] : []),
  ].join(' ');
  return ['#!/bin/bash', 'set -e', ...(custom ? [custom] : []), bootstrap, ''].join('\n');
}
