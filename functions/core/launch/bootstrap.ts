import type { AmiFamily, AmiSelectorTerm, KubeletConfiguration } from '../model/node-class.js';
import type { Taint } from '../model/taint.js';
import type { ClusterInfo } from './cluster-info.js';

/** The bootstrap formats joiner writes. */
export type BootstrapFamily = 'AL2023' | 'AL2' | 'Bottlerocket' | 'Custom';

/** Everything a node's user data says to the kubelet. */
export interface BootstrapInput {
  readonly family: BootstrapFamily;
  readonly cluster: ClusterInfo;
  readonly labels: Readonly<Record<string, string>>;
  /** Taints and startup taints, registered with the node. */
  readonly taints: readonly Taint[];
  readonly maxPods: number;
  readonly kubelet: KubeletConfiguration;
  /** The NodeClass's own user data, merged in. */
  readonly customUserData?: string;
  /** `RAID0`: assemble the instance store disks into one array for the kubelet's and containerd's storage. */
  readonly instanceStorePolicy?: 'RAID0';
}

/**
 * The bootstrap family of a NodeClass: `amiFamily` when set, else the family of the first alias
 * term (`al2023@latest`), else AL2023. Windows is refused with a clear error.
 */
export function bootstrapFamily(
  amiFamily: AmiFamily | undefined,
  terms: readonly AmiSelectorTerm[],
): BootstrapFamily {
  const alias = terms
    .find((t) => t.alias)
    ?.alias?.split('@')[0]
    ?.toLowerCase();
  const fromAlias: Record<string, BootstrapFamily> = {
    al2023: 'AL2023',
    al2: 'AL2',
    bottlerocket: 'Bottlerocket',
  };
  const family = amiFamily ?? (alias ? fromAlias[alias] : undefined) ?? 'AL2023';
  if (family === 'Windows2019' || family === 'Windows2022' || family === 'Windows2025') {
    throw new Error(
      `amiFamily ${family}: joiner does not launch Windows nodes (use AL2023, AL2 or Bottlerocket)`,
    );
  }
  if (alias && !fromAlias[alias]) {
    throw new Error(
      `amiSelectorTerms alias ${JSON.stringify(alias)}: unknown family (use al2023, al2 or bottlerocket)`,
    );
  }
  return family;
}

/** `k=v:Effect` (`k=:Effect` for an empty value), the kubelet's --register-with-taints item. */
export function taintFlag(taint: Taint): string {
  return `${taint.key}=${taint.value ?? ''}:${taint.effect}`;
}

/** Label domains the kubelet may not set on itself, or that depend on the instance launched. */
const RESERVED_LABEL =
  /^(?:[^/]*\.)?(?:kubernetes\.io|k8s\.io)\/|^karpenter\.k8s\.aws\/|^topology\.k8s\.aws\//;
const ALLOWED_LABEL = /^(?:kubelet|node)\.kubernetes\.io\/(?!instance-type$)/;

/**
 * The labels a node can register itself with: drops kubernetes.io / k8s.io labels the
 * NodeRestriction admission refuses (only kubelet.kubernetes.io/ and node.kubernetes.io/ pass) and instance-dependent ones (instance type, zone, arch...),
 * which the kubelet and cloud provider set themselves.
 */
export function registrableLabels(labels: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(labels).filter(([k]) => !RESERVED_LABEL.test(k) || ALLOWED_LABEL.test(k)),
  );
}
