import {
  mergeTables,
  parseBottlerocketToml,
  stringifyToml,
  type TomlTable,
} from '../model/bottlerocket-toml.js';
import type { BootstrapInput } from './bootstrap.js';

/** Tables whose keys are written quoted (label keys, taint keys, resource names). */
const MAP_TABLES = new Set(
  [
    'node-labels',
    'node-taints',
    'system-reserved',
    'kube-reserved',
    'eviction-hard',
    'eviction-soft',
    'eviction-soft-grace-period',
  ].map((t) => `settings.kubernetes.${t}`),
);

/** Directories Bottlerocket binds onto the instance store array. */
const EPHEMERAL_DIRS = ['/var/lib/containerd', '/var/lib/kubelet', '/var/log/pods'];

/**
 * The bootstrap command that builds the RAID0 array of the instance store disks
 * (`apiclient ephemeral-storage init`) and binds the kubelet's and containerd's directories on it,
 * on every boot, before the kubelet starts; the node fails to boot when it fails.
 */
function raid0BootstrapCommand(): TomlTable {
  return {
    '000-mount-instance-storage': {
      commands: [
        ['apiclient', 'ephemeral-storage', 'init'],
        ['apiclient', 'ephemeral-storage', 'bind', '--dirs', ...EPHEMERAL_DIRS],
      ],
      essential: true,
      mode: 'always',
    },
  };
}

/** Entries of a map that has some, else nothing (no empty tables are written). */
function some(name: string, entries: Readonly<Record<string, unknown>> | undefined): TomlTable {
  return entries && Object.keys(entries).length > 0 ? { [name]: { ...entries } } : {};
}

/** The `settings.kubernetes` joiner writes for a node. */
function joinerKubernetes(input: BootstrapInput): TomlTable {
  const k = input.kubelet;
  const taints: Record<string, string[]> = {};
  for (const t of input.taints) taints[t.key] = [...(taints[t.key] ?? []), `${t.value ?? ''}:${t.effect}`];
  const sorted = (m: Readonly<Record<string, unknown>>) =>
    Object.fromEntries(
      Object.keys(m)
        .sort()
        .map((key) => [key, m[key]]),
    );
  return {
    'cluster-name': input.cluster.name,
    'api-server': input.cluster.endpoint,
    'cluster-certificate': input.cluster.certificateAuthority,
    'max-pods': input.maxPods,
    ...(k.clusterDNS?.length ? { 'cluster-dns-ip': k.clusterDNS[0] } : {}),
    ...(k.cpuCFSQuota === undefined ? {} : { 'cpu-cfs-quota-enforced': k.cpuCFSQuota }),
    ...(k.imageGCHighThresholdPercent === undefined
      ? {}
      : { 'image-gc-high-threshold-percent': k.imageGCHighThresholdPercent }),
    ...(k.imageGCLowThresholdPercent === undefined
      ? {}
      : { 'image-gc-low-threshold-percent': k.imageGCLowThresholdPercent }),
    ...(k.evictionMaxPodGracePeriod === undefined
      ? {}
      : { 'eviction-max-pod-grace-period': k.evictionMaxPodGracePeriod }),
    ...some('node-labels', sorted(input.labels)),
    ...some('node-taints', sorted(taints)),
    ...some('system-reserved', k.systemReserved && sorted(k.systemReserved)),
    ...some('kube-reserved', k.kubeReserved && sorted(k.kubeReserved)),
    ...some('eviction-hard', k.evictionHard && sorted(k.evictionHard)),
    ...some('eviction-soft', k.evictionSoft && sorted(k.evictionSoft)),
    ...some('eviction-soft-grace-period', k.evictionSoftGracePeriod && sorted(k.evictionSoftGracePeriod)),
  };
}

/**
 * Bottlerocket user data (TOML settings), as Karpenter writes it: the NodeClass's TOML with
 * joiner's settings merged in. joiner's values win for the keys it writes (cluster, max pods,
 * kubelet settings); node labels and taints of both are kept, joiner's winning for the same key;
 * every other setting of the user's stays as written.
 */
export function bottlerocketUserData(input: BootstrapInput): string {
  const custom = input.customUserData?.trim() ?? '';
  let user: TomlTable;
  try {
    user = custom ? parseBottlerocketToml(custom) : {};
  } catch (error) {
    throw new Error(`NodeClass userData (Bottlerocket): ${(error as Error).message}`);
  }
  const ours: TomlTable = {
    settings: {
      kubernetes: joinerKubernetes(input),
      ...(input.instanceStorePolicy === 'RAID0' ? { 'bootstrap-commands': raid0BootstrapCommand() } : {}),
    },
  };
  return stringifyToml(mergeTables(user, ours), MAP_TABLES);
}
