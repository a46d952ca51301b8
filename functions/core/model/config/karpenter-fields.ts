/**
 * Fields of Karpenter's own kinds (its CRDs' `spec`) that joiner does not implement. A document
 * that sets one is refused with an error naming the field and why, never loaded with the field
 * dropped: joiner's schemas know every other Karpenter field, and a key neither knows is a typo
 * (a warning). `test/fixtures/karpenter-fields.json` lists every field of the CRDs, and a unit
 * test holds each one to either joiner's schema (with where it is implemented) or this table.
 */

/** The KubeletConfiguration fields joiner passes; any other is refused. */
const KUBELET =
  'joiner passes clusterDNS, maxPods, podsPerCore, systemReserved, kubeReserved, evictionHard, evictionSoft, evictionSoftGracePeriod, evictionMaxPodGracePeriod, imageGCHighThresholdPercent, imageGCLowThresholdPercent and cpuCFSQuota to the kubelet; no other KubeletConfiguration field';

/** Unimplemented EC2NodeClass fields (`karpenter.k8s.aws`, every version), by path under the document. */
const NODE_CLASS: Readonly<Record<string, string>> = {
  'spec.connectionTracking': `connection tracking timeouts are not sent to the launched ENIs`,
  'spec.cpuOptions': `CPU options (nested virtualization) are not set on the launch template`,
  'spec.ipPrefixCount': `IPv4 prefixes are not assigned to the primary ENI (max pods does not count them)`,
  'spec.networkInterfaces':
    'Karpenter network interfaces are not read: joiner attaches EFA interfaces itself and extra interfaces through its joiner.sh/v1 NodeClass multusInterfaces',
  'spec.placementGroupSelector': `instances are not launched into placement groups`,
  'spec.kubelet.*': KUBELET,
};

/**
 * Unimplemented fields of Karpenter's v1beta1 NodePool: its kubelet block (moved to the
 * EC2NodeClass in v1) and `resources`, a NodeClaim field the v1beta1 template carried.
 */
const NODE_POOL_V1BETA1: Readonly<Record<string, string>> = {
  'spec.template.spec.kubelet.*': KUBELET,
  'spec.template.spec.resources':
    "joiner sizes each NodeClaim from its pods' requests and reads no resource requests from the NodePool template (Karpenter v1 removed the field)",
};

/** A v1alpha5 provider's `launchTemplate`: Karpenter launched from the user's own template. */
const LAUNCH_TEMPLATE =
  'joiner builds the launch template of every launch itself (network interfaces, user data, max pods) and does not launch from yours';

/** Unimplemented fields of Karpenter's v1alpha5 Provisioner. */
const PROVISIONER_V1ALPHA5: Readonly<Record<string, string>> = {
  'spec.kubeletConfiguration.*': KUBELET,
  'spec.provider.launchTemplate': LAUNCH_TEMPLATE,
};

/** Unimplemented fields of Karpenter's v1alpha1 AWSNodeTemplate. */
const AWS_NODE_TEMPLATE_V1ALPHA1: Readonly<Record<string, string>> = {
  'spec.launchTemplate': LAUNCH_TEMPLATE,
};

/** Tables by exact `apiVersion kind`, read before the group-wide ones. */
const BY_VERSION: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'karpenter.sh/v1beta1 NodePool': NODE_POOL_V1BETA1,
  'karpenter.sh/v1alpha5 Provisioner': PROVISIONER_V1ALPHA5,
  'karpenter.k8s.aws/v1alpha1 AWSNodeTemplate': AWS_NODE_TEMPLATE_V1ALPHA1,
};

/** Karpenter's kinds, keyed `group/kind`: the unimplemented fields of each, in every version. */
const UNIMPLEMENTED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'karpenter.k8s.aws/EC2NodeClass': NODE_CLASS,
  // joiner's own NodeClass is the v1 EC2NodeClass plus Multus interfaces.
  'joiner.sh/NodeClass': NODE_CLASS,
};

/** The path as the field tables write it: array indices become `[]` (`a[0].b` → `a[].b`). */
export function fieldPattern(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += '[]';
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}

/**
 * Why a field joiner's schema does not know, at `path` in a document of `apiVersion` / `kind`,
 * is a Karpenter field joiner refuses; `undefined` when it is not one of Karpenter's (a typo).
 * A field under an unimplemented one is refused with its parent's reason, and `path.*` refuses
 * every field under `path` the schema does not know (a KubeletConfiguration field under
 * `spec.kubelet` that joiner does not pass).
 */
export function unimplementedKarpenterField(
  apiVersion: string,
  kind: string,
  path: readonly (string | number)[],
): string | undefined {
  const pattern = fieldPattern(path);
  for (const table of [
    BY_VERSION[`${apiVersion} ${kind}`],
    UNIMPLEMENTED[`${apiVersion.split('/')[0]}/${kind}`],
  ]) {
    const reason = table === undefined ? undefined : lookup(table, pattern);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/** The reason `table` gives for `pattern` or its nearest listed ancestor (`ancestor.*` included). */
function lookup(table: Readonly<Record<string, string>>, field: string): string | undefined {
  let pattern = field;
  if (table[pattern] !== undefined) return table[pattern];
  for (;;) {
    const cut = Math.max(pattern.lastIndexOf('.'), pattern.lastIndexOf('['));
    if (cut <= 0) return undefined;
    pattern = pattern.slice(0, cut);
    const reason = table[pattern] ?? table[`${pattern}.*`];
    if (reason !== undefined) return reason;
  }
}
