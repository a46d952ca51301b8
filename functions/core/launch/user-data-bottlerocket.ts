import type { BootstrapInput } from './bootstrap.js';

/** A TOML basic string. */
function str(value: string): string {
  return JSON.stringify(value);
}

function table(name: string, entries: Readonly<Record<string, string>>): string[] {
  const keys = Object.keys(entries).sort();
  if (keys.length === 0) return [];
  return ['', `[${name}]`, ...keys.map((k) => `${str(k)} = ${str(entries[k])}`)];
}

/** Directories Bottlerocket binds onto the instance store array. */
const EPHEMERAL_DIRS = ['/var/lib/containerd', '/var/lib/kubelet', '/var/log/pods'];

/**
 * The bootstrap command that builds the RAID0 array of the instance store disks
 * (`apiclient ephemeral-storage init`) and binds the kubelet's and containerd's directories on it,
 * on every boot, before the kubelet starts; the node fails to boot when it fails.
 */
function raid0BootstrapCommand(): string[] {
  const commands = [
    ['apiclient', 'ephemeral-storage', 'init'],
    ['apiclient', 'ephemeral-storage', 'bind', '--dirs', ...EPHEMERAL_DIRS],
  ];
  return [
    '',
    '[settings.bootstrap-commands.000-mount-instance-storage]',
    `commands = [${commands.map((c) => `[${c.map(str).join(', ')}]`).join(', ')}]`,
    'essential = true',
    'mode = "always"',
  ];
}

/**
 * Bottlerocket user data (TOML settings). The NodeClass's own TOML comes first; it may not set
 * the `settings.kubernetes` tables joiner writes (TOML forbids defining a table twice).
 */
export function bottlerocketUserData(input: BootstrapInput): string {
  const custom = input.customUserData?.trim() ?? '';
  const owned = /^\s*\[settings\.kubernetes(?:\.node-labels|\.node-taints)?\]\s*$/m.exec(custom);
  if (owned) {
    throw new Error(
      `NodeClass userData (Bottlerocket): ${owned[0].trim()} is written by joiner; move those settings to the NodePool (labels, taints) or the NodeClass kubelet block`,
    );
  }
  const k = input.kubelet;
  const lines = [
    '[settings.kubernetes]',
    `cluster-name = ${str(input.cluster.name)}`,
    `api-server = ${str(input.cluster.endpoint)}`,
    `cluster-certificate = ${str(input.cluster.certificateAuthority)}`,
    `max-pods = ${input.maxPods}`,
  ];
  if (k.clusterDNS?.length) lines.push(`cluster-dns-ip = ${str(k.clusterDNS[0])}`);
  if (k.cpuCFSQuota !== undefined) lines.push(`cpu-cfs-quota-enforced = ${k.cpuCFSQuota}`);
  if (k.imageGCHighThresholdPercent !== undefined)
    lines.push(`image-gc-high-threshold-percent = ${k.imageGCHighThresholdPercent}`);
  if (k.imageGCLowThresholdPercent !== undefined)
    lines.push(`image-gc-low-threshold-percent = ${k.imageGCLowThresholdPercent}`);
  if (k.evictionMaxPodGracePeriod !== undefined)
    lines.push(`eviction-max-pod-grace-period = ${k.evictionMaxPodGracePeriod}`);
  const taints: Record<string, string[]> = {};
  for (const t of input.taints) taints[t.key] = [...(taints[t.key] ?? []), `${t.value ?? ''}:${t.effect}`];
  lines.push(...table('settings.kubernetes.node-labels', input.labels));
  if (Object.keys(taints).length > 0) {
    lines.push('', '[settings.kubernetes.node-taints]');
    for (const key of Object.keys(taints).sort())
      lines.push(`${str(key)} = [${taints[key].map(str).join(', ')}]`);
  }
  lines.push(...table('settings.kubernetes.system-reserved', k.systemReserved ?? {}));
  lines.push(...table('settings.kubernetes.kube-reserved', k.kubeReserved ?? {}));
  lines.push(...table('settings.kubernetes.eviction-hard', k.evictionHard ?? {}));
  lines.push(...table('settings.kubernetes.eviction-soft', k.evictionSoft ?? {}));
  lines.push(...table('settings.kubernetes.eviction-soft-grace-period', k.evictionSoftGracePeriod ?? {}));
  if (input.instanceStorePolicy === 'RAID0') lines.push(...raid0BootstrapCommand());
  return `${custom ? `${custom}\n\n` : ''}${lines.join('\n')}\n`;
}
